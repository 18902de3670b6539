package io.nczarr.s3;

import java.util.Locale;
import java.util.Map;

/**
 * How hard to drive S3: requests in flight per read, connections per client, retries. Each is
 * a URL fragment key or a system property of the same name (the fragment wins):
 * {@code nczarr.s3.concurrency} (default 16), {@code nczarr.s3.maxConnections} (default 64, at
 * least the concurrency), {@code nczarr.s3.maxAttempts} (attempts per request including the
 * first, default 4), {@code nczarr.s3.retryBaseDelayMs} (first backoff, doubling with jitter up
 * to 20 s, default 100).
 */
public record S3Tuning(int concurrency, int maxConnections, int maxAttempts, long retryBaseDelayMillis) {

    public static final String CONCURRENCY = "nczarr.s3.concurrency";
    public static final String MAX_CONNECTIONS = "nczarr.s3.maxConnections";
    public static final String MAX_ATTEMPTS = "nczarr.s3.maxAttempts";
    public static final String RETRY_BASE_DELAY_MS = "nczarr.s3.retryBaseDelayMs";

    public static final int DEFAULT_CONCURRENCY = 16;
    public static final int DEFAULT_MAX_CONNECTIONS = 64;
    public static final int DEFAULT_MAX_ATTEMPTS = 4;
    public static final long DEFAULT_RETRY_BASE_DELAY_MS = 100;

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
        maxConnections = Math.max(maxConnections, concurrency);
    }

    public static S3Tuning defaults() {
        return new S3Tuning(
                DEFAULT_CONCURRENCY, DEFAULT_MAX_CONNECTIONS, DEFAULT_MAX_ATTEMPTS, DEFAULT_RETRY_BASE_DELAY_MS);
    }

    /** From URL fragment keys (lower case) and system properties. */
    public static S3Tuning from(Map<String, String> fragment, AwsEnvironment env) {
        return new S3Tuning(
                (int) number(CONCURRENCY, fragment, env, DEFAULT_CONCURRENCY),
                (int) number(MAX_CONNECTIONS, fragment, env, DEFAULT_MAX_CONNECTIONS),
                (int) number(MAX_ATTEMPTS, fragment, env, DEFAULT_MAX_ATTEMPTS),
                number(RETRY_BASE_DELAY_MS, fragment, env, DEFAULT_RETRY_BASE_DELAY_MS));
    }

    private static long number(String key, Map<String, String> fragment, AwsEnvironment env, long dflt) {
        String v = fragment.get(key.toLowerCase(Locale.ROOT));
        if (v == null || v.isBlank()) {
            v = env.property(key);
        }
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            return Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + v + "'");
        }
    }
}
