package io.nczarr.read;

import java.util.Arrays;

/**
 * A strided section of a variable in its netCDF index space: per dimension the first index, the number of
 * elements and the step. Rank 0 for a scalar.
 */
public record ArraySection(long[] origin, int[] count, int[] stride) {

    public ArraySection {
        if (origin.length != count.length || count.length != stride.length) {
            throw new IllegalArgumentException("origin, count and stride differ in rank: " + Arrays.toString(origin)
                    + " " + Arrays.toString(count) + " " + Arrays.toString(stride));
        }
        origin = origin.clone();
        count = count.clone();
        stride = stride.clone();
    }

    /** A contiguous section (every stride 1). */
    public static ArraySection of(long[] origin, int[] count) {
        int[] stride = new int[count.length];
        Arrays.fill(stride, 1);
        return new ArraySection(origin, count, stride);
    }

    /**
     * The whole of an array of this shape.
     *
     * @throws IllegalArgumentException when a dimension is longer than one Java array can be
     */
    public static ArraySection all(long[] shape) {
        int[] count = new int[shape.length];
        for (int d = 0; d < shape.length; d++) {
            if (shape[d] > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("dimension " + d + " of length " + shape[d] + " is too long");
            }
            count[d] = (int) shape[d];
        }
        return of(new long[shape.length], count);
    }

    @Override
    public long[] origin() {
        return origin.clone();
    }

    @Override
    public int[] count() {
        return count.clone();
    }

    @Override
    public int[] stride() {
        return stride.clone();
    }

    public int rank() {
        return count.length;
    }

    /** The number of elements. */
    public long size() {
        long n = 1;
        for (int c : count) {
            n *= c;
        }
        return n;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ArraySection s
                && Arrays.equals(origin, s.origin)
                && Arrays.equals(count, s.count)
                && Arrays.equals(stride, s.stride);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * Arrays.hashCode(origin) + Arrays.hashCode(count)) + Arrays.hashCode(stride);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("[");
        for (int d = 0; d < count.length; d++) {
            if (d > 0) {
                sb.append(", ");
            }
            sb.append(origin[d]).append(':').append(origin[d] + (long) Math.max(0, count[d] - 1) * stride[d]);
            if (stride[d] != 1) {
                sb.append(':').append(stride[d]);
            }
        }
        return sb.append(']').toString();
    }
}
