package io.nczarr.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A run of a read's result array that one chunk decodes straight into ({@link Codec#decodeInto(byte[], int,
 * ElementSink)}): {@code count} elements of a {@code byte[]}, {@code short[]}, {@code int[]}, {@code long[]},
 * {@code float[]} or {@code double[]} from element {@code start}, stored in the chunk as {@code itemSize}-byte
 * numbers in byte order {@code order}. A codec writes decoded bytes by their byte offset in the run, always whole
 * elements; byte order is applied as they are written, so nothing is swapped afterwards.
 */
public final class ElementSink {
    private final Object array;
    private final int start;
    private final int count;
    private final int itemSize;
    private final ByteOrder order;

    private ElementSink(Object array, int start, int count, int itemSize, ByteOrder order) {
        this.array = array;
        this.start = start;
        this.count = count;
        this.itemSize = itemSize;
        this.order = order;
    }

    /**
     * The run {@code [start, start + count)} of {@code array}, or {@code null} when the array is not one of the
     * primitive number arrays or its element size is not {@code itemSize} (then a chunk decodes the old way).
     */
    public static ElementSink of(Object array, int start, int count, int itemSize, ByteOrder order) {
        int size = sizeOf(array);
        if (size == 0
                || size != itemSize
                || start < 0
                || count < 0
                || start > java.lang.reflect.Array.getLength(array) - count) {
            return null;
        }
        return new ElementSink(array, start, count, itemSize, order);
    }

    /** The element size of a primitive number array, 0 for anything else. */
    private static int sizeOf(Object a) {
        if (a instanceof byte[]) {
            return 1;
        } else if (a instanceof short[]) {
            return 2;
        } else if (a instanceof int[] || a instanceof float[]) {
            return 4;
        } else if (a instanceof long[] || a instanceof double[]) {
            return 8;
        }
        return 0;
    }

    /** The run's size in bytes: what the chunk must decode to. */
    public int byteLength() {
        return count * itemSize;
    }

    public int itemSize() {
        return itemSize;
    }

    /**
     * Copies {@code n} decoded bytes from {@code src[sOff..)} to byte {@code at} of the run; both are whole
     * elements ({@code at} and {@code n} multiples of {@link #itemSize()}).
     */
    void put(byte[] src, int sOff, int at, int n) {
        int e = start + at / itemSize;
        int k = n / itemSize;
        if (array instanceof byte[] a) {
            System.arraycopy(src, sOff, a, e, n);
            return;
        }
        ByteBuffer b = ByteBuffer.wrap(src, sOff, n).order(order);
        if (array instanceof short[] a) {
            b.asShortBuffer().get(a, e, k);
        } else if (array instanceof int[] a) {
            b.asIntBuffer().get(a, e, k);
        } else if (array instanceof float[] a) {
            b.asFloatBuffer().get(a, e, k);
        } else if (array instanceof long[] a) {
            b.asLongBuffer().get(a, e, k);
        } else {
            b.asDoubleBuffer().get(((double[]) array), e, k);
        }
    }

    /**
     * The byte unshuffle straight into the run: {@code n} elements from byte {@code at} of the run, byte {@code
     * i} (in the stored order) of element {@code j} read from {@code src[row[i] + j]}; {@code row} has {@link
     * #itemSize()} entries. Elements are assembled as numbers, so the stored byte order costs nothing.
     */
    void unshuffle(int n, byte[] src, int[] row, int at, boolean vector) {
        int e = start + at / itemSize;
        if (itemSize == 1) {
            System.arraycopy(src, row[0], (byte[]) array, e, n);
            return;
        }
        // least significant byte first
        int[] lsb = new int[itemSize];
        for (int i = 0; i < itemSize; i++) {
            lsb[i] = order == ByteOrder.LITTLE_ENDIAN ? row[i] : row[itemSize - 1 - i];
        }
        int j = vector ? VectorUnshuffle.rowsTo(n, src, lsb, array, e) : 0;
        if (array instanceof short[] a) {
            TypedUnshuffle.shorts(j, n, src, lsb, a, e);
        } else if (array instanceof int[] a) {
            TypedUnshuffle.ints(j, n, src, lsb, a, e);
        } else if (array instanceof float[] a) {
            TypedUnshuffle.floats(j, n, src, lsb, a, e);
        } else if (array instanceof long[] a) {
            TypedUnshuffle.longs(j, n, src, lsb, a, e);
        } else {
            TypedUnshuffle.doubles(j, n, src, lsb, (double[]) array, e);
        }
    }
}
