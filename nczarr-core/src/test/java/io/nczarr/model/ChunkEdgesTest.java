package io.nczarr.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/** The rectilinear chunk grid's edges: run-length runs, bare steps, edges past the shape, and bad edges. */
class ChunkEdgesTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static ChunkEdges parse(String json, long... shape) throws Exception {
        return ChunkEdges.parse(JSON.readTree(json), shape);
    }

    @Test
    void runLengthEdgesAndBareStepsLocateEveryIndex() throws Exception {
        // zarr-python writes [[2, 3], 6] for 2, 2, 2, 6; a bare 4 is a regular step
        ChunkEdges e = parse("[[[2, 3], 6], 4, [1, [3, 2], 5]]", 10, 9, 12);
        assertArrayEquals(new long[] {4, 3, 4}, e.gridShape());
        assertArrayEquals(new int[] {6, 4, 5}, e.maxChunkShape());
        long[] starts0 = {0, 2, 4, 6};
        for (int c = 0; c < 4; c++) {
            assertEquals(starts0[c], e.start(0, c));
        }
        assertEquals(6, e.size(0, 3)); // runs past the shape (10 of 12)
        int[] chunkOfRow = {0, 0, 1, 1, 2, 2, 3, 3, 3, 3};
        for (int i = 0; i < 10; i++) {
            assertEquals(chunkOfRow[i], e.chunkOf(0, i), "row " + i);
        }
        assertEquals(2, e.chunkOf(1, 8));
        assertEquals(8, e.start(1, 2));
        long[] starts2 = {0, 1, 4, 7};
        for (int c = 0; c < 4; c++) {
            assertEquals(starts2[c], e.start(2, c));
            assertEquals(c, e.chunkOf(2, starts2[c]));
        }
        assertEquals(3, e.chunkOf(2, 11));
        assertArrayEquals(new int[] {6, 4, 3}, e.chunkShape(new long[] {3, 0, 2}));
    }

    @Test
    void hugeRunsAreNeverExpanded() throws Exception {
        ChunkEdges e = parse("[[[1, 4000000000000], 7]]", 4_000_000_000_003L);
        assertArrayEquals(new long[] {4_000_000_000_001L}, e.gridShape());
        assertEquals(3_999_999_999_999L, e.chunkOf(0, 3_999_999_999_999L));
        assertEquals(4_000_000_000_000L, e.chunkOf(0, 4_000_000_000_002L));
        assertEquals(7, e.size(0, 4_000_000_000_000L));
    }

    @Test
    void anEmptyDimensionHasNoChunks() throws Exception {
        assertArrayEquals(new long[] {0, 2}, parse("[[3], [2, 2]]", 0, 4).gridShape());
    }

    @Test
    void badEdgesAreRefusedNamingTheDimension() {
        String[][] bad = {
            {"[[2, 3], [4]]", "sum to 4, short of its length 5"},
            {"[[2, 0], [5]]", "edge length 0 in dimension 0"},
            {"[[2, 2], [-1, 6]]", "edge length -1 in dimension 1"},
            {"[[[2, 0]], [5]]", "count 0 in dimension 0"},
            {"[[[2, 2, 1]], [5]]", "is not [size, count]"},
            {"[[1.5, 2], [5]]", "edge length 1.5"},
            {"[[4]]", "shape has 2 dimensions but chunk_shapes has 1"},
            {"[[], [5]]", "dimension 0 has no edges"},
            {"[[4], 0]", "edge length 0 in dimension 1"},
            {"[[4], [3000000000]]", "more than one Java array holds"},
        };
        for (String[] b : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> parse(b[0], 4, 5), b[0]);
            assertTrue(e.getMessage().contains(b[1]), b[0] + ": " + e.getMessage());
        }
    }

    @Test
    void tooManyRunsAreRefusedBeforeTheyAreKept() throws Exception {
        StringBuilder sb = new StringBuilder("[[");
        int n = ChunkEdges.MAX_RUNS + 2;
        for (int i = 0; i < n; i++) {
            sb.append(i > 0 ? "," : "").append(1 + (i % 2));
        }
        JsonNode json = JSON.readTree(sb.append("]]").toString());
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> ChunkEdges.parse(json, new long[] {n}));
        assertTrue(e.getMessage().contains("more than " + ChunkEdges.MAX_RUNS + " runs"), e.getMessage());
    }
}
