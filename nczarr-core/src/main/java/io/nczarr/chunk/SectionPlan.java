package io.nczarr.chunk;

import io.nczarr.model.ChunkEdges;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * Where the elements of a strided section of a chunked array live: per dimension, the chunks the
 * section touches and which section positions fall in each ({@link Segment}); over all
 * dimensions, every touched chunk with the runs of elements to copy out of it ({@link ChunkPlan}).
 *
 * <p>Pure geometry: no I/O, no codecs, no element types. Array indexes and chunk indexes are
 * {@code long}, so shapes up to {@code Long.MAX_VALUE} plan without overflow. The destination is
 * the section in C order, position {@code m} of dimension {@code d} holding array index
 * {@code origin[d] + m * stride[d]}. Chunks skipped entirely by a large stride do not appear.
 *
 * <p>The grid is regular (chunk {@code i} starts at {@code i * chunkShape[d]}) or, given {@link ChunkEdges}, a
 * {@code rectilinear} grid whose chunks each have their own length and so their own element strides.
 */
public final class SectionPlan {

    /**
     * Along one dimension: chunk {@code chunk} holds section positions {@code [first, first + count)}.
     *
     * @param chunk the chunk index along this dimension
     * @param first the first section position in that chunk
     * @param count how many section positions fall in it (at least 1)
     */
    public record Segment(long chunk, int first, int count) {}

    private final long[] origin;
    private final int[] count;
    private final int[] stride;
    private final int[] chunkShape;
    /** The boundaries of a rectilinear grid, or {@code null} for a regular one. */
    private final ChunkEdges edges;

    private final boolean fortranOrder;
    private final long[] chunkStrides;
    private final long[] destStrides;
    private final List<List<Segment>> segments;
    private final long elementCount;

    private SectionPlan(
            long[] origin, int[] count, int[] stride, int[] chunkShape, boolean fortranOrder, ChunkEdges edges) {
        this.origin = origin.clone();
        this.count = count.clone();
        this.stride = stride.clone();
        this.chunkShape = chunkShape.clone();
        this.edges = edges;
        this.fortranOrder = fortranOrder;
        this.chunkStrides = chunkStrides(chunkShape, fortranOrder);
        this.destStrides = destStrides(count);
        int rank = count.length;
        List<List<Segment>> perDim = new ArrayList<>(rank);
        for (int d = 0; d < rank; d++) {
            perDim.add(Collections.unmodifiableList(
                    edges == null
                            ? segments(origin[d], count[d], stride[d], chunkShape[d])
                            : segments(origin[d], count[d], stride[d], edges, d)));
        }
        this.segments = Collections.unmodifiableList(perDim);
        this.elementCount = product(count);
    }

    /**
     * Plans a section.
     *
     * @param arrayShape the array's length per dimension
     * @param chunkShape the chunk's length per dimension (each at least 1)
     * @param fortranOrder whether elements inside a chunk are stored first-index-fastest
     *     ({@code order: "F"}) rather than last-index-fastest (C)
     * @param origin the first array index per dimension
     * @param count how many indexes per dimension ({@code 0} = an empty section)
     * @param stride the step between indexes per dimension (at least 1)
     * @throws IllegalArgumentException when the ranks differ or the section leaves the array; the
     *     message names the dimension
     */
    public static SectionPlan of(
            long[] arrayShape, int[] chunkShape, boolean fortranOrder, long[] origin, int[] count, int[] stride) {
        return of(arrayShape, chunkShape, fortranOrder, origin, count, stride, null);
    }

    /**
     * Plans a section of an array on a rectilinear grid ({@code edges}; {@code null} = the regular grid of {@code
     * chunkShape}, which for a rectilinear grid holds its longest chunk per dimension).
     */
    public static SectionPlan of(
            long[] arrayShape,
            int[] chunkShape,
            boolean fortranOrder,
            long[] origin,
            int[] count,
            int[] stride,
            ChunkEdges edges) {
        check(arrayShape, chunkShape, origin, count, stride);
        return new SectionPlan(origin, count, stride, chunkShape, fortranOrder, edges);
    }

    /**
     * The size of a section: its elements and the chunks it touches, each saturated at {@code
     * Long.MAX_VALUE}.
     */
    public record Extent(long elements, long chunks) {}

