package io.nczarr.chunk;

import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Runs a read's chunk tasks on the calling thread and a few pool threads together, each taking the next
 * task nobody has taken. For local stores: one submission per helper instead of one per chunk, and the
 * caller works instead of waiting, so a read of 100 small chunks costs no thread hop per chunk and a
 * busy pool cannot stall it.
 */
final class SharedTasks {
    private SharedTasks() {}

    /**
     * Runs every task unless one fails; returns the first failure ({@code null} when all succeeded), after
     * every task already started has ended. {@code afterEach} runs after each task that succeeded.
     *
     * @param helpers pool threads asked to help (at most one fewer than the tasks is useful)
     * @throws InterruptedIOException when the caller is interrupted while helpers still run tasks; the tasks
     *     not yet started are then skipped
     */
    static Throwable run(List<? extends Callable<Void>> tasks, Executor pool, int helpers, Runnable afterEach)
            throws InterruptedIOException {
        int n = tasks.size();
        AtomicInteger next = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // counts every task, run or skipped after a failure: zero when no helper is still inside one
        CountDownLatch ended = new CountDownLatch(n);
        Runnable work = () -> {
            for (int i = next.getAndIncrement(); i < n; i = next.getAndIncrement()) {
                try {
                    if (failure.get() == null) {
                        tasks.get(i).call();
                        afterEach.run();
                    }
                } catch (Exception | Error e) {
                    failure.compareAndSet(null, e);
                } finally {
                    ended.countDown();
                }
            }
        };
        for (int h = Math.min(helpers, n - 1); h > 0; h--) {
            try {
                pool.execute(work);
            } catch (RuntimeException | Error e) {
                // no helper to be had (the pool is shut down or cannot start a thread): fewer workers, same tasks
                break;
            }
        }
        work.run();
        try {
            ended.await();
        } catch (InterruptedException e) {
            failure.compareAndSet(null, e);
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("read interrupted");
        }
        return failure.get();
    }
}
