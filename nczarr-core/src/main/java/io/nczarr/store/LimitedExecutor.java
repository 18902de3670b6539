package io.nczarr.store;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Runs tasks on a shared executor with at most {@code limit} of them running at once; the rest wait
 * here, in order. Lets one read ask for its own number of requests in flight on a pool shared by all
 * reads. Shutting it down does not shut down the shared executor.
 */
final class LimitedExecutor extends AbstractExecutorService {
    private final Executor target;
    private final int limit;
    private final Queue<Runnable> waiting = new ArrayDeque<>();
    private int running;
    private boolean shutdown;

    LimitedExecutor(Executor target, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, not " + limit);
        }
        this.target = target;
        this.limit = limit;
    }

    @Override
    public void execute(Runnable task) {
        synchronized (this) {
            if (shutdown) {
                throw new java.util.concurrent.RejectedExecutionException("shut down");
            }
            if (running >= limit) {
                waiting.add(task);
                return;
            }
            running++;
        }
        submitToTarget(task);
    }

    private void submitToTarget(Runnable task) {
        try {
            target.execute(() -> {
                try {
                    task.run();
                } finally {
                    next();
                }
            });
        } catch (RuntimeException | Error e) {
            // not dispatched (the pool is shut down or could not start a thread): the slot is free again
            synchronized (this) {
                running--;
                notifyAll();
            }
            throw e;
        }
    }

    private void next() {
        Runnable task;
        synchronized (this) {
            task = waiting.poll();
            if (task == null) {
                running--;
                notifyAll();
                return;
            }
        }
        try {
            submitToTarget(task);
        } catch (RuntimeException | Error e) {
            // a task that cannot be dispatched (and the ones queued behind it) are left to the threads
            // waiting for them: PoolFailures.await runs a task that does not start
        }
    }

    // futures that complete whatever the task throws and whose get() never waits forever (SelfRunningTask)

    @Override
    public <T> java.util.concurrent.Future<T> submit(java.util.concurrent.Callable<T> task) {
        SelfRunningTask<T> f = new SelfRunningTask<>(java.util.Objects.requireNonNull(task, "task"));
        execute(f);
        return f;
    }

    @Override
    public <T> java.util.concurrent.Future<T> submit(Runnable task, T result) {
        SelfRunningTask<T> f = new SelfRunningTask<>(java.util.Objects.requireNonNull(task, "task"), result);
        execute(f);
        return f;
    }

    @Override
    public java.util.concurrent.Future<?> submit(Runnable task) {
        return submit(task, null);
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        List<Runnable> dropped = List.copyOf(waiting);
        waiting.clear();
        return dropped;
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && running == 0 && waiting.isEmpty();
    }

    @Override
    public synchronized boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (!isTerminated()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }
}
