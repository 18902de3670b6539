package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.raf.testing.MemoryRangeSource;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.channels.Channels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.unidata.io.RandomAccessFile;

/**
 * {@link BlockCacheRandomAccessFile} behaves exactly like a local {@code ucar.unidata.io.RandomAccessFile}
 * on the same bytes: random seek/read/readFully/readInt.../skip/length sequences (fixed seeds) give
 * the same values, file pointers and EOF exceptions, for block sizes from 1 byte up, over memory and
 * over HTTP, from one thread and from many.
 */
class BlockCacheContractTest {
    private static final int SIZE = 200_003; // not a multiple of any block size used
    private static byte[] data;
    private static Path file;
    private static RangeHttpServer server;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void setUp() throws IOException {
        data = new byte[SIZE];
        new Random(42).nextBytes(data);
        file = tmp.resolve("data.bin");
        Files.write(file, data);
        server = RangeHttpServer.start();
        server.put("/data.bin", data);
    }

    @AfterAll
    static void tearDown() {
        server.close();
    }

    static Stream<Arguments> configs() {
        return Stream.of(
                Arguments.of(1, 4, 0),
                Arguments.of(1, 64, 8),
                Arguments.of(7, 3, 2),
                Arguments.of(64, 2, 8),
                Arguments.of(1000, 16, 8),
                Arguments.of(4096, 1, 8),
                Arguments.of(4096, 40, 4),
                Arguments.of(65536, 8, 8),
                Arguments.of(1 << 20, 4, 8));
    }

    private static ByteRangeConfig config(int blockSize, int cacheBlocks, int readAhead) {
        return ByteRangeConfig.defaults()
                .withBlockSize(blockSize)
                .withCacheBlocks(cacheBlocks)
                .withReadAheadBlocks(readAhead)
                .withMaxRequestBytes(Math.max(blockSize, 50_000));
    }

