package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * Typed access to the elements of a byte buffer laid out as one numeric dtype, with NumPy's
 * {@code astype} conversions (C casts as gcc emits them on x86-64). Immutable, so filters share
 * one instance across threads.
 */
final class Elements {

    private final NumpyDtype dtype;
    private final boolean bigEndian;
    private final char kind;
    private final int itemsize;

    Elements(NumpyDtype dtype) {
        this.dtype = dtype;
        this.bigEndian = dtype.bigEndian();
        this.kind = dtype.kind();
        this.itemsize = dtype.itemsize();
    }

    NumpyDtype dtype() {
        return dtype;
    }

    char kind() {
        return kind;
    }

    int itemsize() {
        return itemsize;
    }

    /** Element count of {@code nbytes} bytes; the length must be a whole number of elements. */
    int count(String codecId, int nbytes) throws CodecException {
        if (itemsize == 0) {
            throw new CodecException(codecId + ": dtype " + dtype.str() + " has no fixed element size");
        }
        if (nbytes % itemsize != 0) {
            throw new CodecException(
                    codecId + ": buffer of " + nbytes + " bytes is not a whole number of " + dtype.str() + " elements");
        }
        return nbytes / itemsize;
    }

    // ---- raw element access -------------------------------------------------------------------

    /** The {@code itemsize}-byte unsigned value at {@code off} in this dtype's byte order. */
    private long rawBits(byte[] b, int off) {
        int n = itemsize;
        long v = 0;
        if (bigEndian) {
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

    private void putRawBits(byte[] b, int off, long v) {
        int n = itemsize;
        if (bigEndian) {
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
                throw new IllegalStateException("not numeric: " + dtype.str());
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
                    return HalfFloat.toFloat((int) bits);
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
                    putRawBits(b, i * itemsize, HalfFloat.fromDouble((double) v));
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
                    putRawBits(b, i * itemsize, HalfFloat.fromDouble(d));
                }
                return;
            case 'b':
                putRawBits(b, i * itemsize, d != 0.0 || Double.isNaN(d) ? 1 : 0);
                return;
            default:
                putRawBits(b, i * itemsize, doubleToLong(d, itemsize, kind != 'u'));
        }
    }

    // ---- C conversions ----------------------------------------------------------------------------

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

    /** numpy-style element-wise cast of a whole buffer from {@code from} to {@code to}. */
    static byte[] cast(String codecId, byte[] src, Elements from, Elements to, int maxDecodedBytes)
            throws CodecException {
        int n = from.count(codecId, src.length);
        long outLen = (long) n * to.itemsize;
        if (outLen > maxDecodedBytes) {
            throw new CodecException(codecId + ": decoded data exceeds the expected " + maxDecodedBytes + " bytes");
        }
        boolean same = from.dtype.equals(to.dtype);
        if (!from.dtype.isNumeric() || !to.dtype.isNumeric()) {
            if (same) {
                return src.clone();
            }
            throw new CodecException(codecId + ": cannot cast " + from.dtype.str() + " to " + to.dtype.str());
        }
        byte[] out = new byte[(int) outLen];
        if (same) {
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
