package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadPoolTest {

    /** A store that only states how many requests it wants in flight. */
    private static Store wanting(int concurrency) {
        return new Store() {
            @Override
            public String location() {
                return "test";
            }

            @Override
            public Optional<byte[]> get(String key) {
                return Optional.empty();
            }

            @Override
            public Optional<byte[]> getRange(String key, long offset, int length) {
                return Optional.empty();
            }

            @Override
            public List<String> list(String prefix) {
                return List.of();
            }

            @Override
            public int preferredConcurrency() {
                return concurrency;
            }

            @Override
            public void close() {}
        };
    }

    @Test
    void executorFollowsWhatTheStoreAsksFor() {
        try (ReadPool pool = new ReadPool(2, 8, "t")) {
            assertSame(pool.decodePool(), pool.forStore(wanting(0)), "local stores decode on the CPU pool");
            assertNull(pool.forStore(wanting(1)), "1 = the calling thread");
            assertTrue(pool.forStore(wanting(4)) instanceof LimitedExecutor);
        }
    }

    @Test
    void eachReadGetsAtMostItsConcurrencyOnTheSharedRequestPool() throws Exception {
        try (ReadPool pool = new ReadPool(1, 16, "t")) {
            ExecutorService three = pool.forStore(wanting(3));
            ExecutorService five = pool.forStore(wanting(5));
            Gate gate = new Gate();
            AtomicInteger inThree = new AtomicInteger();
            AtomicInteger inFive = new AtomicInteger();
            AtomicInteger peakThree = new AtomicInteger();
            AtomicInteger peakFive = new AtomicInteger();
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                all.add(three.submit(() -> gate.hold(inThree, peakThree)));
                all.add(five.submit(() -> gate.hold(inFive, peakFive)));
            }
            // tasks wait at the gate: each read fills exactly its own limit, never more
            gate.awaitRunning(inThree, 3);
            gate.awaitRunning(inFive, 5);
            Thread.sleep(50); // room for a task over the limit to show up
            assertEquals(3, inThree.get());
            assertEquals(5, inFive.get());
            gate.open();
            for (Future<?> f : all) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertEquals(3, peakThree.get());
            assertEquals(5, peakFive.get());
        }
    }

    @Test
    void largeChunksGetOnlyWhatTheInFlightBudgetHolds() throws Exception {
        try (ReadPool pool = new ReadPool(1, 64, "t")) {
            // 8 MB per task in a 32 MB budget: 4 in flight of the 64 the store asks for
            assertEquals(4, peakOf(pool.forStore(wanting(64), 8 << 20, 32 << 20), 4));
            // small chunks: the store's concurrency
            assertEquals(6, peakOf(pool.forStore(wanting(6), 800, 32 << 20), 6));
            // a task larger than the whole budget: still the floor, never a stall
            assertEquals(ReadPool.MIN_IN_FLIGHT, peakOf(pool.forStore(wanting(64), 1L << 40, 32 << 20), 2));
        }
    }

    /** The most tasks that ran at once out of 20, once {@code expected} are seen running at the gate. */
    private static int peakOf(ExecutorService executor, int expected) throws Exception {
        Gate gate = new Gate();
        AtomicInteger in = new AtomicInteger();
        AtomicInteger peak = new AtomicInteger();
        List<Future<?>> all = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            all.add(executor.submit(() -> gate.hold(in, peak)));
        }
        gate.awaitRunning(in, expected);
        Thread.sleep(50); // room for a task over the limit to show up
        gate.open();
        for (Future<?> f : all) {
            f.get(30, TimeUnit.SECONDS);
        }
        return peak.get();
    }

    @Test
    void aStoreAskingForMoreThanThePoolHasGetsThePool() throws Exception {
        try (ReadPool pool = new ReadPool(1, 2, "t")) {
            ExecutorService many = pool.forStore(wanting(64));
            Gate gate = new Gate();
            AtomicInteger in = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            List<Future<?>> all = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                all.add(many.submit(() -> gate.hold(in, peak)));
            }
            gate.awaitRunning(in, 2);
            Thread.sleep(50);
            assertEquals(2, in.get());
            gate.open();
            for (Future<?> f : all) {
                f.get(30, TimeUnit.SECONDS);
            }
            assertEquals(2, peak.get());
        }
    }

    @Test
    void closeStopsThePoolsAndLaterUseIsAnError() throws Exception {
        ReadPool pool = new ReadPool(1, 1, "t");
        ExecutorService decode = pool.decodePool();
        CountDownLatch ran = new CountDownLatch(1);
        decode.execute(ran::countDown);
        assertTrue(ran.await(10, TimeUnit.SECONDS));
        pool.close();
        assertTrue(decode.awaitTermination(10, TimeUnit.SECONDS));
        assertTrue(pool.isClosed());
        assertThrows(IllegalStateException.class, pool::decodePool);
        pool.close();
    }

    @Test
    void threadCountsMustBePositive() {
        assertThrows(IllegalArgumentException.class, () -> new ReadPool(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ReadPool(1, 0));
    }

    /** Holds tasks until opened, so that how many run at once does not depend on timing. */
    private static final class Gate {
        private final CountDownLatch open = new CountDownLatch(1);

        void hold(AtomicInteger in, AtomicInteger peak) {
            peak.accumulateAndGet(in.incrementAndGet(), Math::max);
            try {
                open.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                in.decrementAndGet();
            }
        }

        void awaitRunning(AtomicInteger in, int n) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (in.get() < n && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(n, in.get(), "tasks running at once");
        }

        void open() {
            open.countDown();
        }
    }
}
