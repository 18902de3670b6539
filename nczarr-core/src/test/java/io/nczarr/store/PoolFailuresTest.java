package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool task never leaves its caller waiting (issue 21, finding 7): whatever the task throws, whether or not
 * its pool can run it. Each case hung forever before.
 */
@Timeout(30)
class PoolFailuresTest {

    @Test
    void aTaskThatThrowsOutOfMemoryCompletesItsFuture() throws Exception {
        try (ReadPool pool = new ReadPool(2, 4, "t")) {
            Future<Object> f = pool.decodePool().submit(() -> {
                throw new OutOfMemoryError("test: Java heap space");
            });
            ExecutionException e = assertThrows(ExecutionException.class, f::get);
            assertInstanceOf(OutOfMemoryError.class, e.getCause());
        }
    }

    @Test
    void aTaskItsPoolDropsIsRunByTheThreadWaitingForIt() throws Exception {
        // a pool whose threads are gone: accepts tasks, never runs them
        Executor dropping = task -> {};
        LimitedExecutor limited = new LimitedExecutor(dropping, 2);
        Future<String> f = limited.submit(() -> "done");
        long start = System.nanoTime();
        assertEquals("done", f.get());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10));
    }

    @Test
    void aPoolThatCannotStartAThreadDoesNotBlockLaterTasks() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        // the first dispatch fails as a JVM out of native threads does, later ones run
        Executor flaky = task -> {
            if (calls.getAndIncrement() == 0) {
                throw new OutOfMemoryError("test: unable to create native thread");
            }
            new Thread(task).start();
        };
        LimitedExecutor limited = new LimitedExecutor(flaky, 1);
        assertThrows(OutOfMemoryError.class, () -> limited.submit(() -> "first"));
        // the failed dispatch gave its slot back: the next task runs instead of queueing forever
        assertEquals("second", limited.submit(() -> "second").get(10, TimeUnit.SECONDS));
    }

    @Test
    void closingThePoolCancelsQueuedTasks() throws Exception {
        ReadPool pool = new ReadPool(1, 1, "t");
        ExecutorService decode = pool.decodePool();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        decode.submit(() -> {
            running.countDown();
            release.await();
            return null;
        });
        running.await();
        Future<String> queued = decode.submit(() -> "never");
        pool.close();
        release.countDown();
        assertThrows(CancellationException.class, queued::get);
    }

    @Test
    void anOutOfMemoryErrorBecomesTheLimitsRefusal() {
        ByteLimit budget = MemoryLimits.forHeap(256L << 20).metadata();
        OutOfMemoryError oom = new OutOfMemoryError("Java heap space");
        LimitExceededException e = PoolFailures.outOfMemory("ds", null, null, "reading the metadata", budget, oom);
        assertEquals(MemoryLimits.MAX_METADATA_BYTES, e.property());
        assertTrue(e.getMessage().startsWith("ds: reading the metadata ran out of Java heap"), e.getMessage());
        assertTrue(e.getMessage().contains(MemoryLimits.MAX_METADATA_BYTES + "=" + budget.bytes()), e.getMessage());
        assertEquals(null, PoolFailures.outOfMemoryIn(e), "no Error in the cause chain");
        assertEquals(oom, e.getSuppressed()[0]);
    }
}
