package io.nczarr.read;

import io.nczarr.chunk.ChunkShapes;
import io.nczarr.model.ChunkEdges;
import io.nczarr.model.VarModel;
import java.util.Arrays;

/**
 * How a variable is cut into chunks, in its netCDF index space: the unit a read fetches and decodes on its own
 * ({@link #chunkShape()}: the inner chunk of a sharded array whose inner chunks can be read alone, else the
 * stored chunk), the number of chunks per dimension, and the shard shape when sharded. Edge chunks are clipped
 * to the shape. A scalar has rank 0 and one chunk. On a zarr-extensions {@code rectilinear} grid ({@link #edges()}
 * not {@code null}) chunks differ in length: {@link #chunkShape()} is then the longest per dimension, and the
 * sections, {@link #chunkOf} and the grid shape follow the edges (shards of such a grid are read whole, so its unit
 * is the stored chunk).
 *
 * @param shape the variable's shape
 * @param chunkShape the read unit per dimension
 * @param gridShape the number of chunks per dimension ({@code ceil(shape / chunkShape)})
 * @param shardShape the shard (stored object) shape when the variable is sharded into separately readable inner
 *     chunks, else {@code null}
 * @param edges the chunk boundaries of a rectilinear grid, else {@code null}
 */
public record ChunkGrid(long[] shape, int[] chunkShape, long[] gridShape, int[] shardShape, ChunkEdges edges) {

    public ChunkGrid {
        shape = shape.clone();
        chunkShape = chunkShape.clone();
        gridShape = gridShape.clone();
        shardShape = shardShape == null ? null : shardShape.clone();
    }

    /** A regular grid. */
    public ChunkGrid(long[] shape, int[] chunkShape, long[] gridShape, int[] shardShape) {
        this(shape, chunkShape, gridShape, shardShape, null);
    }

