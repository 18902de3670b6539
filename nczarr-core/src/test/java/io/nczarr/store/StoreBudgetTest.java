package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every store honours the memory limit of a whole-object read, before it allocates, and says which property to raise. */
class StoreBudgetTest {

    @TempDir
    static Path tmp;

    /** The contract's stores, written to this class's folder (the contract's own is set up for it only). */
    static Stream<StoreContractTest.Case> stores() throws IOException {
        StoreContractTest.tmp = tmp;
        return StoreContractTest.stores();
    }

    /** "v/0" holds 8 bytes in every contract store. */
    private static final ByteLimit SEVEN = new ByteLimit(MemoryLimits.MAX_METADATA_BYTES, 7);

    private static final ByteLimit EIGHT = new ByteLimit(MemoryLimits.MAX_METADATA_BYTES, 8);

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anObjectOverTheLimitIsRefusedNamingTheProperty(StoreContractTest.Case c) throws IOException {
        try (Store s = c.factory().open()) {
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("v/0", SEVEN));
            assertEquals("v/0", e.key());
            assertEquals(s.location(), e.dataset());
            assertEquals(MemoryLimits.MAX_METADATA_BYTES, e.property());
            assertEquals(7, e.limit());
            assertTrue(e.getMessage().contains(MemoryLimits.MAX_METADATA_BYTES + "=7"), e.getMessage());
        }
    }

    /** The reads into a caller's buffer keep the store's object limit, checked before a buffer is asked for. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("storesOfSevenBytes")
    void aReadIntoBuffersIsRefusedBeforeTheBufferIsAsked(StoreContractTest.Case c) throws IOException {
        try (Store s = c.factory().open()) {
            List<Integer> asked = new java.util.ArrayList<>();
            LimitExceededException e = assertThrows(
                    LimitExceededException.class,
                    () -> s.get("v/0", n -> {
                        asked.add(n);
                        return java.nio.ByteBuffer.allocate(n);
                    }));
            assertEquals("v/0", e.key());
            assertEquals(MemoryLimits.MAX_OBJECT_BYTES, e.property());
            assertEquals(List.of(), asked);
            assertArrayEquals(
                    StoreContractTest.OBJECTS.get(".zattrs"),
                    java.util.Arrays.copyOf(
                            s.get(".zattrs", java.nio.ByteBuffer::allocate)
                                    .orElseThrow()
                                    .array(),
                            2));
        }
    }

    /** The directory and S3 stores (the two that read into given buffers) with an object limit of 7 bytes. */
    static Stream<StoreContractTest.Case> storesOfSevenBytes() throws IOException {
        StoreContractTest.tmp = tmp;
        Path dir = StoreContractTest.writeDirectory(tmp.resolve("seven.file"));
        StoreResources seven = new StoreResources(
                TestStores.S3_CLIENTS,
                io.nczarr.s3.AwsEnvironment.system(),
                MemoryLimits.defaults().withMaxObjectBytes(7),
                false,
                () -> TestStores.HTTP_CLIENT);
        io.nczarr.testkit.s3.LocalS3 s3 = io.nczarr.testkit.s3.LocalS3.get();
        s3.upload(dir, "contract", "seven/dir.file");
        return Stream.of(
                new StoreContractTest.Case("directory", () -> new DirectoryStore(dir, 7)),
                new StoreContractTest.Case(
                        "s3 (loopback server)",
                        () -> Stores.open(
                                io.nczarr.url.DatasetUrl.parse(s3.signedUrl("contract", "seven/dir.file", "nczarr,s3")),
                                seven)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void anObjectAtTheLimitReads(StoreContractTest.Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertArrayEquals(
                    StoreContractTest.OBJECTS.get("v/0"), s.get("v/0", EIGHT).orElseThrow());
            assertEquals(0, s.get("g/empty", SEVEN).orElseThrow().length);
            assertTrue(s.get("v/9", SEVEN).isEmpty(), "missing stays missing under a limit");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void aBoundedViewAppliesItsLimitToPlainGets(StoreContractTest.Case c) throws IOException {
        try (Store s = c.factory().open()) {
            Store view = Stores.bounded(s, SEVEN);
            assertEquals(s.location(), view.location());
            assertThrows(LimitExceededException.class, () -> view.get("v/0"));
            assertArrayEquals(new byte[] {3, 4}, view.getRange("v/0", 2, 2).orElseThrow());
            if (c.lists()) {
                assertEquals(s.list("v"), view.list("v"));
            }
            view.close();
            assertArrayEquals(
                    StoreContractTest.OBJECTS.get("v/0"), s.get("v/0").orElseThrow(), "the view does not own");
        }
    }

    @Test
    void aStoreWrittenElsewhereIsCheckedAfterItsGet() throws IOException {
        Store foreign = new Store() {
            @Override
            public String location() {
                return "foreign";
            }

            @Override
            public Optional<byte[]> get(String key) {
                return Optional.of(new byte[8]);
            }

            @Override
            public Optional<byte[]> getRange(String key, long offset, int length) {
                return Optional.empty();
            }

            @Override
            public List<String> list(String prefix) {
                return List.of();
            }

            @Override
            public void close() {}
        };
        LimitExceededException e = assertThrows(LimitExceededException.class, () -> foreign.get("k", SEVEN));
        assertEquals("foreign", e.dataset());
        assertEquals(8, foreign.get("k", EIGHT).orElseThrow().length);
    }

    @Test
    void defaultsScaleWithTheHeap() {
        long mib = 1L << 20;
        MemoryLimits small = MemoryLimits.forHeap(256 * mib);
        assertEquals(64 * mib, small.maxObjectBytes());
        assertEquals(32 * mib, small.maxChunkBytes());
        assertEquals(16 * mib, small.maxMetadataBytes());
        assertEquals(128 * mib, small.maxReadBytes());
        MemoryLimits large = MemoryLimits.forHeap(64L << 30);
        assertEquals(1L << 30, large.maxObjectBytes());
        assertEquals(1L << 30, large.maxChunkBytes());
        assertEquals(64 * mib, large.maxMetadataBytes());
        assertEquals(32L << 30, large.maxReadBytes());
        MemoryLimits unlimited = MemoryLimits.forHeap(Long.MAX_VALUE);
        assertEquals(1L << 30, unlimited.maxObjectBytes());
        assertTrue(
                MemoryLimits.defaults().maxReadBytes() <= Runtime.getRuntime().maxMemory());
    }

    @Test
    void theMetadataLimitIsNeverLooserThanTheObjectLimit() {
        MemoryLimits l = new MemoryLimits(1000, 5000, 2000, 10_000);
        assertEquals(new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, 1000), l.metadata());
        assertEquals(
                new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, 600),
                l.withMaxObjectBytes(600).metadata());
        assertEquals(
                new ByteLimit(MemoryLimits.MAX_METADATA_BYTES, 2000),
                new MemoryLimits(3000, 5000, 2000, 10_000).metadata());
    }

    @Test
    void oneArrayLimitsStayBelowTwoGibibytes() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> new MemoryLimits(1L << 31, 1, 1, 1));
        assertTrue(e.getMessage().contains(MemoryLimits.MAX_OBJECT_BYTES), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new MemoryLimits(1, 0, 1, 1));
        assertEquals(1L << 40, new MemoryLimits(1, 1, 1, 1L << 40).maxReadBytes(), "a read result may be larger");
    }

    @Test
    void theMessageSaysTheSizeTheLimitAndTheProperty() {
        LimitExceededException e = new ByteLimit(MemoryLimits.MAX_CHUNK_BYTES, 1L << 20)
                .exceeded("ds", "v/0", "v", "one decoded chunk", 3L << 30);
        assertEquals(
                "ds: v/0: variable 'v': one decoded chunk needs 3221225472 bytes (3.0 GiB), more than the limit of"
                        + " 1048576 bytes (1.0 MiB) set by nczarr.limits.maxChunkBytes=1048576 (raise that system"
                        + " property to allow it)",
                e.getMessage());
        LimitExceededException w = e.withContext("other", "x", "y");
        assertEquals(e.getMessage(), w.getMessage());
        assertEquals(MemoryLimits.MAX_CHUNK_BYTES, w.property());
        assertEquals(3L << 30, w.size());
        LimitExceededException unknown =
                new ByteLimit(MemoryLimits.MAX_OBJECT_BYTES, 10).exceeded(null, "k", null, "object", -1);
        assertEquals(
                "k: object needs more than the limit of 10 bytes set by nczarr.limits.maxObjectBytes=10 (raise"
                        + " that system property to allow it)",
                unknown.getMessage());
    }
}
