package io.nczarr.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Arrays;

/**
 * The chunk boundaries of a zarr-extensions {@code rectilinear} chunk grid: per dimension a regular step (a bare
 * integer) or a list of edge lengths, run-length encoded ({@code [size, count]}), whose sum may run past the
 * shape (the last chunk then overhangs, as a regular grid's edge chunk does: it is stored at its full edge
 * length). Kept as runs, never expanded: {@code [[1, 1000000000]]} costs one run, and every lookup is a binary
 * search over the runs of one dimension. Immutable.
 */
public final class ChunkEdges {

    /** Most runs (after merging equal neighbours) a grid may hold over all its dimensions. */
    public static final int MAX_RUNS = 1 << 20;

    /** Per dimension: the array index where each run starts. */
    private final long[][] runStart;
    /** Per dimension: the number of the first chunk of each run. */
    private final long[][] runChunk;
    /** Per dimension: the chunk length of each run. */
    private final int[][] runSize;
    /** Per dimension: the number of chunks the edges list ({@code Long.MAX_VALUE} for a bare integer step). */
    private final long[] edgeCount;

    private final long[] gridShape;
    private final int[] maxSize;

    private ChunkEdges(long[][] runStart, long[][] runChunk, int[][] runSize, long[] edgeCount, long[] shape) {
        this.edgeCount = edgeCount;
        this.runStart = runStart;
        this.runChunk = runChunk;
        this.runSize = runSize;
        int rank = shape.length;
        this.gridShape = new long[rank];
        this.maxSize = new int[rank];
        for (int d = 0; d < rank; d++) {
            gridShape[d] = shape[d] == 0 ? 0 : chunkOf(d, shape[d] - 1) + 1;
            int max = 1;
            for (int r = 0; r < runSize[d].length && (shape[d] == 0 || runStart[d][r] < shape[d]); r++) {
                max = Math.max(max, runSize[d][r]);
            }
            maxSize[d] = max;
        }
    }

    /**
     * Parses {@code configuration.chunk_shapes} of a {@code rectilinear} grid for an array of {@code shape}.
     *
     * @throws IllegalArgumentException naming the dimension and the entry for a wrong rank, a size or count that
     *     is not a positive integer, a chunk length of 2^31 or more, edges that sum short of the shape, or more
     *     than {@link #MAX_RUNS} runs
     */
    public static ChunkEdges parse(JsonNode chunkShapes, long[] shape) {
        if (chunkShapes == null || !chunkShapes.isArray()) {
            throw new IllegalArgumentException("chunk_shapes: missing or not a list");
        }
        if (chunkShapes.size() != shape.length) {
            throw new IllegalArgumentException("chunk_shapes: shape has " + shape.length + " dimensions but"
                    + " chunk_shapes has " + chunkShapes.size());
        }
        int rank = shape.length;
        long[][] starts = new long[rank][];
        long[][] chunks = new long[rank][];
        int[][] sizes = new int[rank][];
        long[] counts = new long[rank];
        int runs = 0;
        for (int d = 0; d < rank; d++) {
            JsonNode dim = chunkShapes.get(d);
            Runs r = new Runs();
            if (dim.isArray()) {
                if (dim.isEmpty()) {
                    throw new IllegalArgumentException("chunk_shapes: dimension " + d + " has no edges");
                }
                for (JsonNode e : dim) {
                    if (e.isArray()) {
                        if (e.size() != 2) {
                            throw new IllegalArgumentException(
                                    "chunk_shapes: dimension " + d + ": run " + e + " is not [size, count]");
                        }
                        r.add(size(d, e.get(0)), positive(d, e.get(1), "count"));
                    } else {
                        r.add(size(d, e), 1);
                    }
                    if (runs + r.n > MAX_RUNS) {
                        throw new IllegalArgumentException("chunk_shapes: more than " + MAX_RUNS + " runs of edges"
                                + " (the most a grid may hold in memory)");
                    }
                }
                if (r.end < shape[d]) {
                    throw new IllegalArgumentException("chunk_shapes: the edges of dimension " + d + " sum to " + r.end
                            + ", short of its length " + shape[d]);
                }
            } else {
                // a bare integer: regular chunks of that length, as many as the dimension needs
                r.add(size(d, dim), Long.MAX_VALUE);
            }
            runs += r.n;
            starts[d] = Arrays.copyOf(r.start, r.n);
            chunks[d] = Arrays.copyOf(r.chunk, r.n);
            sizes[d] = Arrays.copyOf(r.size, r.n);
            counts[d] = r.chunks;
        }
        return new ChunkEdges(starts, chunks, sizes, counts, shape);
    }

