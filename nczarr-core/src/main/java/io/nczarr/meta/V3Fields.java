package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.ChunkEdges;
import java.io.IOException;

/** The fields of a Zarr v3 array's {@code zarr.json} that need no hierarchy: shape and chunk grid (fill values: {@link V3Fills}). */
final class V3Fields {
    private final String dataset;

    V3Fields(String dataset) {
        this.dataset = dataset;
    }

    /**
     * The chunk grid: its chunk shape (for a {@code rectilinear} grid the longest chunk per dimension) and, for a
     * rectilinear grid, its edges ({@code null} for a regular one).
     */
    record Grid(int[] chunks, ChunkEdges edges) {}

    Grid grid(String nodeKey, ObjectNode node, long[] shape) throws IOException {
        JsonNode grid = node.get("chunk_grid");
        String gridName = grid == null ? "null" : grid.path("name").asText("");
        if (gridName.equals("rectilinear")) {
            return rectilinear(nodeKey, grid.path("configuration"), shape);
        }
        if (!gridName.equals("regular")) {
            throw new UnsupportedFeatureException(
                    dataset,
                    nodeKey,
                    null,
                    "chunk_grid " + gridName,
                    "chunk_grid: only 'regular' and 'rectilinear' are supported, not '" + gridName + "'",
                    null);
        }
        long[] cs = longs(nodeKey, grid.path("configuration").get("chunk_shape"), "chunk_grid.chunk_shape");
        if (cs.length != shape.length) {
            throw new MetadataException(
                    dataset,
                    nodeKey,
                    "chunk_grid: shape has " + shape.length + " dimensions but chunk_shape has " + cs.length);
        }
        for (int d = 0; d < cs.length; d++) {
            if (cs[d] <= 0) {
                throw new MetadataException(dataset, nodeKey, "chunk_grid: chunk length " + cs[d] + " is not positive");
            }
            if (cs[d] > Integer.MAX_VALUE) {
                throw new UnsupportedFeatureException(
                        dataset,
                        nodeKey,
                        null,
                        "chunks of 2^31 elements or more along one dimension",
                        "chunk_grid: chunk length " + cs[d] + " in dimension " + d + " is more than one Java array"
                                + " holds (" + Integer.MAX_VALUE + ")",
                        null);
            }
        }
        int[] chunks = new int[cs.length];
        for (int d = 0; d < cs.length; d++) {
            chunks[d] = (int) cs[d];
        }
        checkChunkBytes(
                nodeKey, chunks, String.valueOf(grid.path("configuration").get("chunk_shape")));
        return new Grid(chunks, null);
    }

    /** zarr-extensions {@code rectilinear}: {@code {"kind": "inline", "chunk_shapes": [...]}}. */
    private Grid rectilinear(String nodeKey, JsonNode conf, long[] shape) throws IOException {
        String kind = conf.path("kind").asText("");
        if (!kind.equals("inline")) {
            throw new UnsupportedFeatureException(
                    dataset,
                    nodeKey,
                    null,
                    "chunk_grid rectilinear kind " + kind,
                    "chunk_grid: rectilinear kind '" + kind + "' is not supported (only 'inline')",
                    null);
        }
        ChunkEdges edges;
        try {
            edges = ChunkEdges.parse(conf.get("chunk_shapes"), shape);
        } catch (IllegalArgumentException e) {
            throw new MetadataException(dataset, nodeKey, "chunk_grid: rectilinear " + e.getMessage());
        }
        int[] chunks = edges.maxChunkShape();
        checkChunkBytes(nodeKey, chunks, "of the longest edges " + java.util.Arrays.toString(chunks));
        return new Grid(chunks, edges);
    }

    private void checkChunkBytes(String nodeKey, int[] chunks, String what) throws MetadataException {
        long elements = 1;
        for (int c : chunks) {
            elements *= c;
            if (elements * 8 > ArrayMeta.MAX_CHUNK_BYTES) {
                throw new MetadataException(
                        dataset,
                        nodeKey,
                        "chunk_grid: one chunk " + what + " would exceed " + ArrayMeta.MAX_CHUNK_BYTES + " bytes");
            }
        }
    }

    long[] longs(String nodeKey, JsonNode n, String field) throws MetadataException {
        if (n == null || !n.isArray()) {
            throw new MetadataException(dataset, nodeKey, field + ": missing or not a list");
        }
        long[] out = new long[n.size()];
        long total = 1;
        for (int i = 0; i < out.length; i++) {
            JsonNode v = n.get(i);
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() < 0) {
                throw new MetadataException(dataset, nodeKey, field + ": " + v + " is not a non-negative integer");
            }
            out[i] = v.longValue();
            if (out[i] != 0 && total > Long.MAX_VALUE / out[i]) {
                throw new MetadataException(dataset, nodeKey, field + ": more than 2^63 elements");
            }
            total *= Math.max(1, out[i]);
        }
        return out;
    }
}
