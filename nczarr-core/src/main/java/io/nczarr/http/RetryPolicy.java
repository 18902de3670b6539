package io.nczarr.http;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;

/**
 * How often and how patiently one request is tried again: at most {@link #maxRetries()} retries,
 * exponential backoff from {@link #firstDelay()} (doubled each time, capped at 10 s, plus up to 50%
 * jitter so that many readers hit by the same outage do not retry in step), and only for failures
 * that are a {@link StoreException} marked {@linkplain StoreException#isRetryable() retryable} and
 * accepted by the policy's filter. Immutable and thread-safe.
 */
public final class RetryPolicy {
    private static final long MAX_DELAY_MS = 10_000;

    private final int maxRetries;
    private final Duration firstDelay;
    private final String setting;
    private final Predicate<? super StoreException> filter;

    /** One try of the request. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws IOException;
    }

    /** Runs after a backoff, before the next try: counts it, or refuses it (e.g. the source was closed). */
    @FunctionalInterface
    public interface BeforeRetry {
        void beforeRetry() throws IOException;
    }

    /**
     * @param maxRetries retries after the first try; 0 tries once
     * @param firstDelay the first backoff
     * @param setting the configuration key of {@code maxRetries}, named when giving up
     * @param filter which retryable failures this caller does retry (e.g. not its own timeouts)
     */
    public RetryPolicy(int maxRetries, Duration firstDelay, String setting, Predicate<? super StoreException> filter) {
        if (maxRetries < 0 || firstDelay.isNegative()) {
            throw new IllegalArgumentException("negative retries or delay");
        }
        this.maxRetries = maxRetries;
        this.firstDelay = firstDelay;
        this.setting = Objects.requireNonNull(setting, "setting");
        this.filter = Objects.requireNonNull(filter, "filter");
    }

    public int maxRetries() {
        return maxRetries;
    }

    public Duration firstDelay() {
        return firstDelay;
    }

    /** Whether a failure is worth another try under this policy. */
    public boolean retries(IOException failure) {
        return failure instanceof StoreException s && s.isRetryable() && filter.test(s);
    }

    /** The wait before retry {@code attempt} (0 for the first retry): base times 2^attempt, then jitter. */
    public long backoffMillis(int attempt) {
        long d = Math.min(MAX_DELAY_MS, firstDelay.toMillis() << Math.min(attempt, 16));
        return d + (d > 1 ? ThreadLocalRandom.current().nextLong(d / 2 + 1) : 0);
    }

    /**
     * Runs {@code attempt} until it succeeds, fails with a failure this policy does not retry (thrown
     * as is), or has been tried {@code maxRetries + 1} times: then the last failure is thrown with
     * "gave up after N attempts" added to its detail (still retryable: a later try may succeed).
     *
     * @param what the request, for the message when the thread is interrupted during a backoff
     */
    public <T> T run(String what, Attempt<T> attempt, BeforeRetry beforeRetry) throws IOException {
        for (int n = 0; ; n++) {
            try {
                return attempt.run();
            } catch (IOException e) {
                if (!retries(e)) {
                    throw e;
                }
                StoreException failure = (StoreException) e;
                if (n >= maxRetries) {
                    throw n == 0 ? failure : gaveUp(failure, n + 1);
                }
                sleep(backoffMillis(n), failure, what);
                beforeRetry.beforeRetry();
            }
        }
    }

    private StoreException gaveUp(StoreException last, int attempts) {
        return last.gaveUp("gave up after " + attempts + " attempts, " + setting + "=" + maxRetries);
    }

    private static void sleep(long ms, StoreException failure, String what) throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            String where = failure.dataset() == null ? "" : failure.dataset() + ": ";
            throw new InterruptedIOException(where + "interrupted while waiting to retry " + what);
        }
    }
}
