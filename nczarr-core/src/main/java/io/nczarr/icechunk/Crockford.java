package io.nczarr.icechunk;

import java.util.Arrays;

/**
 * Crockford base 32 as Icechunk names its objects: upper case, no padding, the bits padded with zeros on the
 * right (12 bytes → 20 characters, 8 bytes → 13). Decoding is lenient as Crockford says (lower case, {@code
 * O}→0, {@code I}/{@code L}→1) and refuses anything else.
 */
public final class Crockford {
    private static final char[] ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ".toCharArray();
    private static final int[] VALUES = new int[128];

    static {
        Arrays.fill(VALUES, -1);
        for (int i = 0; i < ALPHABET.length; i++) {
            VALUES[ALPHABET[i]] = i;
            VALUES[Character.toLowerCase(ALPHABET[i])] = i;
        }
        VALUES['O'] = 0;
        VALUES['o'] = 0;
        VALUES['I'] = 1;
        VALUES['i'] = 1;
        VALUES['L'] = 1;
        VALUES['l'] = 1;
    }

    private Crockford() {}

    /** The encoding of {@code bytes}. */
    public static String encode(byte[] bytes) {
        StringBuilder sb = new StringBuilder((bytes.length * 8 + 4) / 5);
        int buffer = 0;
        int bits = 0;
        for (byte b : bytes) {
            buffer = (buffer << 8) | (b & 0xff);
            bits += 8;
            while (bits >= 5) {
                sb.append(ALPHABET[(buffer >>> (bits - 5)) & 31]);
                bits -= 5;
            }
        }
        if (bits > 0) {
            sb.append(ALPHABET[(buffer << (5 - bits)) & 31]);
        }
        return sb.toString();
    }

    /**
     * The {@code length} bytes {@code text} encodes.
     *
     * @throws IllegalArgumentException when it is not the encoding of {@code length} bytes
     */
    public static byte[] decode(String text, int length) {
        int chars = (length * 8 + 4) / 5;
        if (text.length() != chars) {
            throw new IllegalArgumentException(
                    "an id of " + length + " bytes has " + chars + " base-32 characters, not " + text.length());
        }
        byte[] out = new byte[length];
        int buffer = 0;
        int bits = 0;
        int n = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            int v = c < 128 ? VALUES[c] : -1;
            if (v < 0) {
                throw new IllegalArgumentException("'" + c + "' is not a Crockford base-32 character");
            }
            buffer = (buffer << 5) | v;
            bits += 5;
            if (bits >= 8) {
                if (n < length) {
                    out[n++] = (byte) ((buffer >> (bits - 8)) & 0xff);
                }
                bits -= 8;
            }
            buffer &= (1 << bits) - 1;
        }
        if (buffer != 0) {
            throw new IllegalArgumentException("non-zero padding bits");
        }
        return out;
    }
}
