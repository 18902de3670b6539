package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.MetadataException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.VarModel;
import io.nczarr.read.ArraySection;
import io.nczarr.read.ChunkGrid;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The zarr-extensions {@code rectilinear} chunk grid (zarr-python 3.4.2's test-data/autumn-2026/
 * zarr342_rectilinear.zarr): sections fetch only the chunks they touch, the grid API follows the edges, and bad
 * edges are refused naming the dataset, the key and the variable. Values: SectionReadTest and the conformance test.
 */
class RectilinearReadTest {

    @Test
    void aSectionFetchesOnlyTheChunksItTouches() throws IOException {
        // /a: shape [10, 7], edges [[2, 3], 6] x [3, 4]; rows 6..11 are one chunk running past the shape
        try (SectionReadTest.Opened o = SectionReadTest.open("autumn_zarr342_rectilinear")) {
            VarModel a = o.rootVariable(v -> v.name().equals("a"));
            assertNotNull(a.array().edges());
            CountingStore store = new CountingStore(o.store());
            ChunkReader reader = new ChunkReader(store, a, CodecRegistry.standard(), null);
            float[] one = (float[]) reader.read(new long[] {9, 6}, new int[] {1, 1}, new int[] {1, 1});
            assertArrayEquals(new float[] {107f}, one);
            assertEquals(Set.of("a/c/3/1"), store.fetched);
            store.fetched.clear();
            float[] rows = (float[]) reader.read(new long[] {2, 0}, new int[] {2, 7}, new int[] {1, 1});
            assertEquals(Set.of("a/c/1/0", "a/c/1/1"), store.fetched);
            assertEquals(7f, rows[0]); // element (2, 0) = 14 * 0.5
            store.fetched.clear();
            // a column with stride 3 from row 1: rows 1, 4, 7 (chunks 0, 2, 3), column 3 (chunk 1)
            float[] col = (float[]) reader.read(new long[] {1, 3}, new int[] {3, 1}, new int[] {3, 1});
            assertArrayEquals(new float[] {5f, 15.5f, -9f}, col);
            assertEquals(Set.of("a/c/0/1", "a/c/2/1", "a/c/3/1"), store.fetched);
        }
    }

    @Test
    void theChunkGridFollowsTheEdges() throws IOException {
        try (SectionReadTest.Opened o = SectionReadTest.open("autumn_zarr342_rectilinear")) {
            VarModel a = o.rootVariable(v -> v.name().equals("a"));
            ChunkGrid g = ChunkGrid.of(a);
            assertTrue(g.isRectilinear());
            assertArrayEquals(new long[] {4, 2}, g.gridShape());
            assertArrayEquals(new int[] {6, 4}, g.chunkShape());
            assertEquals(ArraySection.of(new long[] {6, 3}, new int[] {4, 4}), g.chunkSection(new long[] {3, 1}));
            assertEquals(
                    ArraySection.of(new long[] {2, 0}, new int[] {8, 7}),
                    g.blockSection(new long[] {1, 0}, new int[] {3, 2}));
            assertArrayEquals(new long[] {2, 1}, g.chunkOf(new long[] {5, 3}));
            // the sharded /b has a rectilinear outer grid: its shards are the unit
            VarModel b = o.rootVariable(v -> v.name().equals("b"));
            ChunkGrid gb = ChunkGrid.of(b);
            assertArrayEquals(new long[] {3, 2}, gb.gridShape());
            assertEquals(ArraySection.of(new long[] {4, 6}, new int[] {8, 6}), gb.chunkSection(new long[] {1, 1}));
        }
    }

    private static final String ROOT = "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{}}";

    private static String array(String chunkShapes) {
        return "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[5, 4],\"data_type\":\"int16\","
                + "\"chunk_grid\":{\"name\":\"rectilinear\",\"configuration\":{\"kind\":\"inline\","
                + "\"chunk_shapes\":" + chunkShapes + "}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}},"
                + "\"fill_value\":0,\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
                + "\"dimension_names\":[\"y\",\"x\"],\"attributes\":{}}";
    }

    @Test
    void badEdgesAreAMetadataErrorNamingDatasetKeyAndVariable() {
        String[][] bad = {
            {"[[2, 2], [4]]", "sum to 4, short of its length 5"},
            {"[[2, 0, 3], [4]]", "edge length 0 in dimension 0"},
            {"[[[5, -1]], [4]]", "count -1 in dimension 0"},
        };
        for (String[] b : bad) {
            MemoryStore s = MemoryStore.builder("mem:rect")
                    .put("zarr.json", ROOT)
                    .put("temp/zarr.json", array(b[0]))
                    .build();
            MetadataException e = assertThrows(
                    MetadataException.class, () -> MetadataReader.read(s, DatasetUrl.Format.ZARR, true), b[0]);
            assertEquals("mem:rect", e.dataset());
            assertEquals("temp/zarr.json", e.key());
            assertEquals("temp", e.variable());
            assertTrue(e.getMessage().contains("rectilinear") && e.getMessage().contains(b[1]), e.getMessage());
        }
    }

    @Test
    void anUnknownKindIsUnsupported() {
        MemoryStore s = MemoryStore.builder("mem:rect")
                .put("zarr.json", ROOT)
                .put("temp/zarr.json", array("[[5], [4]]").replace("inline", "external"))
                .build();
        Exception e = assertThrows(
                io.nczarr.error.UnsupportedFeatureException.class,
                () -> MetadataReader.read(s, DatasetUrl.Format.ZARR, true));
        assertTrue(e.getMessage().contains("kind 'external'"), e.getMessage());
    }

    @Test
    void chunksOfEveryShapeDecodeWithTheirOwnLength() throws IOException {
        // edges [2, 3] x [1, 3]: four chunk shapes, one missing chunk (fill 0)
        MemoryStore.Builder b =
                MemoryStore.builder("mem:rect").put("zarr.json", ROOT).put("temp/zarr.json", array("[[2, 3], [1, 3]]"));
        int[][] edges = {{0, 2, 5}, {0, 1, 4}};
        for (int ci = 0; ci < 2; ci++) {
            for (int cj = 0; cj < 2; cj++) {
                if (ci == 1 && cj == 0) {
                    continue;
                }
                int rows = edges[0][ci + 1] - edges[0][ci];
                int cols = edges[1][cj + 1] - edges[1][cj];
                byte[] chunk = new byte[rows * cols * 2];
                int k = 0;
                for (int i = edges[0][ci]; i < edges[0][ci + 1]; i++) {
                    for (int j = edges[1][cj]; j < edges[1][cj + 1]; j++) {
                        chunk[k++] = (byte) (10 * i + j + 1);
                        chunk[k++] = 0;
                    }
                }
                b.put("temp/c/" + ci + "/" + cj, chunk);
            }
        }
        MemoryStore s = b.build();
        VarModel v = MetadataReader.read(s, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        short[] all = (short[]) new ChunkReader(s, v, CodecRegistry.standard(), null).readAll();
        short[] expected = {
            1, 2, 3, 4, //
            11, 12, 13, 14, //
            0, 22, 23, 24, //
            0, 32, 33, 34, //
            0, 42, 43, 44
        };
        assertArrayEquals(expected, all);
    }
}
