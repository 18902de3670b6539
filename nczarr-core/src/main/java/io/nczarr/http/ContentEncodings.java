package io.nczarr.http;

import java.net.http.HttpHeaders;
import java.util.List;

/**
 * The one Content-Encoding check of HTTP reads: every GET asks for {@code Accept-Encoding: identity}, and an
 * answer (200 or 206) whose body is encoded anyway ({@code gzip}, {@code br}...) is refused, because its bytes
 * are not the object's bytes: byte ranges would be cut out of the compressed stream (wrong data, no error).
 */
public final class ContentEncodings {
    /** The request header every GET carries. */
    public static final String ACCEPT = "Accept-Encoding";
    /** Its value. */
    public static final String IDENTITY = "identity";

    private ContentEncodings() {}

    /** Why the body of an answer with these headers is not the object's bytes, or null when it is. */
    public static String refusal(HttpHeaders h) {
        List<String> all = h.allValues("Content-Encoding");
        for (String v : all) {
            for (String part : v.split(",")) {
                String e = part.trim();
                if (!e.isEmpty() && !e.equalsIgnoreCase(IDENTITY)) {
                    return "the server sent Content-Encoding: " + v.trim()
                            + " although identity was asked for; an encoded body is not the object's bytes";
                }
            }
        }
        return null;
    }
}
