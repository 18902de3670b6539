package io.nczarr.s3;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A response's {@code Content-Range: bytes first-last/total}: which bytes the body holds, stated
 * apart from its {@code Content-Length}, so a body cut short with a matching Content-Length is still
 * caught.
 *
 * @param first the first byte's offset
 * @param last the last byte's offset (inclusive)
 * @param total the object's length, {@code -1} for {@code *}
 */
record ContentRangeHeader(long first, long last, long total) {
    private static final Pattern FORM = Pattern.compile("bytes (\\d{1,18})-(\\d{1,18})/(\\d{1,18}|\\*)");

    /** {@code null} for no header, and for one that is not {@code bytes a-b/t} with a ≤ b < t. */
    static ContentRangeHeader parse(String header) {
        if (header == null) {
            return null;
        }
        Matcher m = FORM.matcher(header.trim());
        if (!m.matches()) {
            return null;
        }
        long first = Long.parseLong(m.group(1));
        long last = Long.parseLong(m.group(2));
        long total = m.group(3).equals("*") ? -1 : Long.parseLong(m.group(3));
        if (last < first || (total >= 0 && last >= total)) {
            return null;
        }
        return new ContentRangeHeader(first, last, total);
    }

    /** How many bytes the body holds. */
    long length() {
        return last - first + 1;
    }
}
