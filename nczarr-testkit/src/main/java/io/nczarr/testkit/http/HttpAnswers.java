package io.nczarr.testkit.http;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/** Small answers of the loopback test servers: a text body, and the conditional request headers. */
final class HttpAnswers {
    private HttpAnswers() {}

    /** A status with a text body (none for HEAD). */
    static void text(HttpExchange ex, int status, String text) throws IOException {
        if (ex.getRequestMethod().equalsIgnoreCase("HEAD")) {
            ex.sendResponseHeaders(status, -1);
            return;
        }
        byte[] b = text.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    /**
     * Whether the request's {@code If-Match} (a list of entity tags or {@code *}; strong comparison) or {@code
     * If-Unmodified-Since} fails for an object with {@code etag} and {@code lastModified} (RFC 1123), as RFC 9110
     * section 13.2.2 orders them: If-Match when present, else If-Unmodified-Since.
     */
    static boolean preconditionFailed(Headers request, String etag, String lastModified) {
        String ifMatch = request.getFirst("If-Match");
        if (ifMatch != null) {
            for (String t : ifMatch.split(",")) {
                String tag = t.trim();
                if (tag.equals("*") || (!tag.startsWith("W/") && tag.equals(etag))) {
                    return false;
                }
            }
            return true;
        }
        String since = request.getFirst("If-Unmodified-Since");
        if (since == null) {
            return false;
        }
        try {
            DateTimeFormatter f = DateTimeFormatter.RFC_1123_DATE_TIME;
            return ZonedDateTime.parse(lastModified, f).isAfter(ZonedDateTime.parse(since.trim(), f));
        } catch (DateTimeParseException e) {
            return false; // an unparsable date is ignored (RFC 9110)
        }
    }
}