    /**
     * Measures a section without planning it: cheap however large the section, so that a read can be
     * refused before its plan (which grows with the chunks touched) or its result is allocated. The
     * chunk count is exact: it equals {@link #chunkCount()} of the plan.
     *
     * @throws IllegalArgumentException as {@link #of}
     */
    public static Extent measure(long[] arrayShape, int[] chunkShape, long[] origin, int[] count, int[] stride) {
        return measure(arrayShape, chunkShape, origin, count, stride, null);
    }

    /** {@link #measure(long[], int[], long[], int[], int[])} on a rectilinear grid ({@code null}: regular). */
    public static Extent measure(
            long[] arrayShape, int[] chunkShape, long[] origin, int[] count, int[] stride, ChunkEdges edges) {
        check(arrayShape, chunkShape, origin, count, stride);
        long chunks = 1;
        for (int d = 0; d < count.length; d++) {
            if (count[d] == 0) {
                return new Extent(0, 0);
            }
            long end = origin[d] + (count[d] - 1L) * stride[d];
            long first = edges == null ? origin[d] / chunkShape[d] : edges.chunkOf(d, origin[d]);
            long last = edges == null ? end / chunkShape[d] : edges.chunkOf(d, end);
            // a stride below the chunk length leaves no chunk in between untouched; from the chunk
            // length on, every position is in a chunk of its own
            long touched = Math.min(count[d], last - first + 1);
            chunks = chunks > Long.MAX_VALUE / touched ? Long.MAX_VALUE : chunks * touched;
        }
        return new Extent(product(count), chunks);
    }

    private static void check(long[] arrayShape, int[] chunkShape, long[] origin, int[] count, int[] stride) {
        int rank = arrayShape.length;
        if (chunkShape.length != rank) {
            throw new IllegalArgumentException(
                    "chunk rank " + chunkShape.length + " does not match array rank " + rank);
        }
        if (origin.length != rank || count.length != rank || stride.length != rank) {
            throw new IllegalArgumentException("section rank " + origin.length + "/" + count.length + "/"
                    + stride.length + " does not match array rank " + rank);
        }
        for (int d = 0; d < rank; d++) {
            if (chunkShape[d] < 1) {
                throw new IllegalArgumentException(
                        "chunk length " + chunkShape[d] + " is not positive in dimension " + d);
            }
            boolean lastInside = count[d] == 0 || (count[d] - 1L) * stride[d] < arrayShape[d] - origin[d];
            if (count[d] < 0 || stride[d] < 1 || origin[d] < 0 || !lastInside) {
                throw new IllegalArgumentException("section out of bounds in dimension " + d);
            }
        }
    }

    /** Element offset steps inside one chunk, in its storage order. */
    private static long[] chunkStrides(int[] chunkShape, boolean fortranOrder) {
        int rank = chunkShape.length;
        long[] s = new long[rank];
        long step = 1;
        for (int i = 0; i < rank; i++) {
            int d = fortranOrder ? i : rank - 1 - i;
            s[d] = step;
            step *= chunkShape[d];
        }
        return s;
    }

    /** Element offset steps in the destination (the section in C order). */
    private static long[] destStrides(int[] count) {
        long[] s = new long[count.length];
        long step = 1;
        for (int d = count.length - 1; d >= 0; d--) {
            s[d] = step;
            step *= Math.max(1, count[d]);
        }
        return s;
    }

    /** The product of the counts, saturated at {@code Long.MAX_VALUE}. */
    private static long product(int[] count) {
        long n = 1;
        for (int c : count) {
            if (c == 0) {
                return 0;
            }
            n = n > Long.MAX_VALUE / c ? Long.MAX_VALUE : n * c;
        }
        return n;
    }

    /** Splits the positions {@code 0 .. count-1} of one dimension by the chunk their index falls in. */
    static List<Segment> segments(long origin, int count, int stride, int chunk) {
        List<Segment> out = new ArrayList<>();
        int m = 0;
        while (m < count) {
            long index = origin + (long) m * stride;
            long ci = index / chunk;
            long chunkStart = ci * chunk;
            // the chunk's last index, clamped where it would pass Long.MAX_VALUE
            long chunkLast = chunk - 1 > Long.MAX_VALUE - chunkStart ? Long.MAX_VALUE : chunkStart + (chunk - 1);
            long last = Math.min(count - 1L, (chunkLast - origin) / stride);
            out.add(new Segment(ci, m, (int) (last - m + 1)));
            m = (int) last + 1;
        }
        return out;
    }

