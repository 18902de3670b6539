package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.ChunkException;
import io.nczarr.error.CodecException;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnknownCodecException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.store.ReadPool;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A chunk that cannot be read fails with a typed {@link io.nczarr.error.NcZarrException} that
 * names the dataset, the chunk key and the variable, in the calling thread and from the pool.
 */
class ChunkReaderErrorsTest {
    private static final ReadPool POOL = new ReadPool(2, 4, "errors-test");

    static final String LOCATION = "memory:errors";

    /** {@code v}: 8 little-endian int32 in chunks of 4, compressed with {@code compressor} (JSON or null). */
    static MemoryStore.Builder dataset(String compressor) {
        return MemoryStore.builder(LOCATION)
                .put(".zgroup", "{\"zarr_format\":2}")
                .put(
                        "v/.zarray",
                        "{\"zarr_format\":2,\"shape\":[8],\"chunks\":[4],\"dtype\":\"<i4\","
                                + "\"fill_value\":-1,\"order\":\"C\",\"compressor\":" + compressor
                                + ",\"filters\":null}");
    }

    static byte[] ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        return b.array();
    }

    static byte[] zlib(byte[] data) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out)) {
            z.write(data);
        }
        return out.toByteArray();
    }

    static ChunkReader reader(Store store, ExecutorService executor) throws IOException {
        VarModel v = MetadataReader.read(store, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        return new ChunkReader(store, v, CodecRegistry.standard(), executor);
    }

    /** The calling thread only, and a pool (the failure crosses a Future). */
    static List<ExecutorService> executors() {
        return Arrays.asList(null, POOL.decodePool());
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aGoodDatasetReadsWithFillForTheMissingChunk(ExecutorService executor) throws IOException {
        Store store = dataset("{\"id\":\"zlib\",\"level\":1}")
                .put("v/0", zlib(ints(1, 2, 3, 4)))
                .build();
        assertArrayEquals(new int[] {1, 2, 3, 4, -1, -1, -1, -1}, (int[])
                reader(store, executor).readAll());
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aTruncatedChunkIsAChunkExceptionNamingKeyAndVariable(ExecutorService executor) throws IOException {
        Store store = dataset("null")
                .put("v/0", ints(1, 2, 3, 4))
                .put("v/1", ints(5, 6, 7))
                .build();
        ChunkException e =
                assertThrows(ChunkException.class, () -> reader(store, executor).readAll());
        assertEquals(ChunkException.class, e.getClass());
        assertEquals(LOCATION, e.dataset());
        assertEquals("v/1", e.key());
        assertEquals("v", e.variable());
        assertTrue(
                e.getMessage().contains("chunk has 12 bytes, 16 expected (truncated or wrong chunk size)"),
                e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aChunkDecodingToTheWrongSizeIsAChunkException(ExecutorService executor) throws IOException {
        Store store = dataset("{\"id\":\"zlib\",\"level\":1}")
                .put("v/0", zlib(ints(1, 2, 3)))
                .build();
        ChunkException e =
                assertThrows(ChunkException.class, () -> reader(store, executor).readAll());
        assertEquals("v/0", e.key());
        assertEquals("v", e.variable());
        assertTrue(e.getMessage().contains("decodes to 12 bytes, 16 expected"), e.getMessage());
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aCodecFailureKeepsItsTypeAndGainsTheContext(ExecutorService executor) throws IOException {
        Store store = dataset("{\"id\":\"zlib\",\"level\":1}")
                .put("v/0", new byte[] {1, 2, 3, 4, 5})
                .build();
        CodecException e =
                assertThrows(CodecException.class, () -> reader(store, executor).readAll());
        assertEquals(LOCATION, e.dataset());
        assertEquals("v/0", e.key());
        assertEquals("v", e.variable());
        assertTrue(e.getMessage().startsWith(LOCATION + ": v/0: variable 'v': "), e.getMessage());
        assertTrue(e.getCause() instanceof CodecException, "the codec's own exception is the cause");
    }

    @ParameterizedTest
    @MethodSource("executors")
    void anUnknownCodecNamesTheZarrayAndTheVariable(ExecutorService executor) throws IOException {
        Store store =
                dataset("{\"id\":\"nosuchcodec\"}").put("v/0", ints(1, 2, 3, 4)).build();
        ChunkReader reader = reader(store, executor);
        UnknownCodecException e = assertThrows(UnknownCodecException.class, reader::checkCodecs);
        assertEquals("nosuchcodec", e.codecId());
        assertEquals("v/.zarray", e.key());
        assertEquals("v", e.variable());
        assertEquals(LOCATION, e.dataset());
        assertThrows(UnknownCodecException.class, reader::readAll);
    }

    @ParameterizedTest
    @MethodSource("executors")
    void aStoreFailureReachesTheCallerAsItself(ExecutorService executor) throws IOException {
        StoreException failure = new StoreException(LOCATION, "v/1", "connection reset", true, null);
        Store store = new FailingStore(
                dataset("null")
                        .put("v/0", ints(1, 2, 3, 4))
                        .put("v/1", ints(5, 6, 7, 8))
                        .build(),
                "v/1",
                failure);
        StoreException e =
                assertThrows(StoreException.class, () -> reader(store, executor).readAll());
        assertTrue(e.isRetryable());
        assertEquals("v/1", e.key());
        assertEquals("v", e.variable(), "the chunk reader adds the variable");
        assertSame(failure, e.getCause());
    }

    /** Throws {@code failure} for one key, and passes everything else on. */
    record FailingStore(Store inner, String badKey, IOException failure) implements Store {
        @Override
        public String location() {
            return inner.location();
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            if (key.equals(badKey)) {
                throw failure;
            }
            return inner.get(key);
        }

        @Override
        public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
            return inner.getRange(key, offset, length);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return inner.list(prefix);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
