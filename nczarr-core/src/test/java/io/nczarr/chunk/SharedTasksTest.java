package io.nczarr.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class SharedTasksTest {
    private static final ExecutorService POOL = Executors.newFixedThreadPool(3);

    @AfterAll
    static void stop() {
        POOL.shutdownNow();
    }

    @Test
    void everyTaskRunsOnceWhateverTheHelpers() throws Exception {
        for (int helpers : new int[] {0, 1, 3, 50}) {
            AtomicIntegerArray runs = new AtomicIntegerArray(500);
            List<Callable<Void>> tasks = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                int k = i;
                tasks.add(() -> {
                    runs.incrementAndGet(k);
                    return null;
                });
            }
            AtomicInteger after = new AtomicInteger();
            assertNull(SharedTasks.run(tasks, POOL, helpers, after::incrementAndGet));
            for (int i = 0; i < 500; i++) {
                assertEquals(1, runs.get(i), "task " + i + " with " + helpers + " helpers");
            }
            assertEquals(500, after.get());
        }
    }

    @Test
    void aPoolThatNeverRunsAnythingDoesNotStallTheCaller() throws Exception {
        List<Runnable> dropped = new ArrayList<>();
        AtomicInteger n = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            tasks.add(() -> {
                n.incrementAndGet();
                return null;
            });
        }
        assertNull(SharedTasks.run(tasks, dropped::add, 4, () -> {}));
        assertEquals(20, n.get());
        assertEquals(4, dropped.size());
        dropped.forEach(Runnable::run); // late helpers find nothing left to do
        assertEquals(20, n.get());
    }

    @Test
    void theFirstFailureIsReturnedAndLaterTasksAreSkipped() throws Exception {
        IOException boom = new IOException("chunk 3");
        AtomicInteger ran = new AtomicInteger();
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            int k = i;
            tasks.add(() -> {
                ran.incrementAndGet();
                if (k == 3) {
                    throw boom;
                }
                return null;
            });
        }
        // no helpers: the order is the caller's, so everything after the failure is skipped
        assertSame(boom, SharedTasks.run(tasks, POOL, 0, () -> {}));
        assertEquals(4, ran.get());
        ran.set(0);
        assertSame(boom, SharedTasks.run(tasks, POOL, 2, () -> {}));
        assertTrue(ran.get() < 1000, "tasks after the failure are skipped: " + ran.get());
    }

    @Test
    void errorsAreReturnedToo() throws Exception {
        StackOverflowError e = new StackOverflowError("deep");
        List<Callable<Void>> tasks = List.of(() -> null, () -> {
            throw e;
        });
        assertSame(e, SharedTasks.run(tasks, POOL, 1, () -> {}));
    }
}
