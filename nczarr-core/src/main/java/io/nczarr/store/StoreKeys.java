package io.nczarr.store;

/** Key hygiene shared by all stores: one place decides what a legal key is. */
public final class StoreKeys {
    private StoreKeys() {}

    /**
     * Checks that {@code key} is relative and stays inside the store: no leading {@code /}, no
     * drive letter, no backslash, no {@code .} or {@code ..} segment, no empty segment.
     *
     * @throws IllegalArgumentException naming the key
     */
    public static String check(String key) {
        if (key.isEmpty()) {
            return key;
        }
        if (!isSafe(key)) {
            throw new IllegalArgumentException("illegal store key '" + key + "' (absolute, or escapes the dataset)");
        }
        return key;
    }

    public static boolean isSafe(String key) {
        if (key.startsWith("/")
                || key.indexOf('\\') >= 0
                || key.indexOf('\0') >= 0
                || (key.length() > 1 && key.charAt(1) == ':')) {
            return false;
        }
        // no segment "." or "..": checked in place, as every metadata and chunk key passes here
        int start = 0;
        while (true) {
            int end = key.indexOf('/', start);
            int len = (end < 0 ? key.length() : end) - start;
            if ((len == 1 || len == 2) && key.charAt(start) == '.' && (len == 1 || key.charAt(start + 1) == '.')) {
                return false;
            }
            if (end < 0) {
                return true;
            }
            start = end + 1;
        }
    }

    /** Joins a prefix and a name: {@code join("", "a") = "a"}, {@code join("a", "b") = "a/b"}. */
    public static String join(String prefix, String name) {
        if (prefix == null || prefix.isEmpty()) {
            return name;
        }
        return prefix.endsWith("/") ? prefix + name : prefix + "/" + name;
    }

    /** Strips leading and trailing slashes. */
    public static String trim(String key) {
        int s = 0;
        int e = key.length();
        while (s < e && key.charAt(s) == '/') {
            s++;
        }
        while (e > s && key.charAt(e - 1) == '/') {
            e--;
        }
        return key.substring(s, e);
    }
}
