package io.nczarr.store;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared pools that fetch and decode chunks, and prefetch metadata, in parallel. Local stores use one daemon thread
 * per core (decoding is CPU bound, so at most that many decoded chunks are in memory per read at
 * once). A remote store that asks for more requests in flight ({@link Store#preferredConcurrency()})
 * gets a shared pool of that many threads, so that round trips overlap.
 */
public final class ReadPool {
    private ReadPool() {
    }

    private static final Map<Integer, ExecutorService> IO_POOLS = new ConcurrentHashMap<>();

    private static final class Holder {
        static final ExecutorService POOL = create("nczarr-decode-",
                Integer.getInteger("nczarr.decodeThreads", Runtime.getRuntime().availableProcessors()));
    }

    private static ExecutorService create(String prefix, int n) {
        AtomicInteger count = new AtomicInteger();
        return Executors.newFixedThreadPool(Math.max(1, n), r -> {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    /** The CPU-bound pool: one thread per core ({@code -Dnczarr.decodeThreads}). */
    public static ExecutorService shared() {
        return Holder.POOL;
    }

    /**
     * The executor for a store's chunk reads: {@code null} (the calling thread, one chunk at a
     * time) when it asks for 1, the per-core pool when it asks for 0, else a shared pool of that
     * many threads.
     */
    public static ExecutorService forStore(Store store) {
        int n = store.preferredConcurrency();
        if (n <= 0) {
            return shared();
        }
        if (n == 1) {
            return null;
        }
        return IO_POOLS.computeIfAbsent(n, k -> create("nczarr-io" + k + "-", k));
    }
}
