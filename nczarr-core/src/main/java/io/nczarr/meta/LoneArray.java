package io.nczarr.meta;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * A dataset whose root is one array rather than a group (a URL naming an array of a hierarchy, as tensorstore
 * and zarrs open one): it reads as a root group holding that one variable, named after the last segment of the
 * dataset's location. Its open costs one round trip on a remote store: no listing, no other node.
 */
final class LoneArray {
    private LoneArray() {}

    /** The name of a store's lone array: the last path segment of its location, else {@code "array"}. */
    static String name(String location) {
        String s = location;
        int cut = indexOfAny(s, '#', '?');
        if (cut >= 0) {
            s = s.substring(0, cut);
        }
        while (s.endsWith("/")) {
            s = s.substring(0, s.length() - 1);
        }
        int from = 0;
        int authority = s.indexOf("://");
        if (authority >= 0) {
            from = s.indexOf('/', authority + 3); // the path, after the host
            if (from < 0) {
                return "array";
            }
        }
        int slash = s.lastIndexOf('/');
        String last = slash >= from ? s.substring(slash + 1) : "";
        if (s.startsWith("file:") || s.contains("://")) {
            try {
                last = URLDecoder.decode(last.replace("+", "%2B"), StandardCharsets.UTF_8);
            } catch (IllegalArgumentException e) {
                // a stray % is part of the name
            }
        }
        return last.isEmpty() ? "array" : last;
    }

    private static int indexOfAny(String s, char a, char b) {
        int i = s.indexOf(a);
        int j = s.indexOf(b);
        return i < 0 ? j : j < 0 ? i : Math.min(i, j);
    }
}
