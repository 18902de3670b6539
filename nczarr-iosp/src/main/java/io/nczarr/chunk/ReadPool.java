package io.nczarr.chunk;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shared pool that decodes chunks in parallel: one daemon thread per core (decoding is CPU
 * bound), so at most that many decoded chunks are in memory per read at once.
 */
public final class ReadPool {
    private ReadPool() {
    }

    private static final class Holder {
        static final ExecutorService POOL = create();

        private static ExecutorService create() {
            int n = Integer.getInteger("nczarr.decodeThreads", Runtime.getRuntime().availableProcessors());
            AtomicInteger count = new AtomicInteger();
            return Executors.newFixedThreadPool(Math.max(1, n), r -> {
                Thread t = new Thread(r, "nczarr-decode-" + count.incrementAndGet());
                t.setDaemon(true);
                return t;
            });
        }
    }

    public static ExecutorService shared() {
        return Holder.POOL;
    }
}