    private static int size(int d, JsonNode v) {
        long s = positive(d, v, "edge length");
        if (s > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("chunk_shapes: edge length " + s + " in dimension " + d
                    + " is more than one Java array holds (" + Integer.MAX_VALUE + ")");
        }
        return (int) s;
    }

    private static long positive(int d, JsonNode v, String what) {
        if (v == null || !v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 1) {
            throw new IllegalArgumentException(
                    "chunk_shapes: " + what + " " + v + " in dimension " + d + " is not a positive integer");
        }
        return v.longValue();
    }

    /** Runs of one dimension while parsing: equal neighbours merged, nothing kept past the longest array. */
    private static final class Runs {
        long[] start = new long[4];
        long[] chunk = new long[4];
        int[] size = new int[4];
        int n;
        /** The end of the edges so far (saturated at Long.MAX_VALUE). */
        long end;
        /** The chunks so far (saturated at Long.MAX_VALUE). */
        long chunks;

        void add(int s, long c) {
            if (end == Long.MAX_VALUE) {
                return; // past any shape: never reached
            }
            if (n == 0 || size[n - 1] != s) {
                if (n == start.length) {
                    start = Arrays.copyOf(start, n * 2);
                    chunk = Arrays.copyOf(chunk, n * 2);
                    size = Arrays.copyOf(size, n * 2);
                }
                start[n] = end;
                chunk[n] = chunks;
                size[n] = s;
                n++;
            }
            end = c == Long.MAX_VALUE || c > (Long.MAX_VALUE - end) / s ? Long.MAX_VALUE : end + c * s;
            chunks = c == Long.MAX_VALUE || chunks > Long.MAX_VALUE - c ? Long.MAX_VALUE : chunks + c;
        }
    }

    public int rank() {
        return gridShape.length;
    }

    /** The number of chunks per dimension that hold part of the array (edges past the shape are not counted). */
    public long[] gridShape() {
        return gridShape.clone();
    }

    /** The longest chunk per dimension among those the array reaches (what a chunk buffer must hold). */
    public int[] maxChunkShape() {
        return maxSize.clone();
    }

    /** The chunk number holding array index {@code index} of dimension {@code d}. */
    public long chunkOf(int d, long index) {
        int r = lastAtOrBelow(runStart[d], index);
        return runChunk[d][r] + (index - runStart[d][r]) / runSize[d][r];
    }

    /** The first array index of chunk {@code chunk} of dimension {@code d}. */
    public long start(int d, long chunk) {
        int r = lastAtOrBelow(runChunk[d], chunk);
        return runStart[d][r] + (chunk - runChunk[d][r]) * runSize[d][r];
    }

    /** The stored length of chunk {@code chunk} of dimension {@code d} (may run past the shape). */
    public int size(int d, long chunk) {
        return runSize[d][lastAtOrBelow(runChunk[d], chunk)];
    }

    /** The stored shape of the chunk at grid index {@code idx}. */
    public int[] chunkShape(long[] idx) {
        int[] s = new int[idx.length];
        for (int d = 0; d < s.length; d++) {
            s[d] = size(d, idx[d]);
        }
        return s;
    }

    /** The index of the last element of {@code sorted} at or below {@code v} (0 when all are above). */
    private static int lastAtOrBelow(long[] sorted, long v) {
        int i = Arrays.binarySearch(sorted, v);
        return i >= 0 ? i : Math.max(0, -i - 2);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkEdges e
                && Arrays.deepEquals(runStart, e.runStart)
                && Arrays.deepEquals(runSize, e.runSize)
                && Arrays.equals(gridShape, e.gridShape);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(runSize) * 31 + Arrays.hashCode(gridShape);
    }

    /**
     * The edges as {@code rectilinear[[2x3, 6], [4...]]}: per dimension each run's length, times its count when
     * more than one, {@code ...} for a bare integer step.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("rectilinear[");
        for (int d = 0; d < runSize.length; d++) {
            if (d > 0) {
                sb.append(", ");
            }
            sb.append('[');
            for (int r = 0; r < runSize[d].length; r++) {
                long next = r + 1 < runSize[d].length ? runChunk[d][r + 1] : edgeCount[d];
                long count = next == Long.MAX_VALUE ? -1 : next - runChunk[d][r];
                sb.append(r > 0 ? ", " : "")
                        .append(runSize[d][r])
                        .append(count < 0 ? "..." : count == 1 ? "" : "x" + count);
            }
            sb.append(']');
        }
        return sb.append(']').toString();
    }
}
