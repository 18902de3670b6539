package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.ChunkException;
import io.nczarr.error.LimitExceededException;
import io.nczarr.meta.MetadataReader;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.MemoryStore;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The chunk reader keeps within its {@link MemoryLimits}: a read's result and each decoded chunk. */
class ChunkBudgetTest {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(2);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    private static final long BIG = 1L << 30;

    private static MemoryLimits limits(long chunk, long read) {
        return new MemoryLimits(BIG, chunk, BIG, read);
    }

    private static MemoryStore.Builder dataset(String zarray) {
        return MemoryStore.builder("memory:budget")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put("v/.zarray", zarray);
    }

    private static String zarray(String shape, String chunks, String dtype, String compressor, String filters) {
        return "{\"zarr_format\":2,\"shape\":" + shape + ",\"chunks\":" + chunks + ",\"dtype\":\"" + dtype
                + "\",\"fill_value\":" + (dtype.equals("|O") ? "\"\"" : "0") + ",\"order\":\"C\",\"compressor\":"
                + compressor + ",\"filters\":" + filters + "}";
    }

    private static ChunkReader reader(Store store, MemoryLimits limits, ExecutorService executor) throws IOException {
        VarModel v = MetadataReader.read(store, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        return new ChunkReader(store, v, CodecRegistry.standard(), executor, limits);
    }

    @Test
    void aReadOverTheReadLimitIsRefusedBeforeAnythingIsAllocated() throws IOException {
        // 1000 int32 in 100 chunks: 4000 bytes of result and 100 x 256 of plan
        Store s = dataset(zarray("[1000]", "[10]", "<i4", "null", "null")).build();
        ChunkReader r = reader(s, limits(BIG, 4000 + 100 * ChunkReader.PLAN_BYTES_PER_CHUNK - 1), null);
        LimitExceededException e = assertThrows(LimitExceededException.class, r::readAll);
        assertEquals(MemoryLimits.MAX_READ_BYTES, e.property());
        assertEquals("v", e.variable());
        assertEquals("memory:budget", e.dataset());
        assertTrue(e.getMessage().contains("1000 int elements in 100 chunks"), e.getMessage());
        // a part of it fits, and so does all of it with one byte more
        assertEquals(10, ((int[]) r.read(new long[] {0}, new int[] {10}, new int[] {1})).length);
        ChunkReader roomy = reader(s, limits(BIG, 4000 + 100 * ChunkReader.PLAN_BYTES_PER_CHUNK), null);
        assertEquals(1000, ((int[]) roomy.readAll()).length);
    }

    @Test
    void aSectionTooLargeToPlanIsRefusedNotPlanned() throws IOException {
        // int64 x (2^31 - 1) in chunks of one: planning it alone would take hundreds of GiB
        Store s = dataset(zarray("[2147483647]", "[1]", "<i8", "null", "null")).build();
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> reader(s, limits(BIG, BIG), null).readAll());
        assertTrue(e.size() > (2147483647L * (8 + ChunkReader.PLAN_BYTES_PER_CHUNK)) - 1, e.getMessage());
    }

    @Test
    void aChunkOverTheChunkLimitIsRefusedNamingItsKey() throws IOException {
        // chunks of 100 int64 = 800 bytes; v/0 is stored, v/1 is missing (fill needs no decoding)
        Store s = dataset(zarray("[200]", "[100]", "<i8", "null", "null"))
                .put("v/0", new byte[800])
                .build();
        for (ExecutorService executor : Arrays.asList(null, POOL)) {
            ChunkReader r = reader(s, limits(799, BIG), executor);
            LimitExceededException e = assertThrows(LimitExceededException.class, r::readAll);
            assertEquals("v/0", e.key());
            assertEquals(MemoryLimits.MAX_CHUNK_BYTES, e.property());
            assertTrue(e.getMessage().contains("one decoded chunk needs 800 bytes"), e.getMessage());
            long[] fill = (long[]) r.read(new long[] {100}, new int[] {100}, new int[] {1});
            assertEquals(0, fill[99]);
            assertEquals(200, ((long[]) reader(s, limits(800, BIG), executor).readAll()).length);
        }
    }

