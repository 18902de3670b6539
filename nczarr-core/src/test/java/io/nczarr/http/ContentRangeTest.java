package io.nczarr.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@link ContentRange}: which {@code Content-Range} headers answer which requested range. */
class ContentRangeTest {

    /** What the coordinator makes of a 206 answer to {@code bytes=offset-end}. */
    private static String verdict(String header, long offset, long end) {
        Optional<ContentRange> parsed = ContentRange.parse(header);
        if (parsed.isEmpty()) {
            return "malformed";
        }
        ContentRange r = parsed.get();
        if (!r.answers(offset, end)) {
            return "mismatch";
        }
        return r.first() + "-" + r.last() + "/" + (r.totalKnown() ? r.total() : "*") + " (" + r.length() + ")";
    }

    @ParameterizedTest(name = "[{0}] for bytes={1}-{2}: {3}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            bytes 0-9/100                                     | 0  | 9   | 0-9/100 (10)
            bytes 0-9/*                                       | 0  | 9   | 0-9/* (10)
            BYTES 10-19/20                                    | 10 | 19  | 10-19/20 (10)
            '  bytes   5-5/6  '                               | 5  | 5   | 5-5/6 (1)
            bytes 0-0/1                                       | 0  | 0   | 0-0/1 (1)
            bytes 90-99/100                                   | 90 | 109 | 90-99/100 (10)
            bytes 90-99/*                                     | 90 | 109 | 90-99/* (10)
            NULL                                              | 0  | 9   | malformed
            ''                                                | 0  | 9   | malformed
            bytes 0-9                                         | 0  | 9   | malformed
            bytes=0-9/100                                     | 0  | 9   | malformed
            items 0-9/100                                     | 0  | 9   | malformed
            bytes -1-9/100                                    | 0  | 9   | malformed
            bytes 0-9/-1                                      | 0  | 9   | malformed
            bytes */100                                       | 0  | 9   | malformed
            bytes 0x0-9/100                                   | 0  | 9   | malformed
            bytes 0-9/100 trailing                            | 0  | 9   | malformed
            'bytes 0-9/100, bytes 20-29/100'                  | 0  | 9   | malformed
            bytes 0-9223372036854775808/*                     | 0  | 9   | malformed
            bytes 0-9/99999999999999999999                    | 0  | 9   | malformed
            bytes 9223372036854775807-9223372036854775807/*   | 0  | 9   | mismatch
            bytes 9-0/100                                     | 9  | 9   | mismatch
            bytes 1-10/100                                    | 0  | 10  | mismatch
            bytes 0-20/100                                    | 0  | 9   | mismatch
            bytes 0-100/100                                   | 0  | 200 | mismatch
            bytes 0-9/5                                       | 0  | 9   | mismatch
            """)
    void rangeAnswers(String header, long offset, long end, String expected) {
        assertEquals(expected, verdict(header, offset, end));
    }

    @ParameterizedTest(name = "[{0}]: {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            bytes */100                  | 100
            ' BYTES */7 '                | 7
            bytes */0                    | 0
            bytes */*                    | -1
            bytes 0-9/100                | -1
            bytes */99999999999999999999 | -1
            ''                           | -1
            NULL                         | -1
            """)
    void unsatisfiedRangeTellsTheTotal(String header, long total) {
        assertEquals(total, ContentRange.unsatisfiedTotal(header));
    }
}
