package io.nczarr.s3;

import io.nczarr.error.StoreException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.concurrent.ThreadLocalRandom;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * Runs one S3 request as attempts, under the {@link S3Tuning}: a failure marked retryable (by
 * {@link S3Bucket#isRetryable}, or a body that broke off) is tried again, at most
 * {@code maxAttempts} in all, after an exponential backoff with jitter; every other failure
 * passes at once. The whole request, backoffs included, ends by the request deadline; each attempt
 * by its own deadline or the request's, whichever comes first. Giving up keeps the last failure,
 * with how many attempts were made and which setting ended them.
 */
final class S3Retries {
    static final long MAX_BACKOFF_MS = 20_000;
    /** Throttled (429, SlowDown): back off longer, the server asked for it. */
    static final int THROTTLED_FACTOR = 5;

    private final S3Tuning tuning;

    /** One attempt of the request, to finish by {@code deadline}. */
    @FunctionalInterface
    interface Attempt<T> {
        T run(Deadline deadline) throws IOException;
    }

    S3Retries(S3Tuning tuning) {
        this.tuning = tuning;
    }

    /**
     * @param what the request for messages, e.g. {@code S3 GET}
     * @param url the object's URL, for messages
     */
    <T> T run(String what, String url, Attempt<T> attempt) throws IOException {
        long start = System.nanoTime();
        Deadline request = Deadline.in(tuning.requestTimeoutMillis());
        for (int n = 1; ; n++) {
            try {
                return attempt.run(request.within(tuning.attemptTimeoutMillis()));
            } catch (StoreException e) {
                if (!e.isRetryable()) {
                    throw e;
                }
                if (n >= tuning.maxAttempts()) {
                    throw n == 1 ? e : gaveUp(e, n, start, S3Tuning.MAX_ATTEMPTS + "=" + tuning.maxAttempts());
                }
                long wait = backoffMillis(n - 1, e);
                if (request.remainingNanos() <= wait * 1_000_000L) {
                    throw gaveUp(
                            e,
                            n,
                            start,
                            "no time left for another within " + S3Tuning.REQUEST_TIMEOUT_MS + "="
                                    + tuning.requestTimeoutMillis());
                }
                sleep(wait, what, url);
            }
        }
    }

    /**
     * The wait before retry {@code retry} (0 = the first): base × 2^retry, at most 20 s, of which a random
     * half (so that readers hit by the same outage do not retry in step).
     */
    long backoffMillis(int retry, StoreException failure) {
        long base = tuning.retryBaseDelayMillis() * (throttled(failure) ? THROTTLED_FACTOR : 1);
        long d = Math.min(MAX_BACKOFF_MS, base << Math.min(retry, 16));
        return d - (d > 1 ? ThreadLocalRandom.current().nextLong(d / 2 + 1) : 0);
    }

    private static boolean throttled(StoreException failure) {
        return failure.getCause() instanceof SdkServiceException s
                && (s.isThrottlingException() || s.statusCode() == 429);
    }

    private static StoreException gaveUp(StoreException last, int attempts, long startNanos, String why) {
        long ms = (System.nanoTime() - startNanos) / 1_000_000;
        return last.gaveUp("gave up after " + attempts + " attempts in " + ms + " ms, " + why);
    }

    private static void sleep(long ms, String what, String url) throws InterruptedIOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            InterruptedIOException x = new InterruptedIOException(url + ": interrupted while waiting to retry " + what);
            x.initCause(e);
            throw x;
        }
    }
}
