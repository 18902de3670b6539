package io.nczarr.codec;

import io.nczarr.error.CodecException;

import java.nio.ByteOrder;

/**
 * A numpy dtype string as used by numcodecs filters ({@code "<i4"}, {@code ">f8"}, {@code "|u1"},
 * {@code "<U4"}, {@code "|b1"}, {@code "|O"}, {@code "|S3"}), with the element conversions that the
 * filters need. Numeric conversions follow numpy's {@code astype} (C casts on x86-64).
 *
 * @param order {@code '<'}, {@code '>'} or {@code '|'} (not applicable)
 * @param kind numpy kind character: b, i, u, f, c, S, U, O, V, M, m
 * @param itemsize bytes per element ({@code 0} for {@code |O}: variable length)
 */
public record NumpyDtype(char order, char kind, int itemsize) {

    /** Parses a numpy dtype string; {@code "f8"} without order means native (little-endian here). */
    public static NumpyDtype parse(String s) throws CodecException {
        if (s == null) {
            throw new CodecException("missing dtype");
        }
        String t = s.trim();
        if (t.isEmpty()) {
            throw new CodecException("empty dtype");
        }
        char order = '=';
        char c0 = t.charAt(0);
        if (c0 == '<' || c0 == '>' || c0 == '|' || c0 == '=') {
            order = c0;
            t = t.substring(1);
        }
        if (t.isEmpty()) {
            throw new CodecException("bad dtype '" + s + "'");
        }
        char kind = t.charAt(0);
        String num = t.substring(1);
        int n;
        if (kind == 'O') {
            return new NumpyDtype('|', 'O', 0);
        }
        if ((kind == 'M' || kind == 'm') && num.contains("[")) {
            num = num.substring(0, num.indexOf('['));
        }
        if ("biufcSUVMm".indexOf(kind) < 0) {
            throw new CodecException("unsupported dtype '" + s + "'");
        }
        n = num.isEmpty() ? defaultSize(kind) : parseSize(s, num);
        if (n <= 0 && kind != 'S' && kind != 'U' && kind != 'V') {
            throw new CodecException("bad dtype size in '" + s + "'");
        }
        switch (kind) {
            case 'b':
                if (n != 1) {
                    throw new CodecException("bad bool dtype '" + s + "'");
                }
                break;
            case 'i':
            case 'u':
                if (n != 1 && n != 2 && n != 4 && n != 8) {
                    throw new CodecException("bad integer dtype '" + s + "'");
                }
                break;
            case 'f':
                if (n != 2 && n != 4 && n != 8) {
                    throw new CodecException("unsupported float dtype '" + s + "'");
                }
                break;
            case 'c':
                if (n != 8 && n != 16) {
                    throw new CodecException("unsupported complex dtype '" + s + "'");
                }
                break;
            case 'M':
            case 'm':
                if (n != 8) {
                    throw new CodecException("bad datetime dtype '" + s + "'");
                }
                break;
            case 'U':
                n = n * 4;
                break;
            default:
                break;
        }
        if (n == 1 || kind == 'S' || kind == 'V' || kind == 'b') {
            order = '|';
        } else if (order == '=' || order == '|') {
            order = '<';
        }
        return new NumpyDtype(order, kind, n);
    }

    private static int defaultSize(char kind) {
        switch (kind) {
            case 'b':
                return 1;
            case 'i':
            case 'u':
            case 'M':
            case 'm':
                return 8;
            case 'f':
                return 8;
            case 'c':
                return 16;
            case 'U':
            case 'S':
            case 'V':
                return 0;
            default:
                return 0;
        }
    }

