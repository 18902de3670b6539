package io.nczarr.http;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * The one retry and deadline policy of every remote read (plain HTTP, the byte-range source and S3): how often
 * and how patiently one request is tried again. At most {@link #maxAttempts()} attempts; an exponential backoff
 * from {@link #firstDelay()} (doubled each time, at most {@value #MAX_BACKOFF_MS} ms, of which a random half so
 * that many readers hit by the same outage do not retry in step; longer when the backend's classifier says the
 * server asked for it, e.g. S3 throttling); only failures that are a {@link StoreException} marked {@linkplain
 * StoreException#isRetryable() retryable} and accepted by the backend's classifier are retried. With {@link
 * #withDeadlines deadlines}, the whole request (backoffs included) ends by the request deadline, and each attempt
 * gets a {@link Deadline}: its own limit or the request's, whichever comes first. Giving up keeps the last failure,
 * with how many attempts were made and which setting ended them. Immutable and thread-safe.
 */
public final class RetryPolicy {
    /** The longest single backoff. */
    public static final long MAX_BACKOFF_MS = 20_000;

    private final int maxAttempts;
    private final Duration firstDelay;
    private final String setting;
    private final int settingValue;
    private final Predicate<? super StoreException> filter;
    private final ToIntFunction<? super StoreException> slowdown;
    /** 0: no deadline beyond the attempts' own. */
    private final long attemptMillis;

    private final long requestMillis;
    private final String requestSetting;

    /** One try of the request. */
    @FunctionalInterface
    public interface Attempt<T> {
        T run() throws IOException;
    }

    /** One try of the request, to finish by {@code deadline}. */
    @FunctionalInterface
    public interface TimedAttempt<T> {
        T run(Deadline deadline) throws IOException;
    }

    /** Runs after a backoff, before the next try: counts it, or refuses it (e.g. the source was closed). */
    @FunctionalInterface
    public interface BeforeRetry {
        void beforeRetry() throws IOException;
    }

    /**
     * A policy counted in retries (HTTP settings: {@code nczarr.http.retries}, {@code nczarr.bytes.retries}).
     *
     * @param maxRetries retries after the first try; 0 tries once
     * @param firstDelay the first backoff
     * @param setting the configuration key of {@code maxRetries}, named when giving up
     * @param filter which retryable failures this backend does retry (e.g. not its own timeouts)
     */
    public RetryPolicy(int maxRetries, Duration firstDelay, String setting, Predicate<? super StoreException> filter) {
        this(maxRetries + 1, firstDelay, setting, maxRetries, filter, f -> 1, 0, 0, null);
    }

    private RetryPolicy(
            int maxAttempts,
            Duration firstDelay,
            String setting,
            int settingValue,
            Predicate<? super StoreException> filter,
            ToIntFunction<? super StoreException> slowdown,
            long attemptMillis,
            long requestMillis,
            String requestSetting) {
        if (maxAttempts < 1 || firstDelay.isNegative() || attemptMillis < 0 || requestMillis < 0) {
            throw new IllegalArgumentException("negative retries, delay or deadline");
        }
        this.maxAttempts = maxAttempts;
        this.firstDelay = firstDelay;
        this.setting = Objects.requireNonNull(setting, "setting");
        this.settingValue = settingValue;
        this.filter = Objects.requireNonNull(filter, "filter");
        this.slowdown = Objects.requireNonNull(slowdown, "slowdown");
        this.attemptMillis = attemptMillis;
        this.requestMillis = requestMillis;
        this.requestSetting = requestSetting;
    }

    /**
     * A policy counted in attempts (S3 settings: {@code nczarr.s3.maxAttempts}).
     *
     * @param maxAttempts attempts including the first
     * @param setting the configuration key of {@code maxAttempts}
     */
    public static RetryPolicy attempts(
            int maxAttempts, Duration firstDelay, String setting, Predicate<? super StoreException> filter) {
        return new RetryPolicy(maxAttempts, firstDelay, setting, maxAttempts, filter, f -> 1, 0, 0, null);
    }

    /**
     * This policy with deadlines: each attempt within {@code attemptMillis}, the whole request (every attempt and
     * backoff) within {@code requestMillis} ({@code requestSetting} named when no time is left).
     */
    public RetryPolicy withDeadlines(long attemptMillis, long requestMillis, String requestSetting) {
        return new RetryPolicy(
                maxAttempts,
                firstDelay,
                setting,
                settingValue,
                filter,
                slowdown,
                attemptMillis,
                requestMillis,
                Objects.requireNonNull(requestSetting, "requestSetting"));
    }

    /** This policy with backoffs {@code factor}× longer for the failures the backend says asked for it. */
    public RetryPolicy withSlowdown(ToIntFunction<? super StoreException> factor) {
        return new RetryPolicy(
                maxAttempts,
                firstDelay,
                setting,
                settingValue,
                filter,
                factor,
                attemptMillis,
                requestMillis,
                requestSetting);
    }

    /** Retries after the first try. */
    public int maxRetries() {
        return maxAttempts - 1;
    }

    public int maxAttempts() {
        return maxAttempts;
    }

    public Duration firstDelay() {
        return firstDelay;
    }

    /** Whether a failure is worth another try under this policy. */
    public boolean retries(IOException failure) {
        return failure instanceof StoreException s && s.isRetryable() && filter.test(s);
    }

    /** The wait before retry {@code retry} (0 for the first retry) after an ordinary failure. */
    public long backoffMillis(int retry) {
        return backoff(retry, 1);
    }

    /** The wait before retry {@code retry} after {@code failure} (longer when the backend says so). */
    public long backoffMillis(int retry, StoreException failure) {
        return backoff(retry, Math.max(1, slowdown.applyAsInt(failure)));
    }

    /** base × factor × 2^retry, at most {@value #MAX_BACKOFF_MS} ms, of which a random half. */
    private long backoff(int retry, int factor) {
        long d = Math.min(MAX_BACKOFF_MS, (firstDelay.toMillis() * factor) << Math.min(retry, 16));
        return d - (d > 1 ? ThreadLocalRandom.current().nextLong(d / 2 + 1) : 0);
    }

    /**
     * Runs {@code attempt} until it succeeds, fails with a failure this policy does not retry (thrown as is), or
     * has been tried {@link #maxAttempts()} times: then the last failure is thrown with "gave up after N attempts"
     * added to its detail (still retryable: a later try may succeed).
     *
     * @param what the request, for the message when the thread is interrupted during a backoff
     */
    public <T> T run(String what, Attempt<T> attempt, BeforeRetry beforeRetry) throws IOException {
        return run(what, null, d -> attempt.run(), beforeRetry);
    }

    /**
     * As {@link #run(String, Attempt, BeforeRetry)}, each attempt given its {@link Deadline}, the request ending by
     * the request deadline.
     *
     * @param location the object's URL for the message of an interrupt (null: the failure's dataset)
     */
    public <T> T run(String what, String location, TimedAttempt<T> attempt, BeforeRetry beforeRetry)
            throws IOException {
        long start = System.nanoTime();
        Deadline request = requestMillis > 0 ? Deadline.in(requestMillis) : null;
        for (int n = 1; ; n++) {
            try {
                return attempt.run(attemptDeadline(request));
            } catch (IOException e) {
                if (!retries(e)) {
                    throw e;
                }
                StoreException failure = (StoreException) e;
                if (n >= maxAttempts) {
                    throw n == 1 ? failure : gaveUp(failure, n, start, setting + "=" + settingValue);
                }
                long wait = backoffMillis(n - 1, failure);
                if (request != null && request.remainingNanos() <= wait * 1_000_000L) {
                    throw gaveUp(
                            failure,
                            n,
                            start,
                            "no time left for another within " + requestSetting + "=" + requestMillis);
                }
                sleep(wait, failure, what, location);
                beforeRetry.beforeRetry();
            }
        }
    }

    /** As {@link #run(String, String, TimedAttempt, BeforeRetry)}, nothing done between tries. */
    public <T> T run(String what, String location, TimedAttempt<T> attempt) throws IOException {
        return run(what, location, attempt, () -> {});
    }

    private Deadline attemptDeadline(Deadline request) {
        if (request == null) {
            return attemptMillis > 0 ? Deadline.in(attemptMillis) : null;
        }
        return attemptMillis > 0 ? request.within(attemptMillis) : request;
    }

    /** Elapsed time is said where the policy has a request deadline (it is what ran out, or nearly). */
    private StoreException gaveUp(StoreException last, int attempts, long startNanos, String why) {
        String took = requestMillis > 0 ? " in " + (System.nanoTime() - startNanos) / 1_000_000 + " ms" : "";
        return last.gaveUp("gave up after " + attempts + " attempts" + took + ", " + why);
    }

    private static void sleep(long ms, StoreException failure, String what, String location)
            throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            String where =
                    location != null ? location + ": " : failure.dataset() == null ? "" : failure.dataset() + ": ";
            InterruptedIOException x = new InterruptedIOException(where + "interrupted while waiting to retry " + what);
            x.initCause(e);
            throw x;
        }
    }
}
