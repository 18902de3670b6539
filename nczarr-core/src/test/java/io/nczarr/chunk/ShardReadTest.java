package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.NcZarrException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.ReadPool;
import io.nczarr.store.Store;
import io.nczarr.store.TestStores;
import io.nczarr.url.DatasetUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Reads of sharded Zarr v3 arrays written here (float32 37 × 29, shards 16 × 12 of inner chunks 4 × 6, zstd
 * inside, a crc32c index at the start or the end, edge shards, inner chunks stored in reverse order, some inner
 * chunks and one shard never written): whole, inner chunk, row, column, edge and random strided sections equal
 * the values written, the missing parts the fill value; and a read wanting a whole shard reads it once.
 */
class ShardReadTest {
    private static final ReadPool POOL = new ReadPool(2, 8, "shard-test");
    static final int ROWS = 37;
    static final int COLS = 29;
    static final int[] SHARD = {16, 12};
    static final int[] INNER = {4, 6};
    static final float FILL = -1.5f;
    /** The shard never written. */
    static final long[] MISSING_SHARD = {1, 2};

    @TempDir
    Path dir;

    /** Inner chunks left out (empty in the index): some in the middle of a shard, one at the array's edge. */
    static boolean innerMissing(long gy, long gx) {
        return (gy == 1 && gx == 1) || (gy == 5 && gx == 2) || (gy == 9 && gx == 4);
    }

    static float value(int y, int x) {
        long gy = y / INNER[0];
        long gx = x / INNER[1];
        if (innerMissing(gy, gx) || (y / SHARD[0] == MISSING_SHARD[0] && x / SHARD[1] == MISSING_SHARD[1])) {
            return FILL;
        }
        return y * 1000 + x;
    }

    static float[] expectedWhole() {
        float[] out = new float[ROWS * COLS];
        for (int y = 0; y < ROWS; y++) {
            for (int x = 0; x < COLS; x++) {
                out[y * COLS + x] = value(y, x);
            }
        }
        return out;
    }

    /** Writes the dataset (a root group and the array {@code a}) and returns its folder. */
    static Path write(Path dir, boolean indexAtEnd) throws IOException {
        Files.writeString(dir.resolve("zarr.json"), "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{}}");
        Path a = Files.createDirectories(dir.resolve("a"));
        Files.writeString(
                a.resolve("zarr.json"),
                ("{'zarr_format':3,'node_type':'array','shape':[37,29],'data_type':'float32',"
                                + "'chunk_grid':{'name':'regular','configuration':{'chunk_shape':[16,12]}},"
                                + "'chunk_key_encoding':{'name':'default','configuration':{'separator':'/'}},"
                                + "'fill_value':-1.5,'codecs':[{'name':'sharding_indexed','configuration':{"
                                + "'chunk_shape':[4,6],'codecs':[{'name':'bytes','configuration':{'endian':'little'}},"
                                + "{'name':'zstd','configuration':{'level':1,'checksum':false}}],"
                                + "'index_codecs':[{'name':'bytes','configuration':{'endian':'little'}},"
                                + "{'name':'crc32c'}],'index_location':'" + (indexAtEnd ? "end" : "start") + "'}}],"
                                + "'dimension_names':['y','x'],'attributes':{}}")
                        .replace('\'', '"'));
        int gy = SHARD[0] / INNER[0];
        int gx = SHARD[1] / INNER[1];
        int indexBytes = 16 * gy * gx + 4;
        for (int sy = 0; sy * SHARD[0] < ROWS; sy++) {
            for (int sx = 0; sx * SHARD[1] < COLS; sx++) {
                if (sy == MISSING_SHARD[0] && sx == MISSING_SHARD[1]) {
                    continue;
                }
                long[] index = new long[2 * gy * gx];
                java.util.Arrays.fill(index, -1L);
                ByteArrayOutputStream data = new ByteArrayOutputStream();
                int base = indexAtEnd ? 0 : indexBytes;
                // inner chunks stored last first: readers must go by the index, not by the order
                for (int c = gy * gx - 1; c >= 0; c--) {
                    int iy = sy * gy + c / gx;
                    int ix = sx * gx + c % gx;
                    if (iy * INNER[0] >= ROWS || ix * INNER[1] >= COLS || innerMissing(iy, ix)) {
                        continue;
                    }
                    byte[] z = Zstd.compress(innerChunk(iy, ix), 1);
                    index[2 * c] = base + data.size();
                    index[2 * c + 1] = z.length;
                    data.write(z);
                }
                ByteBuffer ib = ByteBuffer.allocate(indexBytes).order(ByteOrder.LITTLE_ENDIAN);
                for (long v : index) {
                    ib.putLong(v);
                }
                CRC32C crc = new CRC32C();
                crc.update(ib.array(), 0, indexBytes - 4);
                ib.putInt((int) crc.getValue());
                ByteArrayOutputStream shard = new ByteArrayOutputStream();
                if (!indexAtEnd) {
                    shard.write(ib.array());
                }
                shard.write(data.toByteArray());
                if (indexAtEnd) {
                    shard.write(ib.array());
                }
                Path f = a.resolve("c").resolve(String.valueOf(sy)).resolve(String.valueOf(sx));
                Files.createDirectories(f.getParent());
                Files.write(f, shard.toByteArray());
            }
        }
        return dir;
    }

