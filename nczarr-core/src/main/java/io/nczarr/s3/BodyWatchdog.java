package io.nczarr.s3;

import io.nczarr.http.Deadline;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.http.Abortable;

/**
 * Aborts a response body that is still being read when its attempt's deadline passes. The SDK's
 * time-outs end when {@code getObject} returns the open stream, and the socket time-out only bounds
 * one read: a server that drips the body a byte at a time would hold the reader for ever.
 *
 * <p>One timer thread for the process, started on first use and ended after a minute without
 * watches: it holds no state of any dataset, only the pending aborts.
 */
final class BodyWatchdog {
    private static final ScheduledThreadPoolExecutor TIMER = timer();

    private BodyWatchdog() {}

    private static ScheduledThreadPoolExecutor timer() {
        ScheduledThreadPoolExecutor t = new ScheduledThreadPoolExecutor(1, r -> {
            Thread th = new Thread(r, "nczarr-s3-body-watchdog");
            th.setDaemon(true);
            return th;
        });
        // most watches end before their deadline: drop them at once rather than at the deadline
        t.setRemoveOnCancelPolicy(true);
        t.setKeepAliveTime(1, TimeUnit.MINUTES);
        t.allowCoreThreadTimeOut(true);
        return t;
    }

    /** Watches {@code body} until closed; aborts it if {@code deadline} passes first. */
    static Watch watch(Abortable body, Deadline deadline) {
        Watch w = new Watch(body);
        long nanos = deadline.remainingNanos();
        if (nanos == 0) {
            w.fire();
        } else {
            w.task = TIMER.schedule(w::fire, nanos, TimeUnit.NANOSECONDS);
        }
        return w;
    }

    /** One body under watch. */
    static final class Watch implements AutoCloseable {
        private final Abortable body;
        private final AtomicBoolean fired = new AtomicBoolean();
        private volatile ScheduledFuture<?> task;

        private Watch(Abortable body) {
            this.body = body;
        }

        private void fire() {
            fired.set(true);
            try {
                body.abort();
            } catch (RuntimeException e) {
                // the stream is broken either way; the reader sees the failure
            }
        }

        /** Whether the deadline passed and the body was aborted. */
        boolean fired() {
            return fired.get();
        }

        @Override
        public void close() {
            ScheduledFuture<?> t = task;
            if (t != null) {
                t.cancel(false);
            }
        }
    }
}
