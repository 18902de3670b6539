package io.nczarr.read;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.model.NcType;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The typed read API on test-data: sample.file (NCZarr, values in sample.cdl) and v3 stores (their manifests). */
class TypedReadTest {
    private static OpenDataset open(String path, String fragment) throws IOException {
        String url = Corpus.testDataDir().resolve(path).toAbsolutePath().toUri() + fragment;
        return Datasets.open(Datasets.parse(url), NcZarrOptions.shared());
    }

    @Test
    void aFloatVariableReadsWholeWithItsShapeFillAndValidRange() throws IOException {
        try (OpenDataset ds = open("sample.file", "#mode=nczarr,file")) {
            VariableReader temp = ds.variable("/temp");
            assertEquals(NcType.FLOAT, temp.type());
            assertEquals(List.of("/time", "/lat", "/lon"), temp.dimensions());
            TypedArray a = temp.readAll();
            assertArrayEquals(new int[] {4, 3, 5}, a.shape());
            float[] v = a.floats();
            assertEquals(60, v.length);
            assertEquals(288.5f, v[0]);
            assertEquals(-999f, v[18]); // temp(1, 0, 3) is _ in the CDL
            assertEquals(282.75f, v[59]);
            CfEncoding e = temp.encoding();
            assertEquals(-999.0, e.fillValue().doubleValue());
            assertTrue(e.isMissing(a.getDouble(18)));
            assertFalse(e.isMissing(a.getDouble(0)));
            assertTrue(Double.isNaN(e.decoded(a, 18)));
            assertEquals(180.0, e.validMin());
            assertEquals(340.0, e.validMax());
            assertTrue(e.isMissing(341));
            assertFalse(e.isPacked());
            assertEquals(NcType.FLOAT, e.unpackedType());
        }
    }

    @Test
    void aPackedShortUnpacksWithItsScaleAndFill() throws IOException {
        try (OpenDataset ds = open("sample.file", "#mode=nczarr,file")) {
            VariableReader precip = ds.variable("precip");
            assertEquals("/precip", precip.path());
            TypedArray a = precip.readAll();
            short[] v = a.shorts();
            assertEquals(120, v[0]);
            assertEquals(-32767, v[18]);
            CfEncoding e = precip.encoding();
            assertTrue(e.isPacked());
            assertEquals(NcType.FLOAT, e.unpackedType());
            assertEquals(1.2, e.decoded(a, 0), 1e-6);
            assertTrue(Double.isNaN(e.decoded(a, 18)));
            assertEquals(120.0, e.pack(e.unpack(120)));
        }
    }

    @Test
    void theChunkGridGivesChunkAlignedSectionsClippedToTheShape() throws IOException {
        try (OpenDataset ds = open("sample.file", "#mode=nczarr,file")) {
            VariableReader temp = ds.variable("/temp");
            ChunkGrid g = temp.grid();
            assertArrayEquals(new int[] {3, 2, 4}, g.chunkShape());
            assertArrayEquals(new long[] {2, 2, 2}, g.gridShape());
            assertFalse(g.isSharded());
            assertEquals(8, g.chunkCount());
            assertEquals(
                    ArraySection.of(new long[] {3, 2, 4}, new int[] {1, 1, 1}), g.chunkSection(new long[] {1, 1, 1}));
            TypedArray last = temp.readChunk(new long[] {1, 1, 1});
            assertArrayEquals(new int[] {1, 1, 1}, last.shape());
            assertEquals(282.75f, last.floats()[0]);
            TypedArray first = temp.readChunk(new long[] {0, 0, 0});
            assertArrayEquals(new int[] {3, 2, 4}, first.shape());
            assertEquals(288.5f, first.floats()[0]);
            assertEquals(299.5f, first.floats()[4]); // (0, 1, 0)
            // every chunk, read on its own, puts the whole variable together
            float[] whole = temp.readAll().floats();
            float[] assembled = new float[60];
            for (long c = 0; c < g.chunkCount(); c++) {
                long[] idx = g.chunkIndex(c);
                assertEquals(c, g.flatIndex(idx));
                ArraySection s = g.chunkSection(idx);
                float[] part = temp.read(s).floats();
                int i = 0;
                for (int t = 0; t < s.count()[0]; t++) {
                    for (int y = 0; y < s.count()[1]; y++) {
                        for (int x = 0; x < s.count()[2]; x++) {
                            long[] o = s.origin();
                            assembled[(int) (((o[0] + t) * 3 + o[1] + y) * 5 + o[2] + x)] = part[i++];
                        }
                    }
                }
            }
            assertArrayEquals(whole, assembled);
            assertEquals(
                    ArraySection.of(new long[] {0, 2, 0}, new int[] {4, 1, 5}),
                    g.blockSection(new long[] {0, 1, 0}, new int[] {2, 1, 2}));
            assertArrayEquals(new long[] {1, 0, 1}, g.chunkOf(new long[] {3, 1, 4}));
        }
    }

