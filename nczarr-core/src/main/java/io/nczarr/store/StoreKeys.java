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
        for (String seg : key.split("/", -1)) {
            if (seg.equals("..") || seg.equals(".")) {
                return false;
            }
        }
        return true;
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
