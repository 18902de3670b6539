package io.nczarr.codec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The inverse of the byte shuffle (numcodecs/HDF5 {@code shuffle}, Blosc's byte shuffle): byte {@code i}
 * of element {@code j} is read from row {@code i}, at {@code row[i] + j}. The rows need not be adjacent,
 * so a Blosc block whose {@code typesize} streams are stored raw is unshuffled straight from the frame.
 *
 * <p>Element sizes 2, 4 and 8 go 8 elements at a time: one little-endian long per row, the bytes
 * interleaved with shifts and masks (byte pairs, then 16-bit pairs, then 32-bit pairs) and written as
 * longs, which is about 2-3x the byte loop's speed. With the system property {@code
 * nczarr.codec.vector=true} and the JDK's incubating Vector API module in the JVM ({@code --add-modules
 * jdk.incubator.vector}), {@link VectorUnshuffle} does the same with SIMD permutes; without either the
 * scalar code runs (the default).
 */
final class ByteUnshuffle {
    private ByteUnshuffle() {}

    /** The system property that asks for the Vector API unshuffle. */
    static final String VECTOR_PROPERTY = "nczarr.codec.vector";

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private static final long LOW32 = 0xFFFFFFFFL;
    private static final long M16 = 0x0000FFFF0000FFFFL;
    private static final long M8 = 0x00FF00FF00FF00FFL;

    /** Whether the Vector API path is used: asked for and the module is in the JVM (decided once). */
    static final boolean VECTOR = Boolean.getBoolean(VECTOR_PROPERTY)
            && ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent();

    /** Unshuffles {@code size} bytes whose {@code ts} rows lie one after the other from {@code sOff}. */
    static void unshuffle(int ts, int size, byte[] src, int sOff, byte[] dst, int dOff) {
        unshuffle(ts, size, src, sOff, dst, dOff, VECTOR);
    }

    /** {@link #unshuffle(int, int, byte[], int, byte[], int)} with the path given (tests run both). */
    static void unshuffle(int ts, int size, byte[] src, int sOff, byte[] dst, int dOff, boolean vector) {
        int count = size / ts;
        int[] rows = new int[ts];
        for (int i = 0; i < ts; i++) {
            rows[i] = sOff + i * count;
        }
        rows(ts, count, src, rows, dst, dOff, vector);
        int done = count * ts;
        System.arraycopy(src, sOff + done, dst, dOff + done, size - done);
    }

    /** Writes {@code count} elements of {@code ts} bytes to {@code dst[dOff..)}, byte i from row i. */
    static void rows(int ts, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        rows(ts, count, src, row, dst, dOff, VECTOR);
    }

    static void rows(int ts, int count, byte[] src, int[] row, byte[] dst, int dOff, boolean vector) {
        int j = 0;
        if (vector && (ts == 2 || ts == 4 || ts == 8)) {
            j = VectorUnshuffle.rows(ts, count, src, row, dst, dOff);
        }
        switch (ts) {
            case 1 -> {
                System.arraycopy(src, row[0] + j, dst, dOff + j, count - j);
                j = count;
            }
            case 2 -> j = rows2(count, src, row[0], row[1], dst, dOff, j);
            case 4 -> j = rows4(count, src, row, dst, dOff, j);
            case 8 -> j = rows8(count, src, row, dst, dOff, j);
            default -> {
                // any other element size: a byte loop per row
            }
        }
        if (j < count) {
            bytewise(ts, j, count, src, row, dst, dOff);
        }
    }

    private static void bytewise(int ts, int from, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        for (int i = 0; i < ts; i++) {
            int r = row[i];
            for (int j = from, d = dOff + from * ts + i; j < count; j++, d += ts) {
                dst[d] = src[r + j];
            }
        }
    }

    /** The low 4 bytes of x, each followed by a zero byte. */
    private static long spread8(long x) {
        x &= LOW32;
        x = (x | (x << 16)) & M16;
        return (x | (x << 8)) & M8;
    }

