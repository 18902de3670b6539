package io.nczarr.codec;

/**
 * The scalar byte unshuffle into typed arrays ({@link ElementSink#unshuffle}): element {@code j} is assembled
 * from one byte of each row, {@code lsb[0]} the row of its least significant byte, and stored as one number.
 * Elements {@code [from, n)} are written to {@code dst[e + from ..)}.
 */
final class TypedUnshuffle {
    private TypedUnshuffle() {}

    static void shorts(int from, int n, byte[] src, int[] lsb, short[] dst, int e) {
        int r0 = lsb[0];
        int r1 = lsb[1];
        for (int j = from; j < n; j++) {
            dst[e + j] = (short) ((src[r0 + j] & 0xFF) | (src[r1 + j] << 8));
        }
    }

    private static int int4(byte[] src, int r0, int r1, int r2, int r3, int j) {
        return (src[r0 + j] & 0xFF) | (src[r1 + j] & 0xFF) << 8 | (src[r2 + j] & 0xFF) << 16 | src[r3 + j] << 24;
    }

    static void ints(int from, int n, byte[] src, int[] lsb, int[] dst, int e) {
        int r0 = lsb[0];
        int r1 = lsb[1];
        int r2 = lsb[2];
        int r3 = lsb[3];
        for (int j = from; j < n; j++) {
            dst[e + j] = int4(src, r0, r1, r2, r3, j);
        }
    }

    static void floats(int from, int n, byte[] src, int[] lsb, float[] dst, int e) {
        int r0 = lsb[0];
        int r1 = lsb[1];
        int r2 = lsb[2];
        int r3 = lsb[3];
        for (int j = from; j < n; j++) {
            dst[e + j] = Float.intBitsToFloat(int4(src, r0, r1, r2, r3, j));
        }
    }

    private static long long8(byte[] src, int[] r, int j) {
        long lo = (src[r[0] + j] & 0xFF)
                | (src[r[1] + j] & 0xFF) << 8
                | (src[r[2] + j] & 0xFF) << 16
                | (long) (src[r[3] + j] & 0xFF) << 24;
        long hi = (src[r[4] + j] & 0xFF)
                | (src[r[5] + j] & 0xFF) << 8
                | (src[r[6] + j] & 0xFF) << 16
                | (long) src[r[7] + j] << 24;
        return lo | hi << 32;
    }

    static void longs(int from, int n, byte[] src, int[] lsb, long[] dst, int e) {
        for (int j = from; j < n; j++) {
            dst[e + j] = long8(src, lsb, j);
        }
    }

    static void doubles(int from, int n, byte[] src, int[] lsb, double[] dst, int e) {
        for (int j = from; j < n; j++) {
            dst[e + j] = Double.longBitsToDouble(long8(src, lsb, j));
        }
    }
}
