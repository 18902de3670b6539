package io.nczarr.chunk;

import io.nczarr.error.ChunkException;
import io.nczarr.model.VarModel;
import io.nczarr.store.Store;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs the chunk tasks of one read: in the calling thread (no executor, or one task), shared between the
 * caller and a local pool ({@link SharedTasks}), or on the request pool of a remote store; the first failure
 * cancels the rest and is thrown as a serial read would have thrown it.
 */
final class ChunkTasks {
    private final ExecutorService executor;
    private final Store store;
    private final VarModel var;

    ChunkTasks(ExecutorService executor, Store store, VarModel var) {
        this.executor = executor;
        this.store = store;
        this.var = var;
    }

    /** Runs {@code tasks}, reporting each one done to {@code p} (may be null); the first failure is thrown. */
    void run(List<? extends Callable<Void>> tasks, ReadProgress p) throws IOException {
        AtomicLong done = new AtomicLong();
        long total = tasks.size();
        if (executor == null || tasks.size() == 1) {
            for (Callable<Void> t : tasks) {
                call(t);
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
            }
            return;
        }
        if (executor instanceof ThreadPoolExecutor pool && store.preferredConcurrency() <= 0) {
            // local: the caller and pool threads share the tasks, as many workers as the pool has threads
            Throwable failed = SharedTasks.run(tasks, pool, pool.getMaximumPoolSize() - 1, () -> {
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
            });
            if (failed != null) {
                throw rethrown(failed);
            }
            return;
        }
        List<Future<Void>> futures = new ArrayList<>(tasks.size());
        for (Callable<Void> t : tasks) {
            futures.add(executor.submit(() -> {
                t.call();
                if (p != null) {
                    p.chunksDone(var.name(), done.incrementAndGet(), total);
                }
                return null;
            }));
        }
        Throwable first = null;
        for (Future<Void> f : futures) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (first == null) {
                    first = e.getCause();
                    futures.forEach(x -> x.cancel(false));
                }
            } catch (InterruptedException e) {
                futures.forEach(x -> x.cancel(true));
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("read of " + var.name() + " interrupted");
            } catch (CancellationException e) {
                // cancelled after an earlier failure
            }
        }
        if (first != null) {
            throw rethrown(first);
        }
    }

    /**
     * A task's failure as this thread throws it: the same exception, as a serial read would have
     * thrown it (a task only throws IOExceptions, RuntimeExceptions and Errors).
     */
    private IOException rethrown(Throwable t) {
        if (t instanceof IOException io) {
            return io;
        }
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new ChunkException(store.location(), null, var.name(), "chunk read failed: " + t, t);
    }

    /** Runs a task in this thread, its failures as they are. */
    private static void call(Callable<Void> t) throws IOException {
        try {
            t.call();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new ChunkException(null, null, null, "chunk read failed: " + e, e);
        }
    }
}
