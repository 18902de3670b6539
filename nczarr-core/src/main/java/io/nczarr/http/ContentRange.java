package io.nczarr.http;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The {@code Content-Range} header of a byte-range response ({@code bytes first-last/total}, the
 * total {@code *} when the server does not know it), and whether it answers the range asked for.
 * Pure: no I/O, no state.
 *
 * @param first the first byte of the body in the object
 * @param last the last byte of the body (inclusive)
 * @param total the object's length, or {@link #UNKNOWN_TOTAL}
 */
public record ContentRange(long first, long last, long total) {
    public static final long UNKNOWN_TOTAL = -1;

    private static final Pattern SATISFIED =
            Pattern.compile("\\s*bytes\\s+(\\d+)-(\\d+)/(\\d+|\\*)\\s*", Pattern.CASE_INSENSITIVE);
    private static final Pattern UNSATISFIED = Pattern.compile("\\s*bytes\\s+\\*/(\\d+)\\s*", Pattern.CASE_INSENSITIVE);

    /**
     * The header of a 206 response; empty when it is missing, malformed, or holds a number too large
     * for a {@code long}. Order and bounds are checked by {@link #answers}, so that a well-formed but
     * wrong answer is reported as such.
     */
    public static Optional<ContentRange> parse(String header) {
        if (header == null) {
            return Optional.empty();
        }
        Matcher m = SATISFIED.matcher(header);
        if (!m.matches()) {
            return Optional.empty();
        }
        try {
            long total = m.group(3).equals("*") ? UNKNOWN_TOTAL : Long.parseLong(m.group(3));
            return Optional.of(new ContentRange(Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), total));
        } catch (NumberFormatException overflow) {
            return Optional.empty();
        }
    }

    /**
     * The object length told by the {@code Content-Range} of a 416 response (an unsatisfied range:
     * {@code bytes *}, a slash, the total); {@link #UNKNOWN_TOTAL} when missing or malformed.
     */
    public static long unsatisfiedTotal(String header) {
        Matcher m = header == null ? null : UNSATISFIED.matcher(header);
        if (m == null || !m.matches()) {
            return UNKNOWN_TOTAL;
        }
        try {
            return Long.parseLong(m.group(1));
        } catch (NumberFormatException overflow) {
            return UNKNOWN_TOTAL;
        }
    }

    /**
     * Whether this is a valid answer to {@code Range: bytes=offset-end}: it starts at {@code offset},
     * is in order, ends at or before {@code end} (a server may clip at the end of the object), and
     * inside the object when the total is known.
     */
    public boolean answers(long offset, long end) {
        return first == offset && last >= first && last <= end && (total == UNKNOWN_TOTAL || last < total);
    }

    /** The number of bytes the body holds; meaningful once {@link #answers} is true. */
    public long length() {
        return last - first + 1;
    }

    public boolean totalKnown() {
        return total != UNKNOWN_TOTAL;
    }
}
