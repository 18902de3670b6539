package io.nczarr.s3;

import io.nczarr.error.StoreException;
import io.nczarr.http.RetryPolicy;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkServiceException;

/**
 * How hard to drive S3 and how long to wait for it. Each setting is a URL fragment key or a system
 * property of the same name (the fragment wins):
 *
 * <ul>
 *   <li>{@code nczarr.s3.concurrency}: requests in flight per read (default 64; fewer for large chunks,
 *       so that the chunks in flight fit in a quarter of the read limit, at most 256 MiB);
 *   <li>{@code nczarr.s3.maxConnections}: connections per client (default 64, at least the concurrency);
 *   <li>{@code nczarr.s3.maxAttempts}: attempts per request including the first (default 4);
 *   <li>{@code nczarr.s3.retryBaseDelayMs}: first backoff, doubling with jitter up to 20 s, five times
 *       longer when throttled (default 100);
 *   <li>{@code nczarr.s3.attemptTimeoutMs}: one attempt, from sending the request to the last byte of
 *       the response body; also the longest a single socket read may block (default 30 000);
 *   <li>{@code nczarr.s3.requestTimeoutMs}: the whole request, every attempt and backoff included
 *       (default 120 000); no attempt outlives it;
 *   <li>{@code nczarr.s3.sdkGets}: {@code true} sends GETs through the AWS SDK's full request pipeline
 *       rather than signed directly on its HTTP client (default {@code false}; LIST and HEAD always go
 *       through the SDK). For comparison, and as a way back should a server need what only the SDK does.
 * </ul>
 *
 * @param attemptTimeoutMillis never more than {@code requestTimeoutMillis}
 */
