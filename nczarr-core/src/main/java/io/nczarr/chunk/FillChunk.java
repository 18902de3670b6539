package io.nczarr.chunk;

import java.util.Arrays;

/** A chunk that is not stored: every element is the fill value ({@code null} = zeros, "" for strings). */
final class FillChunk implements ChunkData {
    private static final byte[] EMPTY = new byte[0];

    private final Object fill;

    FillChunk(Object fill) {
        this.fill = fill;
    }

    @Override
    public void copy(int srcStart, int srcStride, Object dest, int destStart, int count) {
        int end = destStart + count;
        if (dest instanceof byte[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0 : (Byte) fill);
        } else if (dest instanceof short[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0 : (Short) fill);
        } else if (dest instanceof int[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0 : (Integer) fill);
        } else if (dest instanceof long[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0L : (Long) fill);
        } else if (dest instanceof float[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0f : (Float) fill);
        } else if (dest instanceof double[] a) {
            Arrays.fill(a, destStart, end, fill == null ? 0d : (Double) fill);
        } else if (dest instanceof byte[][] a) {
            // raw bytes: each element its own copy of the fill bytes; vlen bytes: empty
            for (int i = destStart; i < end; i++) {
                a[i] = fill instanceof byte[] b ? b.clone() : EMPTY;
            }
        } else if (dest instanceof String[] a) {
            Arrays.fill(a, destStart, end, fill == null ? "" : fill.toString());
        } else {
            throw new IllegalArgumentException("unsupported destination " + dest.getClass());
        }
    }
}
