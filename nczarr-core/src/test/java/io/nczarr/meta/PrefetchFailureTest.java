package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.store.MemoryStore;
import io.nczarr.store.Store;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The metadata walk never waits forever for a prefetch (issue 21, finding 7: {@code nczarr ls} of 50,000 arrays
 * at -Xmx128m hung when the prefetch threads died of OutOfMemoryError).
 */
@Timeout(30)
class PrefetchFailureTest {

    /** A remote-like store (requests in flight): the reader waits for prefetched objects instead of reading them. */
    private static Store remote(Store s, boolean outOfMemory) {
        return new Store() {
            @Override
            public String location() {
                return s.location();
            }

            @Override
            public Optional<byte[]> get(String key) throws IOException {
                if (outOfMemory && key.startsWith("a")) {
                    throw new OutOfMemoryError("test: Java heap space");
                }
                return s.get(key);
            }

            @Override
            public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
                return s.getRange(key, offset, length);
            }

            @Override
            public List<String> list(String prefix) throws IOException {
                return s.list(prefix);
            }

            @Override
            public int preferredConcurrency() {
                return 8;
            }

            @Override
            public void close() {}
        };
    }

    private static Store objects() {
        return new MemoryStore(
                "mem",
                Map.of(
                        "a/zarr.json", "{\"x\": 1}".getBytes(StandardCharsets.UTF_8),
                        "b/zarr.json", "{\"y\": 2}".getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void anObjectWhosePrefetchNeverRunsIsReadByTheWalk() throws Exception {
        // the pool accepted the prefetches and lost them (its threads died)
        StoreMetadata meta = new StoreMetadata(remote(objects(), false), task -> {});
        meta.prefetch(List.of("a/zarr.json", "b/zarr.json"));
        assertEquals(1, meta.object("a/zarr.json").orElseThrow().get("x").asInt());
        assertEquals(2, meta.object("b/zarr.json").orElseThrow().get("y").asInt());
    }

    @Test
    void aPrefetchThatRunsOutOfMemoryFailsTheWalkInsteadOfHangingIt() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            StoreMetadata meta = new StoreMetadata(remote(objects(), true), pool);
            meta.prefetch(List.of("a/zarr.json", "b/zarr.json"));
            assertThrows(OutOfMemoryError.class, () -> meta.object("a/zarr.json"));
            assertTrue(meta.object("b/zarr.json").isPresent());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aPoolThatRefusesPrefetchesLeavesTheObjectsToTheWalk() throws Exception {
        StoreMetadata meta = new StoreMetadata(remote(objects(), false), task -> {
            throw new java.util.concurrent.RejectedExecutionException("shut down");
        });
        meta.prefetch(List.of("a/zarr.json", "b/zarr.json"));
        assertEquals(1, meta.object("a/zarr.json").orElseThrow().get("x").asInt());
    }
}
