package io.nczarr.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** {@link ObjectValidators}: a replaced object is noticed, whatever response tells it. */
class ObjectValidatorsTest {
    private static final String DATE = "Tue, 15 Nov 1994 08:12:31 GMT";
    private static final long DATE_MS = 784887151000L;

    @Test
    void theFirstAnswerSetsTheVersionAndLaterOnesMustMatch() {
        ObjectValidators v = new ObjectValidators();
        assertEquals(-1, v.length());
        assertNull(v.changed(100, "\"a\"", DATE));
        v.learnLength(100);
        assertEquals(100, v.length());
        assertEquals(DATE_MS, v.lastModified());
        assertNull(v.changed(100, "\"a\"", DATE));
        assertNull(v.changed(-1, null, null), "a response without validators changes nothing");
        assertEquals(
                "object changed while reading: its length was 100 bytes and is now 101", v.changed(101, "\"a\"", DATE));
        assertEquals(
                "object changed while reading: its ETag was \"a\" and is now \"b\"", v.changed(100, "\"b\"", DATE));
    }

    @Test
    void theFirstLengthWins() {
        ObjectValidators v = new ObjectValidators();
        v.learnLength(10);
        v.learnLength(20);
        assertEquals(10, v.length());
    }

    @Test
    void anEtagFirstSeenLaterIsKeptFromThen() {
        ObjectValidators v = new ObjectValidators();
        assertNull(v.changed(10, null, null));
        assertNull(v.changed(10, "\"x\"", null));
        assertEquals("object changed while reading: its ETag was \"x\" and is now \"y\"", v.changed(10, "\"y\"", null));
    }

    @Test
    void headAnswersAreNotedNotCompared() {
        ObjectValidators v = new ObjectValidators();
        v.note("\"a\"", DATE);
        v.note("\"b\"", "Wed, 16 Nov 1994 08:12:31 GMT");
        assertEquals(DATE_MS + 86_400_000L, v.lastModified(), "Last-Modified is replaced");
        assertNull(v.changed(5, "\"a\"", null), "the first ETag was kept");
    }

    @Test
    void aMalformedDateLeavesTheTimeUnknown() {
        ObjectValidators v = new ObjectValidators();
        assertNull(v.changed(5, null, "yesterday"));
        assertEquals(0, v.lastModified());
    }
}