    /** Inner chunk (iy, ix), little-endian C order; elements outside the array as the fill. */
    static byte[] innerChunk(int iy, int ix) {
        ByteBuffer b = ByteBuffer.allocate(INNER[0] * INNER[1] * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int y = iy * INNER[0]; y < (iy + 1) * INNER[0]; y++) {
            for (int x = ix * INNER[1]; x < (ix + 1) * INNER[1]; x++) {
                b.putFloat(y < ROWS && x < COLS ? y * 1000 + x : FILL);
            }
        }
        return b.array();
    }

    record Opened(CountingStore store, VarModel var) implements AutoCloseable {
        float[] read(ExecutorService pool, long[] origin, int[] count, int[] stride) throws IOException {
            return (float[]) new ChunkReader(store, var, CodecRegistry.standard(), pool).read(origin, count, stride);
        }

        @Override
        public void close() throws IOException {
            store.close();
        }
    }

    static Opened open(Path dir) throws IOException {
        DatasetUrl url = DatasetUrl.parse(dir.toUri() + "#mode=zarr,file");
        Store store = TestStores.open(url);
        DatasetModel m = MetadataReader.read(store, url.format(), url.useXarrayDimensions());
        VarModel v = m.root().variables().stream()
                .filter(x -> x.name().equals("a"))
                .findFirst()
                .orElseThrow();
        return new Opened(new CountingStore(store), v);
    }

    static float[] pick(long[] origin, int[] count, int[] stride) {
        float[] out = new float[count[0] * count[1]];
        for (int i = 0; i < count[0]; i++) {
            for (int j = 0; j < count[1]; j++) {
                out[i * count[1] + j] =
                        value((int) (origin[0] + (long) i * stride[0]), (int) (origin[1] + (long) j * stride[1]));
            }
        }
        return out;
    }

    static void check(Opened o, String what, long[] origin, int[] count, int[] stride) throws IOException {
        float[] expected = pick(origin, count, stride);
        assertArrayEquals(expected, o.read(null, origin, count, stride), what + ", serial");
        assertArrayEquals(expected, o.read(POOL.decodePool(), origin, count, stride), what + ", in parallel");
    }

    static void check(Opened o, String what, long[] origin, int[] count) throws IOException {
        check(o, what, origin, count, new int[] {1, 1});
    }

    @ParameterizedTest(name = "index at the end: {0}")
    @ValueSource(booleans = {true, false})
    void wholeChunkRowColumnEdgeAndRandomSectionsEqualTheValuesWritten(boolean indexAtEnd) throws IOException {
        try (Opened o = open(write(dir, indexAtEnd))) {
            assertArrayEquals(
                    expectedWhole(), o.read(POOL.decodePool(), new long[2], new int[] {ROWS, COLS}, new int[] {1, 1}));
            check(o, "whole", new long[2], new int[] {ROWS, COLS});
            check(o, "one inner chunk", new long[] {8, 12}, new int[] {4, 6});
            check(o, "a missing inner chunk", new long[] {4, 6}, new int[] {4, 6});
            check(o, "an inner chunk of the missing shard", new long[] {16, 24}, new int[] {4, 5});
            check(o, "one row across every shard", new long[] {18, 0}, new int[] {1, COLS});
            check(o, "one row through missing inner chunks", new long[] {21, 0}, new int[] {1, COLS});
            check(o, "one column", new long[] {0, 13}, new int[] {ROWS, 1});
            check(o, "the edge corner", new long[] {33, 25}, new int[] {4, 4});
            check(o, "the last element", new long[] {36, 28}, new int[] {1, 1});
            check(o, "one whole shard", new long[] {16, 0}, new int[] {16, 12});
            check(o, "most of a shard", new long[] {0, 0}, new int[] {12, 12});
            check(o, "a strided section", new long[] {1, 2}, new int[] {12, 9}, new int[] {3, 3});
            Random rnd = new Random(26);
            for (int trial = 0; trial < 40; trial++) {
                long[] origin = {rnd.nextInt(ROWS), rnd.nextInt(COLS)};
                int[] stride = {1 + rnd.nextInt(3), 1 + rnd.nextInt(3)};
                int[] count = {
                    1 + rnd.nextInt((int) ((ROWS - 1 - origin[0]) / stride[0]) + 1),
                    1 + rnd.nextInt((int) ((COLS - 1 - origin[1]) / stride[1]) + 1)
                };
                check(o, "random section " + trial, origin, count, stride);
            }
        }
    }

