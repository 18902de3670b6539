package io.nczarr.store;

import io.nczarr.error.LimitExceededException;
import java.io.InterruptedIOException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for pool tasks without ever waiting forever. A {@link FutureTask} completes whatever its work
 * throws ({@link OutOfMemoryError} included, without allocating), but a task can also never start: its pool
 * lost its threads to an {@link OutOfMemoryError}, could not start one, or was shut down. {@link #await} then
 * runs the task on the waiting thread. {@link #outOfMemory} turns a heap exhausted in a pool thread into the
 * refusal a limit would have given, at the caller.
 */
public final class PoolFailures {
    /** How long a task may stay queued before the thread waiting for it runs it itself. */
    static final long STALL_MILLIS = 2000;

    private PoolFailures() {}

    /**
     * The task's result; runs it on this thread when it has not started within {@link #STALL_MILLIS}.
     *
     * @throws ExecutionException with what the task threw
     * @throws CancellationException when the task was cancelled (its pool was closed)
     * @throws InterruptedIOException when this thread is interrupted
     */
    public static <T> T await(FutureTask<T> task) throws ExecutionException, InterruptedIOException {
        while (true) {
            try {
                return task.get(STALL_MILLIS, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // not started yet: running it here is a no-op when another thread already runs it
                task.run();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a pool task");
            }
        }
    }

    /** Whether {@code t} or one of its causes is an {@link OutOfMemoryError}. */
    public static OutOfMemoryError outOfMemoryIn(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof OutOfMemoryError e) {
                return e;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }

    /**
     * The {@link LimitExceededException} for a heap exhausted while doing {@code what} for {@code dataset}:
     * names {@code budget}, the limit that bounds what each thread holds.
     */
    public static LimitExceededException outOfMemory(
            String dataset, String key, String variable, String what, ByteLimit budget, Throwable cause) {
        return LimitExceededException.outOfMemory(
                dataset, key, variable, what, budget.property(), budget.bytes(), cause);
    }
}
