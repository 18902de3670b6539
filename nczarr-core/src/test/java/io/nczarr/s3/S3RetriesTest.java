package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.http.RetryPolicy;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.s3.model.S3Exception;

/**
 * The one retry policy ({@link RetryPolicy}) as S3 configures it ({@link S3Tuning#retryPolicy()}): attempt budget,
 * deadlines, backoff, what passes at once.
 */
class S3RetriesTest {

    static RetryPolicy retries(int attempts, long baseMs, long attemptMs, long requestMs) {
        return new S3Tuning(1, 1, attempts, baseMs, attemptMs, requestMs, false).retryPolicy();
    }

    static StoreException transient_() {
        return new StoreException(null, "http://h/b/k", "S3 GET failed: HTTP 503", true, null);
    }

    @Test
    void retryableFailuresAreRetriedUpToTheBudgetThenNamed() {
        AtomicInteger calls = new AtomicInteger();
        StoreException e = assertThrows(
                StoreException.class,
                () -> retries(3, 1, 1000, 10_000).run("S3 GET", "http://h/b/k", d -> {
                    calls.incrementAndGet();
                    throw transient_();
                }));
        assertEquals(3, calls.get());
        assertTrue(e.isRetryable());
        assertEquals("http://h/b/k", e.key());
        assertTrue(e.getMessage().contains("gave up after 3 attempts"), e.getMessage());
        assertTrue(e.getMessage().contains(S3Tuning.MAX_ATTEMPTS + "=3"), e.getMessage());
    }

    @Test
    void successAfterFailures() throws IOException {
        AtomicInteger calls = new AtomicInteger();
        String v = retries(4, 1, 1000, 10_000).run("S3 GET", "u", d -> {
            if (calls.incrementAndGet() < 3) {
                throw transient_();
            }
            return "ok";
        });
        assertEquals("ok", v);
        assertEquals(3, calls.get());
    }

    @Test
    void refusalsMissingObjectsAndInterruptsPassAtOnce() {
        for (IOException thrown : new IOException[] {
            new StoreException(null, "u", "HTTP 403", false, null),
            new FileNotFoundException("u: no such object"),
            new InterruptedIOException("u: interrupted")
        }) {
            AtomicInteger calls = new AtomicInteger();
            IOException e = assertThrows(
                    IOException.class,
                    () -> retries(4, 1, 1000, 10_000).run("S3 GET", "u", d -> {
                        calls.incrementAndGet();
                        throw thrown;
                    }));
            assertSame(thrown, e);
            assertEquals(1, calls.get());
        }
    }

    @Test
    void eachAttemptEndsByItsOwnLimitOrTheRequestsWhicheverIsFirst() {
        List<Long> given = new ArrayList<>();
        long t0 = System.nanoTime();
        StoreException e = assertThrows(
                StoreException.class,
                () -> retries(20, 1, 300, 1000).run("S3 GET", "u", d -> {
                    given.add(d.givenMillis());
                    pause(d.remainingMillis());
                    throw transient_();
                }));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms >= 1000 && ms < 3000, ms + " ms"); // the deadline, plus room for a busy machine
        assertTrue(given.size() >= 2 && given.size() <= 4, given.toString());
        assertEquals(300, given.get(0));
        assertTrue(given.get(given.size() - 1) <= 300, given.toString());
        assertTrue(
                e.getMessage().contains("no time left for another within " + S3Tuning.REQUEST_TIMEOUT_MS),
                e.getMessage());
    }

    @Test
    void backoffDoublesWithJitterIsCappedAndLongerWhenThrottled() {
        RetryPolicy r = retries(20, 100, 1000, 10_000);
        StoreException plain = transient_();
        StoreException throttled = new StoreException(
                null,
                "u",
                "HTTP 429",
                true,
                S3Exception.builder().statusCode(429).build());
        for (int i = 0; i < 50; i++) {
            long first = r.backoffMillis(0, plain);
            assertTrue(first >= 50 && first <= 100, String.valueOf(first));
            long third = r.backoffMillis(2, plain);
            assertTrue(third >= 200 && third <= 400, String.valueOf(third));
            long slow = r.backoffMillis(0, throttled);
            assertTrue(slow >= 250 && slow <= 500, String.valueOf(slow));
            assertTrue(r.backoffMillis(40, plain) <= RetryPolicy.MAX_BACKOFF_MS);
        }
    }

    @Test
    void anInterruptDuringTheBackoffEndsTheRequest() {
        Thread.currentThread().interrupt();
        try {
            InterruptedIOException e = assertThrows(
                    InterruptedIOException.class,
                    () -> retries(4, 50, 1000, 10_000).run("S3 GET", "http://h/b/k", d -> {
                        throw transient_();
                    }));
            assertTrue(e.getMessage().contains("http://h/b/k"), e.getMessage());
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept");
        } finally {
            Thread.interrupted();
        }
    }

    static void pause(long ms) throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException();
        }
    }
}
