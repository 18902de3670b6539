package io.nczarr.store;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RunnableFuture;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that fetch and decode chunks, and prefetch metadata, in parallel: one decode pool
 * (decoding is CPU bound, so one thread per core by default and at most that many decoded chunks
 * in memory per read) and one request pool for latency-bound remote stores. Both are bounded, made
 * on first use, let idle threads end, and are shut down by {@link #close()}; whoever made the pool
 * owns it (a host such as THREDDS can size and stop it through the options it passes in).
 *
 * <p>A store that asks for {@code n > 1} requests in flight ({@link Store#preferredConcurrency()})
 * gets the request pool limited to {@code n} tasks of that read at once, so different concurrency
 * values share one pool instead of one pool each.
 */
public final class ReadPool implements AutoCloseable {
    private static final long IDLE_SECONDS = 30;

    private final int decodeThreads;
    private final int requestThreads;
    private final int fragmentThreads;
    private final String name;
    private ExecutorService decode;
    private ExecutorService fragments;
    private ExecutorService requests;
    private boolean closed;

    /**
     * @param decodeThreads threads of the CPU-bound pool (at least 1)
     * @param requestThreads threads of the request pool, the most requests in flight over all reads (at least 1)
     */
    public ReadPool(int decodeThreads, int requestThreads) {
        this(decodeThreads, requestThreads, "nczarr");
    }

    public ReadPool(int decodeThreads, int requestThreads, String name) {
        this(decodeThreads, requestThreads, Math.min(requestThreads, DEFAULT_FRAGMENT_THREADS), name);
    }

    /**
     * @param fragmentThreads threads of the aggregation pool: the most fragments of aggregations read at
     *     once (each fragment read may use the other two pools, so this is a pool of its own)
     */
    public ReadPool(int decodeThreads, int requestThreads, int fragmentThreads, String name) {
        if (decodeThreads < 1 || requestThreads < 1 || fragmentThreads < 1) {
            throw new IllegalArgumentException("thread counts must be at least 1: decode " + decodeThreads
                    + ", requests " + requestThreads + ", fragments " + fragmentThreads);
        }
        this.fragmentThreads = fragmentThreads;
        this.decodeThreads = decodeThreads;
        this.requestThreads = requestThreads;
        this.name = name;
    }

    public int decodeThreads() {
        return decodeThreads;
    }

    public int requestThreads() {
        return requestThreads;
    }

    /** Default size of the aggregation pool. */
    public static final int DEFAULT_FRAGMENT_THREADS = 16;

    public int fragmentThreads() {
        return fragmentThreads;
    }

    /**
     * The pool that reads the fragments of aggregations (CF-1.13, CFA) in parallel: bounded, separate
     * from the decode and request pools a fragment's own read may wait on, so it cannot starve them.
     */
    public synchronized ExecutorService fragmentPool() {
        checkOpen();
        if (fragments == null) {
            fragments = create(name + "-fragment-", fragmentThreads);
        }
        return fragments;
    }

    /** The CPU-bound pool. */
    public synchronized ExecutorService decodePool() {
        checkOpen();
        if (decode == null) {
            decode = create(name + "-decode-", decodeThreads);
        }
        return decode;
    }

    private synchronized ExecutorService requestPool() {
        checkOpen();
        if (requests == null) {
            requests = create(name + "-io-", requestThreads);
        }
        return requests;
    }

    /**
     * The executor for one store's reads: {@code null} (the calling thread, one chunk at a time) when
     * it asks for 1, the decode pool when it asks for 0, else the request pool limited to as many
     * tasks in flight as the store asks for (and at most the pool's size).
     */
    public ExecutorService forStore(Store store) {
        return forStore(store, 0, Long.MAX_VALUE);
    }

    /**
     * As {@link #forStore(Store)}, with no more tasks in flight on the request pool than fit in {@code
     * inFlightBytes} when each holds {@code taskBytes} (a fetched object and its decoded chunk), but at least
     * {@link #MIN_IN_FLIGHT}: many small chunks get the store's whole concurrency, a few large ones only what
     * the memory budget allows.
     */
    public ExecutorService forStore(Store store, long taskBytes, long inFlightBytes) {
        int n = store.preferredConcurrency();
        if (n <= 0) {
            return decodePool();
        }
        if (n == 1) {
            return null;
        }
        if (taskBytes > 0) {
            n = (int) Math.max(MIN_IN_FLIGHT, Math.min(n, inFlightBytes / taskBytes));
        }
        return new LimitedExecutor(requestPool(), Math.min(n, requestThreads));
    }

    /** Remote reads keep at least this many requests in flight, whatever the chunk size. */
    public static final int MIN_IN_FLIGHT = 2;

    /**
     * Stops the pools: running tasks finish, queued tasks are dropped (their futures cancelled, so nobody
     * waits for them); later use is an error.
     */
    @Override
    public synchronized void close() {
        closed = true;
        for (ExecutorService pool : new ExecutorService[] {decode, requests, fragments}) {
            if (pool != null) {
                for (Runnable dropped : pool.shutdownNow()) {
                    if (dropped instanceof java.util.concurrent.Future<?> f) {
                        f.cancel(false);
                    }
                }
            }
        }
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the read pool " + name + " is closed");
        }
    }

    private static ExecutorService create(String prefix, int n) {
        AtomicInteger count = new AtomicInteger();
        ThreadPoolExecutor pool =
                new ThreadPoolExecutor(n, n, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                    Thread t = new Thread(r, prefix + count.incrementAndGet());
                    t.setDaemon(true);
                    return t;
                }) {
                    // futures that complete whatever the task throws and whose get() never waits forever
                    @Override
                    protected <T> RunnableFuture<T> newTaskFor(Callable<T> callable) {
                        return new SelfRunningTask<>(callable);
                    }

                    @Override
                    protected <T> RunnableFuture<T> newTaskFor(Runnable runnable, T value) {
                        return new SelfRunningTask<>(runnable, value);
                    }
                };
        // an idle library holds no threads
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
