package io.nczarr.aggregation;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fragment grid of an aggregation: for each aggregated dimension the fragment sizes along it (one
 * row of the CF {@code map} variable without its padding). Pure arithmetic: {@link #plan} maps a
 * requested section (origin, count, stride in aggregated index space) to the pieces of the fragments
 * it touches.
 */
public final class FragmentGrid {
    /** Most fragments of one aggregation variable: the grid is held in memory. */
    public static final long MAX_FRAGMENTS = 1_000_000;

    private final long[][] sizes;
    private final long[][] offsets;
    private final long[] shape;
    private final int[] gridShape;

    private FragmentGrid(long[][] sizes) {
        this.sizes = sizes;
        this.offsets = new long[sizes.length][];
        this.shape = new long[sizes.length];
        this.gridShape = new int[sizes.length];
        for (int d = 0; d < sizes.length; d++) {
            offsets[d] = new long[sizes[d].length + 1];
            for (int i = 0; i < sizes[d].length; i++) {
                offsets[d][i + 1] = offsets[d][i] + sizes[d][i];
            }
            shape[d] = offsets[d][sizes[d].length];
            gridShape[d] = sizes[d].length;
        }
    }

    /**
     * A grid from the fragment sizes per dimension. Every size must be at least 1, and the sizes of a
     * dimension must add up to its length ({@code lengths}, or {@code null} to take the sums).
     *
     * @throws IllegalArgumentException saying what is wrong (the caller adds dataset and variable)
     */
    public static FragmentGrid of(long[][] sizes, long[] lengths) {
        if (lengths != null && lengths.length != sizes.length) {
            throw new IllegalArgumentException(
                    "the map has " + sizes.length + " rows for " + lengths.length + " aggregated dimensions");
        }
        long count = 1;
        long[][] copy = new long[sizes.length][];
        for (int d = 0; d < sizes.length; d++) {
            if (sizes[d].length == 0) {
                throw new IllegalArgumentException("map row " + d + " has no fragment sizes");
            }
            long sum = 0;
            for (long s : sizes[d]) {
                if (s < 1) {
                    throw new IllegalArgumentException("map row " + d + " has the fragment size " + s
                            + " (sizes must be at least 1): " + Arrays.toString(sizes[d]));
                }
                sum += s;
                if (sum < 0) {
                    throw new IllegalArgumentException("map row " + d + " overflows");
                }
            }
            if (lengths != null && sum != lengths[d]) {
                throw new IllegalArgumentException("map row " + d + " " + Arrays.toString(sizes[d]) + " sums to " + sum
                        + ", but the aggregated dimension has length " + lengths[d]);
            }
            count *= sizes[d].length;
            if (count > MAX_FRAGMENTS) {
                throw new IllegalArgumentException("more than " + MAX_FRAGMENTS + " fragments");
            }
            copy[d] = sizes[d].clone();
        }
        return new FragmentGrid(copy);
    }

    public int rank() {
        return shape.length;
    }

    /** The aggregated shape. */
    public long[] shape() {
        return shape.clone();
    }

    /** Fragments along each dimension. */
    public int[] gridShape() {
        return gridShape.clone();
    }

    public int fragmentCount() {
        int n = 1;
        for (int g : gridShape) {
            n *= g;
        }
        return n;
    }

    /** The shape of the fragment at {@code position}. */
    public long[] fragmentShape(int[] position) {
        long[] s = new long[position.length];
        for (int d = 0; d < s.length; d++) {
            s[d] = sizes[d][position[d]];
        }
        return s;
    }

    /** Where the fragment at {@code position} starts in the aggregated array. */
    public long[] fragmentOrigin(int[] position) {
        long[] s = new long[position.length];
        for (int d = 0; d < s.length; d++) {
            s[d] = offsets[d][position[d]];
        }
        return s;
    }

    /** Row-major index of a grid position. */
    public int flatIndex(int[] position) {
        int i = 0;
        for (int d = 0; d < position.length; d++) {
            i = i * gridShape[d] + position[d];
        }
        return i;
    }

    /**
     * The part of one fragment a section needs: {@code origin}, {@code count} and {@code stride} in the
     * fragment's (canonical) index space, and where it goes in the section ({@code target}, in
     * section index space: element {@code k} along a dimension is the section's k-th index).
     */
    public record Piece(int[] position, long[] origin, long[] count, long[] stride, long[] target) {}

    /**
     * The fragments a section touches, row-major. {@code origin}, {@code count}, {@code stride} must be
     * inside the shape (the caller checks); an empty section touches nothing.
     */
    public List<Piece> plan(long[] origin, long[] count, long[] stride) {
        int rank = shape.length;
        List<List<long[]>> perDim = new ArrayList<>(rank); // {fragment, localStart, count, target}
        for (int d = 0; d < rank; d++) {
            List<long[]> runs = new ArrayList<>();
            if (count[d] == 0) {
                return List.of();
            }
            long first = origin[d];
            long last = origin[d] + (count[d] - 1) * stride[d];
            int f = fragmentAt(d, first);
            while (f < gridShape[d] && offsets[d][f] <= last) {
                long fStart = offsets[d][f];
                long fEnd = offsets[d][f + 1]; // exclusive
                // first k with first + k*stride >= fStart
                long k0 = fStart <= first ? 0 : (fStart - first + stride[d] - 1) / stride[d];
                long idx0 = first + k0 * stride[d];
                if (idx0 < fEnd && k0 < count[d]) {
                    long kEnd = Math.min(count[d], (fEnd - first + stride[d] - 1) / stride[d]);
                    runs.add(new long[] {f, idx0 - fStart, kEnd - k0, k0});
                }
                f++;
            }
            perDim.add(runs);
        }
        List<Piece> out = new ArrayList<>();
        int[] at = new int[rank];
        while (true) {
            int[] pos = new int[rank];
            long[] o = new long[rank];
            long[] c = new long[rank];
            long[] t = new long[rank];
            for (int d = 0; d < rank; d++) {
                long[] r = perDim.get(d).get(at[d]);
                pos[d] = (int) r[0];
                o[d] = r[1];
                c[d] = r[2];
                t[d] = r[3];
            }
            out.add(new Piece(pos, o, c, stride.clone(), t));
            int d = rank - 1;
            while (d >= 0 && ++at[d] == perDim.get(d).size()) {
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                return out;
            }
        }
    }

    /** Memory {@link #plan} takes per piece (the piece, its arrays, its task), for a read's budget. */
    public static final long PLAN_BYTES_PER_PIECE = 256;

    /**
     * How many pieces {@link #plan} returns for this section, counted without making them (saturating at
     * {@link Long#MAX_VALUE}), so that a read can be refused before its plan is made.
     */
    public long pieceCount(long[] origin, long[] count, long[] stride) {
        long n = 1;
        for (int d = 0; d < shape.length; d++) {
            if (count[d] == 0) {
                return 0;
            }
            long first = origin[d];
            long last = origin[d] + (count[d] - 1) * stride[d];
            long along = 0;
            for (int f = fragmentAt(d, first); f < gridShape[d] && offsets[d][f] <= last; f++) {
                long fStart = offsets[d][f];
                long k0 = fStart <= first ? 0 : (fStart - first + stride[d] - 1) / stride[d];
                if (first + k0 * stride[d] < offsets[d][f + 1] && k0 < count[d]) {
                    along++;
                }
            }
            n = along != 0 && n > Long.MAX_VALUE / along ? Long.MAX_VALUE : n * along;
        }
        return n;
    }

    /** The fragment along dimension {@code d} holding index {@code i}. */
    private int fragmentAt(int d, long i) {
        int pos = Arrays.binarySearch(offsets[d], i);
        return pos >= 0 ? Math.min(pos, gridShape[d] - 1) : -pos - 2;
    }
}