    @Test
    void aStridedSectionOfAVariableInAGroup() throws IOException {
        try (OpenDataset ds = open("sample.file", "#mode=nczarr,file")) {
            VariableReader t2m = ds.variable("/obs/t2m");
            TypedArray a = t2m.read(new ArraySection(new long[] {0, 1}, new int[] {2, 1}, new int[] {2, 1}));
            assertArrayEquals(new int[] {2, 1}, a.shape());
            assertArrayEquals(new float[] {275.5f, 278.25f}, a.floats());
            VariableReader name = ds.variable("/obs/name");
            assertEquals(NcType.CHAR, name.type());
            assertEquals('B', (char) name.readAll().bytes()[0]);
            assertEquals(
                    List.of("/time", "/lat", "/lon", "/temp", "/precip", "/obs/name", "/obs/elevation", "/obs/t2m"),
                    List.copyOf(ds.variables().keySet()));
        }
    }

    @Test
    void anUnknownVariableIsRefusedNamingItAndTheDataset() throws IOException {
        try (OpenDataset ds = open("sample.file", "#mode=nczarr,file")) {
            NcZarrException e = assertThrows(NcZarrException.class, () -> ds.variable("/nope"));
            assertEquals("/nope", e.variable());
            assertTrue(e.dataset().contains("sample.file"), e.getMessage());
        }
    }

    @Test
    void aShardedUshortReadsByInnerChunksWidenedUnsigned() throws IOException {
        // v3_sharding.expected.json: /end is ushort [10, 7], head 47778, 45736, 0, 0, 55705, sum 1773297
        try (OpenDataset ds = open("v3/sharding.zarr", "#mode=zarr,file")) {
            VariableReader end = ds.variable("/end");
            ChunkGrid g = end.grid();
            assertTrue(g.isSharded());
            assertArrayEquals(new int[] {2, 2}, g.chunkShape());
            assertArrayEquals(new int[] {4, 4}, g.shardShape());
            assertArrayEquals(new long[] {5, 4}, g.gridShape());
            assertArrayEquals(new int[] {2, 2}, g.chunksPerShard());
            TypedArray a = end.readAll();
            assertTrue(a.isUnsigned());
            assertEquals(NcType.USHORT, a.type());
            assertEquals(47778, a.getLong(0));
            assertEquals(47778.0, a.getDouble(0));
            long sum = 0;
            for (int i = 0; i < a.size(); i++) {
                sum += a.getLong(i);
            }
            assertEquals(1773297, sum);
            TypedArray c = end.readChunk(new long[] {4, 3}); // the corner: one row, one column
            assertArrayEquals(new int[] {2, 1}, c.shape());
            assertEquals(a.getLong(8 * 7 + 6), c.getLong(0));
            assertEquals(a.getLong(9 * 7 + 6), c.getLong(1));
        }
    }

    @Test
    void aScalarHasRankZeroAndOneChunk() throws IOException {
        try (OpenDataset ds = open("v3/dimension_names.zarr", "#mode=zarr,file")) {
            VariableReader s = ds.variable("/scalar");
            assertEquals(0, s.grid().rank());
            assertEquals(1, s.grid().chunkCount());
            assertNull(s.grid().shardShape());
            TypedArray a = s.readChunk(new long[0]);
            assertEquals(0, a.rank());
            assertArrayEquals(new int[] {7}, a.ints());
        }
    }
}