    /** The grid of a variable, from its metadata alone. */
    public static ChunkGrid of(VarModel var) {
        if (var.isScalar()) {
            return new ChunkGrid(new long[0], new int[0], new long[0], null);
        }
        long[] shape = var.shape();
        ChunkEdges edges = var.array().edges();
        if (edges != null) {
            return new ChunkGrid(shape, var.array().chunks(), edges.gridShape(), null, edges);
        }
        int[] inner = ChunkShapes.innerShape(var);
        int[] chunks = inner != null ? inner : var.array().chunks();
        long[] grid = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            grid[d] = chunks[d] <= 0 ? 0 : (shape[d] + chunks[d] - 1) / chunks[d];
        }
        return new ChunkGrid(shape, chunks, grid, inner != null ? var.array().chunks() : null);
    }

    @Override
    public long[] shape() {
        return shape.clone();
    }

    @Override
    public int[] chunkShape() {
        return chunkShape.clone();
    }

    @Override
    public long[] gridShape() {
        return gridShape.clone();
    }

    @Override
    public int[] shardShape() {
        return shardShape == null ? null : shardShape.clone();
    }

    public int rank() {
        return shape.length;
    }

    public boolean isSharded() {
        return shardShape != null;
    }

    /** The number of chunks (the product of the grid shape; 1 for a scalar). */
    public long chunkCount() {
        long n = 1;
        for (long g : gridShape) {
            n = Math.multiplyExact(n, g);
        }
        return n;
    }

    /** Whether chunks differ in length (a rectilinear grid). */
    public boolean isRectilinear() {
        return edges != null;
    }

    /** The elements of one full chunk (the longest on a rectilinear grid). */
    public long chunkElements() {
        long n = 1;
        for (int c : chunkShape) {
            n *= c;
        }
        return n;
    }

    /** The chunks of a shard per dimension ({@code shardShape / chunkShape}); all ones when not sharded. */
    public int[] chunksPerShard() {
        int[] n = new int[chunkShape.length];
        for (int d = 0; d < n.length; d++) {
            n[d] = shardShape == null ? 1 : shardShape[d] / chunkShape[d];
        }
        return n;
    }

    /** The grid index of chunk number {@code flat} in C order. */
    public long[] chunkIndex(long flat) {
        if (flat < 0 || flat >= chunkCount()) {
            throw new IndexOutOfBoundsException("chunk " + flat + " of " + chunkCount());
        }
        long[] idx = new long[gridShape.length];
        for (int d = gridShape.length - 1; d >= 0; d--) {
            idx[d] = flat % gridShape[d];
            flat /= gridShape[d];
        }
        return idx;
    }

    /** The C-order number of the chunk at grid index {@code idx}. */
    public long flatIndex(long[] idx) {
        checkRank(idx.length);
        long flat = 0;
        for (int d = 0; d < idx.length; d++) {
            if (idx[d] < 0 || idx[d] >= gridShape[d]) {
                throw new IndexOutOfBoundsException(
                        "chunk index " + Arrays.toString(idx) + " outside the grid " + Arrays.toString(gridShape));
            }
            flat = flat * gridShape[d] + idx[d];
        }
        return flat;
    }

    /** The section one chunk covers, clipped to the shape. */
    public ArraySection chunkSection(long[] chunkIndex) {
        int[] one = new int[chunkIndex.length];
        Arrays.fill(one, 1);
        return blockSection(chunkIndex, one);
    }

    /**
     * The section a block of neighbouring chunks covers, clipped to the shape: {@code counts[d]} chunks from
     * {@code first[d]} on (what a read grouping chunks, a Spark partition say, reads at once).
     */
    public ArraySection blockSection(long[] first, int[] counts) {
        checkRank(first.length);
        checkRank(counts.length);
        long[] origin = new long[first.length];
        int[] count = new int[first.length];
        for (int d = 0; d < first.length; d++) {
            if (first[d] < 0 || counts[d] < 1 || first[d] + counts[d] > gridShape[d]) {
                throw new IndexOutOfBoundsException("chunks " + Arrays.toString(first) + " + " + Arrays.toString(counts)
                        + " outside the grid " + Arrays.toString(gridShape));
            }
            long end;
            if (edges != null) {
                origin[d] = edges.start(d, first[d]);
                long lastChunk = first[d] + counts[d] - 1;
                end = Math.min(shape[d], edges.start(d, lastChunk) + edges.size(d, lastChunk));
            } else {
                origin[d] = first[d] * chunkShape[d];
                end = Math.min(shape[d], (first[d] + counts[d]) * (long) chunkShape[d]);
            }
            count[d] = Math.toIntExact(end - origin[d]);
        }
        return ArraySection.of(origin, count);
    }

    /** The grid index of the chunk holding the element at {@code point}. */
    public long[] chunkOf(long[] point) {
        checkRank(point.length);
        long[] idx = new long[point.length];
        for (int d = 0; d < point.length; d++) {
            if (point[d] < 0 || point[d] >= shape[d]) {
                throw new IndexOutOfBoundsException(
                        "point " + Arrays.toString(point) + " outside the shape " + Arrays.toString(shape));
            }
            idx[d] = edges != null ? edges.chunkOf(d, point[d]) : point[d] / chunkShape[d];
        }
        return idx;
    }

    private void checkRank(int rank) {
        if (rank != shape.length) {
            throw new IllegalArgumentException("rank " + rank + " for a grid of rank " + shape.length);
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkGrid g
                && Arrays.equals(shape, g.shape)
                && Arrays.equals(chunkShape, g.chunkShape)
                && Arrays.equals(gridShape, g.gridShape)
                && Arrays.equals(shardShape, g.shardShape)
                && java.util.Objects.equals(edges, g.edges);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(shape) * 31 + Arrays.hashCode(chunkShape);
    }

    @Override
    public String toString() {
        return "ChunkGrid[shape " + Arrays.toString(shape) + ", chunks "
                + (edges != null ? edges.toString() : Arrays.toString(chunkShape)) + ", grid "
                + Arrays.toString(gridShape) + (shardShape == null ? "" : ", shards " + Arrays.toString(shardShape))
                + "]";
    }
}
