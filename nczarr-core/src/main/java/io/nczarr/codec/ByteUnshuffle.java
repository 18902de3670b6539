package io.nczarr.codec;

/**
 * The inverse of the byte shuffle (numcodecs/HDF5 {@code shuffle}, Blosc's byte shuffle): byte {@code i}
 * of element {@code j} is read from row {@code i}, at {@code row[i] + j}. The rows need not be adjacent,
 * so a Blosc block whose {@code typesize} streams are stored raw is unshuffled straight from the frame.
 *
 * <p>The default is a byte loop (specialised for element sizes 2, 4 and 8). With the system property {@code
 * nczarr.codec.vector=true} and the JDK's incubating Vector API module in the JVM ({@code --add-modules
 * jdk.incubator.vector}), {@link VectorUnshuffle} does it with SIMD widening moves, shifts and ors (about 4x
 * faster for element size 4); without either the
 * scalar code runs (the default).
 */
final class ByteUnshuffle {
    private ByteUnshuffle() {}

    /** The system property that asks for the Vector API unshuffle. */
    static final String VECTOR_PROPERTY = "nczarr.codec.vector";

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
            case 1 -> System.arraycopy(src, row[0] + j, dst, dOff + j, count - j);
            case 2 -> rows2(j, count, src, row[0], row[1], dst, dOff);
            case 4 -> rows4(j, count, src, row, dst, dOff);
            case 8 -> rows8(j, count, src, row, dst, dOff);
            default -> bytewise(ts, j, count, src, row, dst, dOff);
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

    // Element sizes 2, 4 and 8 write each element's bytes in sequence from the rows: measured fastest of the
    // scalar forms here (a 64-bit word interleave with shifts and masks, or one int store per element, were
    // 1.3-1.5x slower on JDK 17)

    private static void rows2(int from, int count, byte[] src, int r0, int r1, byte[] dst, int dOff) {
        for (int j = from, d = dOff + 2 * from; j < count; j++, d += 2) {
            dst[d] = src[r0 + j];
            dst[d + 1] = src[r1 + j];
        }
    }

    private static void rows4(int from, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int r0 = row[0];
        int r1 = row[1];
        int r2 = row[2];
        int r3 = row[3];
        for (int j = from, d = dOff + 4 * from; j < count; j++, d += 4) {
            dst[d] = src[r0 + j];
            dst[d + 1] = src[r1 + j];
            dst[d + 2] = src[r2 + j];
            dst[d + 3] = src[r3 + j];
        }
    }

    private static void rows8(int from, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int r0 = row[0];
        int r1 = row[1];
        int r2 = row[2];
        int r3 = row[3];
        int r4 = row[4];
        int r5 = row[5];
        int r6 = row[6];
        int r7 = row[7];
        for (int j = from, d = dOff + 8 * from; j < count; j++, d += 8) {
            dst[d] = src[r0 + j];
            dst[d + 1] = src[r1 + j];
            dst[d + 2] = src[r2 + j];
            dst[d + 3] = src[r3 + j];
            dst[d + 4] = src[r4 + j];
            dst[d + 5] = src[r5 + j];
            dst[d + 6] = src[r6 + j];
            dst[d + 7] = src[r7 + j];
        }
    }
}