    /** The low two 16-bit units of x, each followed by a zero unit. */
    private static long spread16(long x) {
        x &= LOW32;
        return (x | (x << 16)) & M16;
    }

    private static long get(byte[] b, int at) {
        return (long) LONG.get(b, at);
    }

    private static void put(byte[] b, int at, long v) {
        LONG.set(b, at, v);
    }

    private static int rows2(int count, byte[] src, int r0, int r1, byte[] dst, int dOff, int from) {
        int j = from;
        for (int d = dOff + 2 * j; j + 8 <= count; j += 8, d += 16) {
            long a = get(src, r0 + j);
            long b = get(src, r1 + j);
            put(dst, d, spread8(a) | (spread8(b) << 8));
            put(dst, d + 8, spread8(a >>> 32) | (spread8(b >>> 32) << 8));
        }
        return j;
    }

    private static int rows4(int count, byte[] src, int[] row, byte[] dst, int dOff, int from) {
        int r0 = row[0];
        int r1 = row[1];
        int r2 = row[2];
        int r3 = row[3];
        int j = from;
        for (int d = dOff + 4 * j; j + 8 <= count; j += 8, d += 32) {
            long a = get(src, r0 + j);
            long b = get(src, r1 + j);
            long c = get(src, r2 + j);
            long e = get(src, r3 + j);
            // a0 b0 a1 b1 a2 b2 a3 b3, and the same for elements 4-7 and for rows 2, 3
            long abLo = spread8(a) | (spread8(b) << 8);
            long abHi = spread8(a >>> 32) | (spread8(b >>> 32) << 8);
            long ceLo = spread8(c) | (spread8(e) << 8);
            long ceHi = spread8(c >>> 32) | (spread8(e >>> 32) << 8);
            put(dst, d, spread16(abLo) | (spread16(ceLo) << 16));
            put(dst, d + 8, spread16(abLo >>> 32) | (spread16(ceLo >>> 32) << 16));
            put(dst, d + 16, spread16(abHi) | (spread16(ceHi) << 16));
            put(dst, d + 24, spread16(abHi >>> 32) | (spread16(ceHi >>> 32) << 16));
        }
        return j;
    }

    private static int rows8(int count, byte[] src, int[] row, byte[] dst, int dOff, int from) {
        int j = from;
        long[] q = new long[8];
        for (int d = dOff + 8 * j; j + 8 <= count; j += 8, d += 64) {
            // rows 0-3 and 4-7 each give 4 longs of 2 elements' 4 bytes (as rows4), paired up at the end
            quad(src, row[0] + j, row[1] + j, row[2] + j, row[3] + j, q, 0);
            quad(src, row[4] + j, row[5] + j, row[6] + j, row[7] + j, q, 4);
            for (int k = 0; k < 4; k++) {
                long lo = q[k];
                long hi = q[4 + k];
                put(dst, d + 16 * k, (lo & LOW32) | (hi << 32));
                put(dst, d + 16 * k + 8, (lo >>> 32) | (hi & ~LOW32));
            }
        }
        return j;
    }

    private static void quad(byte[] src, int r0, int r1, int r2, int r3, long[] q, int at) {
        long a = get(src, r0);
        long b = get(src, r1);
        long c = get(src, r2);
        long e = get(src, r3);
        long abLo = spread8(a) | (spread8(b) << 8);
        long abHi = spread8(a >>> 32) | (spread8(b >>> 32) << 8);
        long ceLo = spread8(c) | (spread8(e) << 8);
        long ceHi = spread8(c >>> 32) | (spread8(e >>> 32) << 8);
        q[at] = spread16(abLo) | (spread16(ceLo) << 16);
        q[at + 1] = spread16(abLo >>> 32) | (spread16(ceLo >>> 32) << 16);
        q[at + 2] = spread16(abHi) | (spread16(ceHi) << 16);
        q[at + 3] = spread16(abHi >>> 32) | (spread16(ceHi >>> 32) << 16);
    }
}