public record S3Tuning(
        int concurrency,
        int maxConnections,
        int maxAttempts,
        long retryBaseDelayMillis,
        long attemptTimeoutMillis,
        long requestTimeoutMillis,
        boolean sdkGets) {

    public static final String CONCURRENCY = "nczarr.s3.concurrency";
    public static final String MAX_CONNECTIONS = "nczarr.s3.maxConnections";
    public static final String MAX_ATTEMPTS = "nczarr.s3.maxAttempts";
    public static final String RETRY_BASE_DELAY_MS = "nczarr.s3.retryBaseDelayMs";
    public static final String ATTEMPT_TIMEOUT_MS = "nczarr.s3.attemptTimeoutMs";
    public static final String REQUEST_TIMEOUT_MS = "nczarr.s3.requestTimeoutMs";
    public static final String SDK_GETS = "nczarr.s3.sdkGets";

    public static final int DEFAULT_CONCURRENCY = 64;
    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    public static final int DEFAULT_MAX_ATTEMPTS = 4;
    public static final long DEFAULT_RETRY_BASE_DELAY_MS = 100;
    public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = 30_000;
    public static final long DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

    /** A day: longer deadlines are mistakes, and nanosecond arithmetic stays far from overflow. */
    private static final long MAX_TIMEOUT_MS = 86_400_000;

    public S3Tuning {
        if (concurrency < 1 || concurrency > 1024) {
            throw new IllegalArgumentException(CONCURRENCY + " must be 1..1024, not " + concurrency);
        }
        if (maxAttempts < 1 || maxAttempts > 20) {
            throw new IllegalArgumentException(MAX_ATTEMPTS + " must be 1..20, not " + maxAttempts);
        }
        if (retryBaseDelayMillis < 0) {
            throw new IllegalArgumentException(RETRY_BASE_DELAY_MS + " must not be negative");
        }
        checkTimeout(ATTEMPT_TIMEOUT_MS, attemptTimeoutMillis);
        checkTimeout(REQUEST_TIMEOUT_MS, requestTimeoutMillis);
        maxConnections = Math.max(maxConnections, concurrency);
        attemptTimeoutMillis = Math.min(attemptTimeoutMillis, requestTimeoutMillis);
    }

    private static void checkTimeout(String key, long ms) {
        if (ms < 1 || ms > MAX_TIMEOUT_MS) {
            throw new IllegalArgumentException(key + " must be 1.." + MAX_TIMEOUT_MS + " ms, not " + ms);
        }
    }

    public static S3Tuning defaults() {
        return new S3Tuning(
                DEFAULT_CONCURRENCY,
                DEFAULT_MAX_CONNECTIONS,
                DEFAULT_MAX_ATTEMPTS,
                DEFAULT_RETRY_BASE_DELAY_MS,
                DEFAULT_ATTEMPT_TIMEOUT_MS,
                DEFAULT_REQUEST_TIMEOUT_MS,
                false);
    }

    /** From URL fragment keys (lower case) and system properties. */
    public static S3Tuning from(Map<String, String> fragment, AwsEnvironment env) {
        return new S3Tuning(
                (int) number(CONCURRENCY, fragment, env, DEFAULT_CONCURRENCY),
                (int) number(MAX_CONNECTIONS, fragment, env, DEFAULT_MAX_CONNECTIONS),
                (int) number(MAX_ATTEMPTS, fragment, env, DEFAULT_MAX_ATTEMPTS),
                number(RETRY_BASE_DELAY_MS, fragment, env, DEFAULT_RETRY_BASE_DELAY_MS),
                number(ATTEMPT_TIMEOUT_MS, fragment, env, DEFAULT_ATTEMPT_TIMEOUT_MS),
                number(REQUEST_TIMEOUT_MS, fragment, env, DEFAULT_REQUEST_TIMEOUT_MS),
                flag(SDK_GETS, fragment, env));
    }

    /** {@link #attemptTimeoutMillis()} as a duration. */
    public Duration attemptTimeout() {
        return Duration.ofMillis(attemptTimeoutMillis);
    }

    /** {@link #requestTimeoutMillis()} as a duration. */
    public Duration requestTimeout() {
        return Duration.ofMillis(requestTimeoutMillis);
    }

    private static boolean flag(String key, Map<String, String> fragment, AwsEnvironment env) {
        String v = setting(key, fragment, env);
        if (v == null) {
            return false;
        }
        return switch (v.trim().toLowerCase(Locale.ROOT)) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(key + " must be true or false, not '" + v + "'");
        };
    }

    /** The fragment key (lower case) if given, else the system property; {@code null} when neither is set. */
    private static String setting(String key, Map<String, String> fragment, AwsEnvironment env) {
        String v = fragment.get(key.toLowerCase(Locale.ROOT));
        if (v == null || v.isBlank()) {
            v = env.property(key);
        }
        return v == null || v.isBlank() ? null : v;
    }

    private static long number(String key, Map<String, String> fragment, AwsEnvironment env, long dflt) {
        String v = setting(key, fragment, env);
        if (v == null) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + v + "'");
        }
    }

    /** Throttled (429, SlowDown): back off this many times longer, the server asked for it. */
    public static final int THROTTLED_FACTOR = 5;

    /**
     * The one retry policy ({@link RetryPolicy}) with these settings: {@link #maxAttempts()} attempts of which
     * every retryable failure is retried, backoff from {@link #retryBaseDelayMillis()} ({@value #THROTTLED_FACTOR}×
     * when throttled), each attempt within {@link #attemptTimeoutMillis()}, the whole request within {@link
     * #requestTimeoutMillis()}.
     */
    public RetryPolicy retryPolicy() {
        return RetryPolicy.attempts(maxAttempts, Duration.ofMillis(retryBaseDelayMillis), MAX_ATTEMPTS, f -> true)
                .withDeadlines(attemptTimeoutMillis, requestTimeoutMillis, REQUEST_TIMEOUT_MS)
                .withSlowdown(f -> throttled(f) ? THROTTLED_FACTOR : 1);
    }

    /** The S3 classifier of slow-down answers. */
    static boolean throttled(StoreException failure) {
        return failure.getCause() instanceof SdkServiceException s
                && (s.isThrottlingException() || s.statusCode() == 429);
    }
}