    private static int parseSize(String s, String num) throws CodecException {
        try {
            int n = Integer.parseInt(num);
            if (n < 0 || n > (1 << 24)) {
                throw new CodecException("bad dtype size in '" + s + "'");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new CodecException("bad dtype '" + s + "'");
        }
    }

    public ByteOrder byteOrder() {
        return order == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    public boolean bigEndian() {
        return order == '>';
    }

    /** bool, integer, unsigned, float or datetime: the kinds the numeric casts handle. */
    public boolean isNumeric() {
        return kind == 'b' || kind == 'i' || kind == 'u' || kind == 'f' || kind == 'M' || kind == 'm';
    }

    public boolean isInteger() {
        return kind == 'i' || kind == 'u' || kind == 'M' || kind == 'm';
    }

    public boolean isFloat() {
        return kind == 'f';
    }

    /** Number of characters of a {@code U} dtype. */
    public int chars() {
        return kind == 'U' ? itemsize / 4 : itemsize;
    }

    /** The dtype string in numpy's spelling, e.g. {@code "<i4"}. */
    public String str() {
        if (kind == 'O') {
            return "|O";
        }
        return "" + order + kind + (kind == 'U' ? itemsize / 4 : itemsize);
    }

    @Override
    public String toString() {
        return str();
    }

    /** Element count of {@code nbytes} bytes; the length must be a whole number of elements. */
    int count(String codecId, int nbytes) throws CodecException {
        if (itemsize == 0) {
            throw new CodecException(codecId + ": dtype " + str() + " has no fixed element size");
        }
        if (nbytes % itemsize != 0) {
            throw new CodecException(codecId + ": buffer of " + nbytes + " bytes is not a whole number of "
                    + str() + " elements");
        }
        return nbytes / itemsize;
    }

    // ---- raw element access -------------------------------------------------------------------

    /** Reads the {@code n}-byte unsigned value at {@code off} in this dtype's byte order. */
    long rawBits(byte[] b, int off) {
        int n = itemsize;
        long v = 0;
        if (order == '>') {
            for (int k = 0; k < n; k++) {
                v = (v << 8) | (b[off + k] & 0xFF);
            }
        } else {
            for (int k = n - 1; k >= 0; k--) {
                v = (v << 8) | (b[off + k] & 0xFF);
            }
        }
        return v;
    }

    void putRawBits(byte[] b, int off, long v) {
        int n = itemsize;
        if (order == '>') {
            for (int k = n - 1; k >= 0; k--) {
                b[off + k] = (byte) v;
                v >>>= 8;
            }
        } else {
            for (int k = 0; k < n; k++) {
                b[off + k] = (byte) v;
                v >>>= 8;
            }
        }
    }

    /** Integer value of element {@code i} (bool 0/1; signed kinds sign-extended; u8 as raw bits). */
    long getLong(byte[] b, int i) {
        long bits = rawBits(b, i * itemsize);
        switch (kind) {
            case 'b':
                return bits != 0 ? 1 : 0;
            case 'i':
            case 'M':
            case 'm':
                int shift = 64 - 8 * itemsize;
                return (bits << shift) >> shift;
            case 'u':
                return bits;
            case 'f':
                return doubleToLong(getDouble(b, i), 8, true);
            default:
                throw new IllegalStateException("not numeric: " + str());
        }
    }

    /** Value of element {@code i} as a double (u8 converted as unsigned). */
    double getDouble(byte[] b, int i) {
        long bits = rawBits(b, i * itemsize);
        switch (kind) {
            case 'f':
                if (itemsize == 8) {
                    return Double.longBitsToDouble(bits);
                } else if (itemsize == 4) {
                    return Float.intBitsToFloat((int) bits);
                } else {
                    return halfToFloat((int) bits);
                }
            case 'u':
                if (itemsize == 8 && bits < 0) {
                    return unsignedToDouble(bits);
                }
                return bits;
            default:
                return getLong(b, i);
        }
    }

    /** Stores an integer (already in this dtype's range or wrapped, like a C cast from int64). */
    void putLong(byte[] b, int i, long v) {
        switch (kind) {
            case 'b':
                putRawBits(b, i * itemsize, v != 0 ? 1 : 0);
                return;
            case 'f':
                if (itemsize == 8) {
                    putRawBits(b, i * itemsize, Double.doubleToRawLongBits((double) v));
                } else if (itemsize == 4) {
                    putRawBits(b, i * itemsize, Float.floatToRawIntBits((float) v) & 0xFFFFFFFFL);
                } else {
                    putRawBits(b, i * itemsize, doubleToHalf((double) v));
                }
                return;
            default:
                putRawBits(b, i * itemsize, v);
        }
    }

    /** Stores an unsigned 64-bit value (for u8 sources going to floats). */
    void putUnsignedLong(byte[] b, int i, long v) {
        if (kind == 'f' && v < 0) {
            if (itemsize == 4) {
                putRawBits(b, i * itemsize, Float.floatToRawIntBits(unsignedToFloat(v)) & 0xFFFFFFFFL);
            } else {
                putDouble(b, i, unsignedToDouble(v));
            }
        } else {
            putLong(b, i, v);
        }
    }

    /** Stores a double with numpy's cast semantics (round to nearest for floats, C truncation for ints). */
    void putDouble(byte[] b, int i, double d) {
        switch (kind) {
            case 'f':
                if (itemsize == 8) {
                    putRawBits(b, i * itemsize, Double.doubleToRawLongBits(d));
                } else if (itemsize == 4) {
                    putRawBits(b, i * itemsize, Float.floatToRawIntBits((float) d) & 0xFFFFFFFFL);
                } else {
                    putRawBits(b, i * itemsize, doubleToHalf(d));
                }
                return;
            case 'b':
                putRawBits(b, i * itemsize, d != 0.0 || Double.isNaN(d) ? 1 : 0);
                return;
            default:
                putRawBits(b, i * itemsize, doubleToLong(d, itemsize, kind != 'u'));
        }
    }

    /**
     * C conversion of a double to an integer of {@code size} bytes as gcc emits it on x86-64:
     * out-of-range and NaN give the "integer indefinite" value of the conversion instruction.
     */
    static long doubleToLong(double d, int size, boolean signed) {
        if (size == 8 && !signed) {
            // gcc: values >= 2^63 go through a subtract-and-flip sequence
            if (d >= 0x1p63 && d < 0x1p64) {
                return cvtt64(d - 0x1p63) ^ Long.MIN_VALUE;
            }
            return cvtt64(d);
        }
        if (size == 8 || (size == 4 && !signed)) {
            return cvtt64(d);
        }
        return cvtt32(d);
    }

    private static long cvtt64(double d) {
        if (Double.isNaN(d) || d >= 0x1p63 || d < -0x1p63) {
            return Long.MIN_VALUE;
        }
        return (long) d;
    }

    private static long cvtt32(double d) {
        if (Double.isNaN(d) || d >= 0x1p31 || d < -0x1p31) {
            return Integer.MIN_VALUE;
        }
        return (int) d;
    }

    static double unsignedToDouble(long v) {
        if (v >= 0) {
            return v;
        }
        // halve (keeping the sticky bit) so the one rounding happens in the conversion
        return ((double) ((v >>> 1) | (v & 1))) * 2.0;
    }

    static float unsignedToFloat(long v) {
        if (v >= 0) {
            return v;
        }
        return ((float) ((v >>> 1) | (v & 1))) * 2.0f;
    }

    // ---- IEEE half precision (Java 17 has no Float.float16ToFloat) ------------------------------

    static float halfToFloat(int h) {
        int sign = (h >>> 15) & 1;
        int exp = (h >>> 10) & 0x1F;
        int mant = h & 0x3FF;
        float v;
        if (exp == 0) {
            v = mant * 0x1p-24f;
        } else if (exp == 31) {
            v = mant == 0 ? Float.POSITIVE_INFINITY : Float.intBitsToFloat(0x7FC00000 | (mant << 13));
        } else {
            v = Float.intBitsToFloat(((exp - 15 + 127) << 23) | (mant << 13));
        }
        return sign != 0 ? -v : v;
    }

    /** Rounds a double directly to half precision (round half to even), as numpy's double->half. */
    static long doubleToHalf(double d) {
        long bits = Double.doubleToRawLongBits(d);
        int sign = (int) ((bits >>> 48) & 0x8000);
        long abs = bits & 0x7FFFFFFFFFFFFFFFL;
        if (abs >= 0x7FF0000000000000L) {
            // inf or nan
            if (abs == 0x7FF0000000000000L) {
                return sign | 0x7C00;
            }
            int m = (int) ((abs >>> 42) & 0x3FF);
            return sign | 0x7C00 | (m == 0 ? 0x200 : m);
        }
        int exp = (int) (abs >>> 52) - 1023;
        if (exp >= 16) {
            return sign | 0x7C00;
        }
        long mant = (abs & 0xFFFFFFFFFFFFFL) | (exp == -1023 ? 0 : 0x10000000000000L);
        int e16 = exp + 15;
        int shift;
        if (e16 <= 0) {
            // subnormal half: value = mant * 2^(exp-52); half ulp = 2^-24
            shift = 52 - (exp + 24);
            if (shift > 63) {
                return sign;
            }
            e16 = 0;
        } else {
            shift = 42;
        }
        long q = mant >>> shift;
        long rem = mant & ((1L << shift) - 1);
        long halfway = 1L << (shift - 1);
        if (rem > halfway || (rem == halfway && (q & 1) != 0)) {
            q++;
        }
        if (e16 == 0) {
            return sign | (int) q; // q may carry into the smallest normal, which is correct
        }
        long h = ((long) e16 << 10) + (q - 0x400);
        // a carry out of the mantissa increments the exponent (and may make infinity)
        return sign | (int) Math.min(h, 0x7C00);
    }

    static long floatToHalf(float f) {
        return doubleToHalf(f); // float -> double is exact, so one rounding
    }

    /** numpy-style element-wise cast of a whole buffer from {@code from} to {@code to}. */
    static byte[] cast(String codecId, byte[] src, NumpyDtype from, NumpyDtype to, int maxDecodedBytes)
            throws CodecException {
        int n = from.count(codecId, src.length);
        long outLen = (long) n * to.itemsize;
        if (outLen > maxDecodedBytes) {
            throw new CodecException(codecId + ": decoded data exceeds the expected " + maxDecodedBytes + " bytes");
        }
        if (!from.isNumeric() || !to.isNumeric()) {
            if (from.equals(to)) {
                return src.clone();
            }
            throw new CodecException(codecId + ": cannot cast " + from.str() + " to " + to.str());
        }
        byte[] out = new byte[(int) outLen];
        if (from.equals(to)) {
            System.arraycopy(src, 0, out, 0, src.length);
            return out;
        }
        if (from.kind == 'f') {
            for (int i = 0; i < n; i++) {
                to.putDouble(out, i, from.getDouble(src, i));
            }
        } else if (from.kind == 'u' && from.itemsize == 8) {
            for (int i = 0; i < n; i++) {
                to.putUnsignedLong(out, i, from.getLong(src, i));
            }
        } else {
            for (int i = 0; i < n; i++) {
                to.putLong(out, i, from.getLong(src, i));
            }
        }
        return out;
    }
}