    @ParameterizedTest(name = "memory blockSize={0} cacheBlocks={1} readAhead={2}")
    @MethodSource("configs")
    void sameAsLocalFileOverMemory(int blockSize, int cacheBlocks, int readAhead) throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        ByteRangeConfig cfg = config(blockSize, cacheBlocks, readAhead);
        try (BlockCacheRandomAccessFile ours = BlockCacheRandomAccessFile.open(src, cfg);
                RandomAccessFile local = new RandomAccessFile(file.toString(), "r")) {
            compare(ours, local, new Random(blockSize * 31L + cacheBlocks), 3000, blockSize);
            assertTrue(ours.cacheStats().cachedBlocks() <= cacheBlocks);
        }
        assertTrue(src.isClosed(), "closing the file closes the source");
    }

    @ParameterizedTest(name = "http blockSize={0} cacheBlocks={1} readAhead={2}")
    @MethodSource("configs")
    void sameAsLocalFileOverHttp(int blockSize, int cacheBlocks, int readAhead) throws IOException {
        ByteRangeConfig cfg = config(blockSize, cacheBlocks, readAhead);
        try (BlockCacheRandomAccessFile ours = ByteRangeFiles.openRaf(server.uri("/data.bin"), cfg);
                RandomAccessFile local = new RandomAccessFile(file.toString(), "r")) {
            compare(ours, local, new Random(blockSize * 17L + cacheBlocks), 400, blockSize);
            assertEquals(0, ours.stats().heads(), "the length came with the first GET");
        }
    }

    /** Random operations on both files; every result, pointer and EOF must agree. */
    private static void compare(RandomAccessFile ours, RandomAccessFile local, Random r, int ops, int blockSize)
            throws IOException {
        assertEquals(local.length(), ours.length());
        for (int i = 0; i < ops; i++) {
            int op = r.nextInt(10);
            String what = "op " + i + " (" + op + ") at " + local.getFilePointer();
            switch (op) {
                case 0, 1 -> { // seek anywhere, near the end or past it
                    long pos = switch (r.nextInt(4)) {
                        case 0 -> Math.max(0, SIZE - r.nextInt(3 * blockSize + 10));
                        case 1 -> SIZE + r.nextInt(10);
                        default -> r.nextInt(SIZE);
                    };
                    ours.seek(pos);
                    local.seek(pos);
                }
                case 2, 3 -> { // readFully of various lengths
                    int len = r.nextInt(4) == 0 ? r.nextInt(70_000) : r.nextInt(Math.min(3 * blockSize + 100, 5000));
                    byte[] a = new byte[len];
                    byte[] b = new byte[len];
                    Throwable ea = attempt(() -> ours.readFully(a));
                    Throwable eb = attempt(() -> local.readFully(b));
                    sameOutcome(what + " readFully " + len, ea, eb);
                    if (ea == null) {
                        assertArrayEquals(b, a, what);
                    }
                }
                case 4 -> { // read(byte[]) returns a count
                    int len = r.nextInt(20_000) + 1;
                    byte[] a = new byte[len];
                    byte[] b = new byte[len];
                    int na = ours.read(a, 0, len);
                    int nb = local.read(b, 0, len);
                    assertEquals(nb, na, what + " read count");
                    if (nb > 0) {
                        assertArrayEquals(Arrays.copyOf(b, nb), Arrays.copyOf(a, na), what);
                    }
                }
                case 5 -> {
                    Throwable ea = attempt(() -> ours.readInt());
                    Throwable eb = attempt(() -> local.readInt());
                    sameOutcome(what + " readInt", ea, eb);
                    if (ea == null) {
                        ours.seek(ours.getFilePointer() - 4);
                        local.seek(local.getFilePointer() - 4);
                        assertEquals(local.readInt(), ours.readInt(), what);
                    }
                }
                case 6 -> {
                    int endian = r.nextBoolean() ? RandomAccessFile.BIG_ENDIAN : RandomAccessFile.LITTLE_ENDIAN;
                    ours.order(endian);
                    local.order(endian);
                    long pos = r.nextInt(SIZE);
                    ours.seek(pos);
                    local.seek(pos);
                    Throwable ea = attempt(() -> ours.readLong());
                    Throwable eb = attempt(() -> local.readLong());
                    sameOutcome(what + " readLong", ea, eb);
                    if (ea == null) {
                        ours.seek(pos);
                        local.seek(pos);
                        assertEquals(local.readLong(), ours.readLong(), what);
                        assertEquals(local.readShort(), ours.readShort(), what);
                    }
                }
                case 7 -> assertEquals(local.read(), ours.read(), what + " read()");
                case 8 -> {
                    int n = r.nextInt(2 * blockSize + 10);
                    assertEquals(local.skipBytes(n), ours.skipBytes(n), what + " skip");
                }
                // (a local cdm file reports max(file length, end of its buffer) after a seek past the
                // end; ours always reports the object's length)
                default -> assertEquals(SIZE, ours.length(), what);
            }
            assertEquals(local.getFilePointer(), ours.getFilePointer(), what + " pointer");
        }
    }

    private interface IoRun {
        void run() throws IOException;
    }

    private static Throwable attempt(IoRun r) {
        try {
            r.run();
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    private static void sameOutcome(String what, Throwable ours, Throwable local) {
        if (local == null) {
            if (ours != null) {
                throw new AssertionError(what + ": ours failed, local did not", ours);
            }
            return;
        }
        assertTrue(ours != null, what + ": local threw " + local + ", ours did not");
        assertEquals(local.getClass(), ours.getClass(), what);
    }

    @Test
    void concurrentViewsAndPositionalReads() throws Exception {
        MemoryRangeSource src = new MemoryRangeSource(data).delayMs(1);
        ByteRangeConfig cfg = config(512, 32, 4);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (BlockCacheRandomAccessFile shared = BlockCacheRandomAccessFile.open(src, cfg)) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int id = t;
                fs.add(pool.submit(() -> {
                    Random r = new Random(100 + id);
                    try (BlockCacheRandomAccessFile view = shared.duplicate()) {
                        for (int i = 0; i < 400; i++) {
                            int pos = r.nextInt(SIZE);
                            int len = Math.min(r.nextInt(3000) + 1, SIZE - pos);
                            byte[] b = new byte[len];
                            if (id % 2 == 0) {
                                view.seek(pos);
                                view.readFully(b);
                            } else {
                                assertEquals(len, shared.readAt(pos, b, 0, len));
                            }
                            assertArrayEquals(Arrays.copyOfRange(data, pos, pos + len), b, "thread " + id);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
            assertTrue(shared.cacheStats().cachedBlocks() <= 32);
            assertFalse(src.isClosed(), "views closing leave the shared cache open");
        } finally {
            pool.shutdownNow();
        }
        assertTrue(src.isClosed());
    }

    @Test
    void concurrentMissesOfOneBlockSendOneRequest() throws Exception {
        MemoryRangeSource src = new MemoryRangeSource(data).delayMs(50);
        ByteRangeConfig cfg = config(4096, 16, 0);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, cfg)) {
            long before = src.stats().gets();
            ExecutorService pool = Executors.newFixedThreadPool(6);
            try {
                List<Future<byte[]>> fs = new ArrayList<>();
                for (int t = 0; t < 6; t++) {
                    fs.add(pool.submit(() -> {
                        byte[] b = new byte[100];
                        raf.readAt(50_000, b, 0, 100);
                        return b;
                    }));
                }
                for (Future<byte[]> f : fs) {
                    assertArrayEquals(Arrays.copyOfRange(data, 50_000, 50_100), f.get());
                }
            } finally {
                pool.shutdownNow();
            }
            assertEquals(1, src.stats().gets() - before);
        }
    }

    @Test
    void sequentialReadsGrowTheReadAheadWindow() throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        ByteRangeConfig cfg = config(1024, 64, 8);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, cfg)) {
            byte[] all = new byte[SIZE];
            byte[] piece = new byte[1000];
            for (int pos = 0; pos < SIZE; pos += piece.length) {
                int n = Math.min(piece.length, SIZE - pos);
                raf.readFully(piece, 0, n);
                System.arraycopy(piece, 0, all, pos, n);
            }
            assertArrayEquals(data, all);
            int blocks = (SIZE + 1023) / 1024;
            // 1, 2, 4, 8, 8, ... blocks appended per miss: far fewer requests than blocks
            assertTrue(src.stats().gets() < blocks / 6, src.stats().gets() + " requests for " + blocks + " blocks");
            assertTrue(raf.cacheStats().readAheadBlocks() > blocks / 2);
            assertEquals(SIZE, src.stats().bytes(), "nothing fetched twice or past the end");
        }
    }

    @Test
    void randomReadsDoNotReadAhead() throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        ByteRangeConfig cfg = config(1024, 64, 8);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, cfg)) {
            Random r = new Random(5);
            byte[] b = new byte[10];
            for (int i = 0; i < 50; i++) {
                raf.readAt(r.nextInt(SIZE - 10), b, 0, 10);
                raf.seek(r.nextInt(SIZE - 10));
                raf.readFully(b);
            }
            assertEquals(0, raf.cacheStats().readAheadBlocks());
        }
    }

    @Test
    void largeReadsBypassTheCacheInOneRequest() throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        ByteRangeConfig cfg = config(1024, 64, 8).withMaxRequestBytes(1 << 20);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, cfg)) {
            int cachedBefore = raf.cacheStats().cachedBlocks();
            long getsBefore = src.stats().gets();
            byte[] b = new byte[100_000];
            raf.seek(7);
            raf.readFully(b);
            assertArrayEquals(Arrays.copyOfRange(data, 7, 100_007), b);
            assertEquals(1, raf.cacheStats().directReads());
            assertTrue(src.stats().gets() - getsBefore <= 2, "one direct request (plus the buffer refill)");
            assertTrue(raf.cacheStats().cachedBlocks() <= cachedBefore + 2);
        }
    }

    @Test
    void readToByteChannelCopiesThroughTheCache() throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, config(4096, 8, 4))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertEquals(150_000, raf.readToByteChannel(Channels.newChannel(out), 1234, 150_000));
            assertArrayEquals(Arrays.copyOfRange(data, 1234, 151_234), out.toByteArray());
            out.reset();
            assertEquals(3, raf.readToByteChannel(Channels.newChannel(out), SIZE - 3, 100));
        }
    }

    @Test
    void shortReadsInsideTheObjectAreErrorsNeverZeros() throws IOException {
        // the source claims 200003 bytes but holds 150000: reads past 150000 come back short
        byte[] partial = Arrays.copyOf(data, 150_000);
        for (int blockSize : new int[] {1, 1000, 4096, 65536}) {
            MemoryRangeSource src = new MemoryRangeSource(partial, SIZE);
            try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, config(blockSize, 8, 4))) {
                byte[] b = new byte[2000];
                IOException e = assertThrows(
                        IOException.class,
                        () -> {
                            raf.seek(149_000);
                            raf.readFully(b);
                        },
                        "blockSize " + blockSize);
                assertFalse(e instanceof EOFException, "a short read inside the object is not an end of file");
                assertTrue(
                        e.getMessage().contains("short read") && e.getMessage().contains("mem://test"), e.getMessage());
                byte[] c = new byte[60_000];
                assertThrows(IOException.class, () -> raf.readAt(120_000, c, 0, c.length));
            }
        }
    }

    @Test
    void shortReadOverHttpIsAnError() {
        server.truncate(true);
        ByteRangeConfig cfg = config(4096, 8, 4).withRetries(1, Duration.ofMillis(1));
        try {
            IOException e = assertThrows(IOException.class, () -> ByteRangeFiles.openRaf(server.uri("/data.bin"), cfg));
            assertTrue(e.getMessage().contains(server.url("/data.bin")), e.getMessage());
        } finally {
            server.reset();
        }
    }

    @Test
    void closedFileRefusesReads() throws IOException {
        MemoryRangeSource src = new MemoryRangeSource(data);
        BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(src, config(4096, 8, 4));
        raf.close();
        raf.close();
        assertThrows(IOException.class, () -> raf.readAt(0, new byte[1], 0, 1));
        assertThrows(IOException.class, raf::duplicate);
        assertTrue(src.isClosed());
    }

    @Test
    void configurationFromProperties() {
        java.util.Properties p = new java.util.Properties();
        p.setProperty("nczarr.bytes.blockSize", "64k");
        p.setProperty("nczarr.bytes.cacheBlocks", "10");
        p.setProperty("nczarr.bytes.readAhead", "0");
        p.setProperty("nczarr.bytes.timeout", "1500ms");
        p.setProperty("nczarr.bytes.connectTimeout", "3");
        p.setProperty("nczarr.bytes.wholeObjectLimit", "1m");
        ByteRangeConfig c = ByteRangeConfig.from(p);
        assertEquals(65536, c.blockSize());
        assertEquals(10, c.cacheBlocks());
        assertEquals(0, c.readAheadBlocks());
        assertEquals(Duration.ofMillis(1500), c.requestTimeout());
        assertEquals(Duration.ofSeconds(3), c.connectTimeout());
        assertEquals(1 << 20, c.wholeObjectLimit());
        assertEquals(ByteRangeConfig.DEFAULT_MAX_RETRIES, c.maxRetries());
        p.setProperty("nczarr.bytes.blockSize", "lots");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ByteRangeConfig.from(p));
        assertTrue(e.getMessage().contains("nczarr.bytes.blockSize"), e.getMessage());
        p.setProperty("nczarr.bytes.blockSize", "0");
        assertThrows(IllegalArgumentException.class, () -> ByteRangeConfig.from(p));
    }
}
