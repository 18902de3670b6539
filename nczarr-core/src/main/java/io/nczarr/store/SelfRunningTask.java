package io.nczarr.store;

import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;

/**
 * The future the read pools hand out for a submitted task: completes whatever the task throws ({@link
 * OutOfMemoryError} included), and {@link #get()} never waits forever for a task that does not start (its pool
 * lost its threads, could not start one, or dropped it): after {@link PoolFailures#STALL_MILLIS} the waiting
 * thread runs it itself.
 */
final class SelfRunningTask<T> extends FutureTask<T> {
    SelfRunningTask(Callable<T> callable) {
        super(callable);
    }

    SelfRunningTask(Runnable runnable, T result) {
        super(runnable, result);
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        try {
            return PoolFailures.await(this);
        } catch (java.io.InterruptedIOException e) {
            InterruptedException i = new InterruptedException(e.getMessage());
            i.initCause(e);
            throw i;
        }
    }
}