    /** {@link #segments(long, int, int, int)} on dimension {@code d} of a rectilinear grid. */
    static List<Segment> segments(long origin, int count, int stride, ChunkEdges edges, int d) {
        List<Segment> out = new ArrayList<>();
        int m = 0;
        while (m < count) {
            long index = origin + (long) m * stride;
            long ci = edges.chunkOf(d, index);
            long chunkLast = edges.start(d, ci) + (edges.size(d, ci) - 1L);
            long last = Math.min(count - 1L, (chunkLast - origin) / stride);
            out.add(new Segment(ci, m, (int) (last - m + 1)));
            m = (int) last + 1;
        }
        return out;
    }

    public int rank() {
        return count.length;
    }

    /** How many elements the section holds (saturated at {@code Long.MAX_VALUE}). */
    public long elementCount() {
        return elementCount;
    }

    /** The chunks touched along dimension {@code d}, in increasing order, with their section positions. */
    public List<Segment> segments(int d) {
        return segments.get(d);
    }

    /** How many chunks the section touches (saturated at {@code Long.MAX_VALUE}). */
    public long chunkCount() {
        long n = 1;
        for (List<Segment> s : segments) {
            if (s.isEmpty()) {
                return 0;
            }
            n = n > Long.MAX_VALUE / s.size() ? Long.MAX_VALUE : n * s.size();
        }
        return n;
    }

    /**
     * Every touched chunk, in C order of chunk index (the last dimension fastest); empty for an
     * empty section. A rank-0 section is one chunk with an empty index.
     *
     * @throws IllegalStateException when there are more than {@code Integer.MAX_VALUE} of them
     */
    public List<ChunkPlan> chunks() {
        long n = chunkCount();
        if (n > Integer.MAX_VALUE - 8) {
            throw new IllegalStateException("a section touching " + n + " chunks cannot be listed");
        }
        List<ChunkPlan> out = new ArrayList<>((int) n);
        if (n == 0) {
            return out;
        }
        int rank = rank();
        int[] pick = new int[rank];
        while (true) {
            Segment[] segs = new Segment[rank];
            for (int d = 0; d < rank; d++) {
                segs[d] = segments.get(d).get(pick[d]);
            }
            out.add(new ChunkPlan(this, segs));
            int d = rank - 1;
            while (d >= 0 && ++pick[d] == segments.get(d).size()) {
                pick[d] = 0;
                d--;
            }
            if (d < 0) {
                return out;
            }
        }
    }

    // geometry read by ChunkPlan

    long origin(int d) {
        return origin[d];
    }

    int stride(int d) {
        return stride[d];
    }

    /** The first array index of chunk {@code chunk} along dimension {@code d}. */
    long chunkStart(int d, long chunk) {
        return edges == null ? chunk * chunkShape[d] : edges.start(d, chunk);
    }

    /** The element offset steps inside the chunk of these segments, in its storage order. */
    long[] chunkStrides(Segment[] segs) {
        if (edges == null) {
            return chunkStrides;
        }
        int[] shape = new int[segs.length];
        for (int d = 0; d < shape.length; d++) {
            shape[d] = edges.size(d, segs[d].chunk());
        }
        return chunkStrides(shape, fortranOrder);
    }

    /** The size of chunk {@code chunk} along dimension {@code d}. */
    int chunkSize(int d, long chunk) {
        return edges == null ? chunkShape[d] : edges.size(d, chunk);
    }

    boolean fortranOrder() {
        return fortranOrder;
    }

    long destStride(int d) {
        return destStrides[d];
    }

    @Override
    public String toString() {
        return "SectionPlan[origin=" + Arrays.toString(origin) + ", count=" + Arrays.toString(count) + ", stride="
                + Arrays.toString(stride) + ", chunks=" + Arrays.toString(chunkShape) + "]";
    }
}
