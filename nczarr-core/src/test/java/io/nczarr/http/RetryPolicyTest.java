package io.nczarr.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** {@link RetryPolicy}: what is retried, how often, how long it waits, and what is thrown in the end. */
class RetryPolicyTest {
    private static final String URL = "http://127.0.0.1/x.nc";
    private static final RetryPolicy TWO = new RetryPolicy(2, Duration.ZERO, "test.retries", f -> true);

    private static StoreException transientFailure() {
        return new StoreException(URL, null, "HTTP 503", true, new SocketException("reset"));
    }

    /** An attempt failing with {@code failure} its first {@code failures} times, then answering 42. */
    private static RetryPolicy.Attempt<Integer> failing(int failures, IOException failure, AtomicInteger calls) {
        return () -> {
            if (calls.incrementAndGet() <= failures) {
                throw failure;
            }
            return 42;
        };
    }

    @Test
    void transientFailuresAreRetriedUntilSuccess() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        AtomicInteger before = new AtomicInteger();
        assertEquals(42, TWO.run("GET", failing(2, transientFailure(), calls), before::incrementAndGet));
        assertEquals(3, calls.get());
        assertEquals(2, before.get());
    }

    @Test
    void givingUpSaysSoAndStaysRetryable() {
        AtomicInteger calls = new AtomicInteger();
        StoreException last = transientFailure();
        StoreException e =
                assertThrows(StoreException.class, () -> TWO.run("GET", failing(100, last, calls), () -> {}));
        assertEquals(3, calls.get());
        assertEquals(URL + ": HTTP 503 (gave up after 3 attempts, test.retries=2)", e.getMessage());
        assertEquals(URL, e.dataset());
        assertTrue(e.isRetryable());
        assertSame(last.getCause(), e.getCause());
    }

    @Test
    void noRetriesThrowsTheFailureItself() {
        RetryPolicy none = new RetryPolicy(0, Duration.ZERO, "test.retries", f -> true);
        StoreException failure = transientFailure();
        AtomicInteger calls = new AtomicInteger();
        assertSame(
                failure,
                assertThrows(StoreException.class, () -> none.run("GET", failing(1, failure, calls), () -> {})));
        assertEquals(1, calls.get());
    }

    @Test
    void failuresThatAreNotRetryableAreThrownAtOnce() {
        IOException[] failures = {
            new StoreException(URL, null, "HTTP 403", false, null),
            new IOException("not a store failure"),
            new InterruptedIOException("interrupted"),
        };
        for (IOException failure : failures) {
            AtomicInteger calls = new AtomicInteger();
            assertSame(
                    failure,
                    assertThrows(IOException.class, () -> TWO.run("GET", failing(1, failure, calls), () -> {})));
            assertEquals(1, calls.get(), failure.toString());
        }
    }

    @Test
    void theFilterVetoesRetries() {
        RetryPolicy noSockets =
                new RetryPolicy(5, Duration.ZERO, "test.retries", f -> !(f.getCause() instanceof SocketException));
        AtomicInteger calls = new AtomicInteger();
        assertThrows(StoreException.class, () -> noSockets.run("GET", failing(1, transientFailure(), calls), () -> {}));
        assertEquals(1, calls.get());
        assertTrue(noSockets.retries(new StoreException("timeout", true)));
    }

    @Test
    void beforeRetryCanStopTheRetries() {
        AtomicInteger calls = new AtomicInteger();
        StoreException closed = new StoreException(URL, null, "closed", false, null);
        assertSame(
                closed,
                assertThrows(
                        StoreException.class,
                        () -> TWO.run("GET", failing(100, transientFailure(), calls), () -> {
                            throw closed;
                        })));
        assertEquals(1, calls.get());
    }

    @Test
    void backoffDoublesWithJitterAndIsCapped() {
        // one formula for HTTP and S3: base × 2^retry, at most MAX_BACKOFF_MS, of which a random half
        RetryPolicy p = new RetryPolicy(20, Duration.ofMillis(100), "test.retries", f -> true);
        for (int i = 0; i < 50; i++) {
            long first = p.backoffMillis(0);
            assertTrue(first >= 50 && first <= 100, "first " + first);
            long fourth = p.backoffMillis(3);
            assertTrue(fourth >= 400 && fourth <= 800, "fourth " + fourth);
            long late = p.backoffMillis(40);
            assertTrue(late >= RetryPolicy.MAX_BACKOFF_MS / 2 && late <= RetryPolicy.MAX_BACKOFF_MS, "capped " + late);
        }
        assertEquals(0, TWO.backoffMillis(5));
    }

    @Test
    void anInterruptDuringTheBackoffEndsTheRetries() {
        RetryPolicy slow = new RetryPolicy(3, Duration.ofSeconds(30), "test.retries", f -> true);
        AtomicInteger calls = new AtomicInteger();
        Thread.currentThread().interrupt();
        try {
            InterruptedIOException e = assertThrows(
                    InterruptedIOException.class,
                    () -> slow.run("GET bytes=0-9", failing(100, transientFailure(), calls), () -> {}));
            assertEquals(URL + ": interrupted while waiting to retry GET bytes=0-9", e.getMessage());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
        } finally {
            Thread.interrupted();
        }
        assertEquals(1, calls.get());
    }

    @Test
    void negativeSettingsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(-1, Duration.ZERO, "k", f -> true));
        assertThrows(IllegalArgumentException.class, () -> new RetryPolicy(1, Duration.ofMillis(-1), "k", f -> true));
    }
}