    @Test
    void aVlenChunkIsBoundedWhileItDecodes() throws IOException {
        byte[] chunk = vlen("x".repeat(5000), "y");
        Store s = dataset(zarray("[2]", "[2]", "|O", "{\"id\":\"zlib\",\"level\":1}", "[{\"id\":\"vlen-utf8\"}]"))
                .put("v/0", zlib(chunk))
                .build();
        long strings = 2L * ChunkReader.STRING_OBJECT_BYTES;
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> reader(s, limits(strings + 1000, BIG), null).readAll());
        assertEquals("v/0", e.key());
        assertEquals(MemoryLimits.MAX_CHUNK_BYTES, e.property());
        String[] read =
                (String[]) reader(s, limits(strings + chunk.length, BIG), null).readAll();
        assertEquals("y", read[1]);
    }

    @Test
    void anUncompressedVlenChunkIsBoundedToo() throws IOException {
        byte[] chunk = vlen("x".repeat(5000), "y");
        Store s = dataset(zarray("[2]", "[2]", "|O", "null", "[{\"id\":\"vlen-utf8\"}]"))
                .put("v/0", chunk)
                .build();
        long strings = 2L * ChunkReader.STRING_OBJECT_BYTES;
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> reader(s, limits(strings + 1000, BIG), null).readAll());
        assertEquals("v/0", e.key());
        assertEquals(
                5000,
                ((String[]) reader(s, limits(strings + chunk.length, BIG), null).readAll())[0].length());
    }

    @Test
    void aStringChunkCountsItsStringObjects() throws IOException {
        // 100 fixed strings of 4 bytes: 400 bytes decoded, and 100 String objects
        Store s = dataset(zarray("[100]", "[100]", "|S4", "null", "null"))
                .put("v/0", new byte[400])
                .build();
        long needed = 400 + 100L * ChunkReader.STRING_OBJECT_BYTES;
        assertThrows(
                LimitExceededException.class,
                () -> reader(s, limits(needed - 1, BIG), null).readAll());
        assertEquals(100, ((String[]) reader(s, limits(needed, BIG), null).readAll()).length);
    }

    @Test
    void anIntermediateStageIsBoundedByTheChunkLimit() throws IOException {
        // int8 x 100 behind shuffle and zlib: zlib's output is only bounded by 8 bytes per element,
        // unless the chunk limit is smaller; this chunk's zlib inflates to 200 bytes
        Store s = dataset(zarray(
                        "[100]",
                        "[100]",
                        "|i1",
                        "{\"id\":\"zlib\",\"level\":1}",
                        "[{\"id\":\"shuffle\",\"elementsize\":1}]"))
                .put("v/0", zlib(new byte[200]))
                .build();
        LimitExceededException e = assertThrows(
                LimitExceededException.class,
                () -> reader(s, limits(150, BIG), null).readAll());
        assertEquals(MemoryLimits.MAX_CHUNK_BYTES, e.property());
        assertTrue(e.getMessage().contains("intermediate codec stage"), e.getMessage());
        // with room for it, the chunk is what it is: the wrong size
        ChunkException wrong = assertThrows(
                ChunkException.class, () -> reader(s, limits(BIG, BIG), null).readAll());
        assertTrue(wrong.getMessage().contains("v/0"), wrong.getMessage());
    }

    @Test
    void theDefaultConstructorUsesTheHeapDefaults() throws IOException {
        Store s = dataset(zarray("[4]", "[2]", "<i4", "null", "null")).build();
        VarModel v = MetadataReader.read(s, DatasetUrl.Format.ZARR, true)
                .root()
                .variables()
                .get(0);
        assertArrayEquals(new int[4], (int[]) new ChunkReader(s, v, CodecRegistry.standard(), null).readAll());
    }

    /** numcodecs vlen-utf8: item count, then (length, UTF-8 bytes) per item, all little-endian int32. */
    private static byte[] vlen(String... items) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(le(items.length));
        for (String item : items) {
            byte[] b = item.getBytes(StandardCharsets.UTF_8);
            out.writeBytes(le(b.length));
            out.writeBytes(b);
        }
        return out.toByteArray();
    }

    private static byte[] le(int n) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(n).array();
    }

    private static byte[] zlib(byte[] data) throws IOException {
        return ChunkReaderErrorsTest.zlib(data);
    }
}
