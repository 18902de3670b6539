package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import org.junit.jupiter.api.Test;

class StoreKeysTest {

    /** The rule as first written: no absolute key, no backslash, NUL or drive letter, no "." or ".." segment. */
    private static boolean reference(String key) {
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

    @Test
    void examples() {
        assertTrue(StoreKeys.isSafe("a/.zarray"));
        assertTrue(StoreKeys.isSafe("a/...b/..c/c../0.0"));
        assertTrue(StoreKeys.isSafe(""));
        assertTrue(StoreKeys.isSafe("a//b/"));
        assertFalse(StoreKeys.isSafe(".."));
        assertFalse(StoreKeys.isSafe("."));
        assertFalse(StoreKeys.isSafe("a/../b"));
        assertFalse(StoreKeys.isSafe("a/./b"));
        assertFalse(StoreKeys.isSafe("a/.."));
        assertFalse(StoreKeys.isSafe("./a"));
        assertFalse(StoreKeys.isSafe("/a"));
        assertFalse(StoreKeys.isSafe("c:/a"));
    }

    @Test
    void sameAsTheSplittingRuleOnRandomKeys() {
        Random r = new Random(16);
        char[] alphabet = {'.', '.', '/', '/', 'a', '0', '\\', ':'};
        for (int i = 0; i < 200_000; i++) {
            char[] k = new char[r.nextInt(9)];
            for (int j = 0; j < k.length; j++) {
                k[j] = alphabet[r.nextInt(alphabet.length)];
            }
            String key = new String(k);
            assertEquals(reference(key), StoreKeys.isSafe(key), key);
        }
    }
}