    @ParameterizedTest(name = "index at the end: {0}")
    @ValueSource(booleans = {true, false})
    void aWhollyWantedShardIsOneReadAndAPartlyWantedOneIndexPlusOneRange(boolean indexAtEnd) throws IOException {
        try (Opened o = open(write(dir, indexAtEnd))) {
            o.read(POOL.decodePool(), new long[2], new int[] {ROWS, COLS}, new int[] {1, 1});
            assertEquals(9, o.store().total(), "whole read, 9 shards (one never written): " + o.store().requests);
            for (Map.Entry<String, AtomicInteger> e : o.store().requests.entrySet()) {
                assertTrue(e.getKey().startsWith("get a/c/"), e.toString());
                assertEquals(1, e.getValue().get(), e.toString());
            }

            o.store().requests.clear();
            o.read(null, new long[] {16, 12}, new int[] {16, 12}, new int[] {1, 1});
            assertEquals(Map.of("get a/c/1/1", 1), counts(o), "one whole shard");

            o.store().requests.clear();
            o.read(null, new long[] {0, 0}, new int[] {12, 12}, new int[] {1, 1});
            assertEquals(Map.of("get a/c/0/0", 1), counts(o), "6 of the shard's 8 inner chunks: the shard whole");

            o.store().requests.clear();
            o.read(null, new long[] {32, 24}, new int[] {5, 5}, new int[] {1, 1});
            assertEquals(Map.of("get a/c/2/2", 1), counts(o), "the edge shard's 2 inner chunks in the array");

            o.store().requests.clear();
            o.read(null, new long[] {8, 12}, new int[] {4, 6}, new int[] {1, 1});
            String index = indexAtEnd ? "suffix a/c/0/1" : "range a/c/0/1";
            assertEquals(
                    indexAtEnd ? Map.of(index, 1, "range a/c/0/1", 1) : Map.of(index, 2),
                    counts(o),
                    "one inner chunk: the index, then the chunk");

            o.store().requests.clear();
            o.read(POOL.decodePool(), new long[] {18, 0}, new int[] {1, COLS}, new int[] {1, 1});
            assertEquals(5, o.store().total(), "a row: index + one range for 2 shards, the missing shard's index");
        }
    }

    private static Map<String, Integer> counts(Opened o) {
        Map<String, Integer> m = new java.util.TreeMap<>();
        o.store().requests.forEach((k, v) -> m.put(k, v.get()));
        return m;
    }

    @Test
    void aCorruptIndexIsRefusedNamingTheShardAndTheVariable() throws IOException {
        Path d = write(dir, true);
        Path shard = d.resolve("a/c/0/1");
        byte[] b = Files.readAllBytes(shard);
        b[b.length - 20] ^= 1; // inside the index: its crc32c no longer matches
        Files.write(shard, b);
        try (Opened o = open(d)) {
            for (int[] count : new int[][] {{16, 12}, {4, 6}}) {
                NcZarrException e = assertThrows(
                        NcZarrException.class,
                        () -> o.read(POOL.decodePool(), new long[] {0, 12}, count, new int[] {1, 1}));
                assertEquals("a/c/0/1", e.key(), e.getMessage());
                assertEquals("a", e.variable(), e.getMessage());
                assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains("crc32c"), e.getMessage());
            }
            // the other shards still read
            check(o, "another shard", new long[] {0, 0}, new int[] {16, 12});
        }
    }

    @Test
    void thePipelineIsBuiltOncePerConfigurationAndRegistryAndZstdIsItsInnerChainsOnlyStage() throws IOException {
        Path d = write(dir, true);
        CodecRegistry registry = CodecRegistry.standard();
        try (Opened a = open(d);
                Opened b = open(d)) {
            io.nczarr.codec.CodecPipeline p =
                    V3Chunks.pipeline("t", a.var(), registry, registry::create, INNER[0] * INNER[1], 1 << 20);
            assertSame(
                    p,
                    V3Chunks.pipeline("t", b.var(), registry, registry::create, INNER[0] * INNER[1], 1 << 20),
                    "a second open of the array builds no pipeline");
            CodecRegistry other = CodecRegistry.standard();
            assertNotSame(p, V3Chunks.pipeline("t", b.var(), other, other::create, INNER[0] * INNER[1], 1 << 20));
            io.nczarr.codec.ShardingCodec sharding =
                    (io.nczarr.codec.ShardingCodec) p.decodeSteps().get(0);
            // [bytes little, zstd]: the bytes serializer passes little-endian bytes on, zstd decodes into the buffer
            assertEquals(1, sharding.innerPipeline().decodeSteps().size());
        }
    }

    @Test
    void theTestArrayIsWhatItSays() {
        assertEquals(FILL, value(4, 6));
        assertEquals(FILL, value(20, 25));
        assertEquals(5017f, value(5, 17));
    }
}
