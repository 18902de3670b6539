package io.nczarr.http;

import java.time.Duration;
import java.util.Map;
import java.util.function.Function;

/**
 * How the HTTP store (and HTTP targets of reference files) drive a plain HTTP server. Each setting is a URL
 * fragment key or a system property of the same name (the fragment wins):
 *
 * <ul>
 *   <li>{@code nczarr.http.concurrency}: requests in flight per read (default 16);
 *   <li>{@code nczarr.http.maxRetries}: retries of a failed request (5xx, 429, broken connection), with
 *       exponential backoff and jitter (default 3);
 *   <li>{@code nczarr.http.retryDelayMs}: the first backoff (default 200);
 *   <li>{@code nczarr.http.timeoutMs}: one request, headers and body together (default 60 000);
 *   <li>{@code nczarr.http.wholeObjectLimit}: a server that ignores {@code Range} is read whole up to this
 *       many bytes (default 16 MiB), refused above.
 * </ul>
 */
public record HttpSettings(
        int concurrency, int maxRetries, Duration retryDelay, Duration timeout, long wholeObjectLimit) {
    public static final String CONCURRENCY = "nczarr.http.concurrency";
    public static final String MAX_RETRIES = "nczarr.http.maxRetries";
    public static final String RETRY_DELAY_MS = "nczarr.http.retryDelayMs";
    public static final String TIMEOUT = "nczarr.http.timeoutMs";
    public static final String WHOLE_OBJECT_LIMIT = "nczarr.http.wholeObjectLimit";

    public HttpSettings {
        if (concurrency < 1 || concurrency > 1024) {
            throw new IllegalArgumentException(CONCURRENCY + " must be 1..1024, not " + concurrency);
        }
        if (maxRetries < 0 || maxRetries > 20) {
            throw new IllegalArgumentException(MAX_RETRIES + " must be 0..20, not " + maxRetries);
        }
        if (retryDelay.isNegative()) {
            throw new IllegalArgumentException(RETRY_DELAY_MS + " must not be negative");
        }
        if (timeout.toMillis() < 1 || timeout.toMillis() > 86_400_000L) {
            throw new IllegalArgumentException(TIMEOUT + " must be 1..86400000 ms");
        }
        if (wholeObjectLimit < 0) {
            throw new IllegalArgumentException(WHOLE_OBJECT_LIMIT + " must not be negative");
        }
    }

    public static HttpSettings defaults() {
        return new HttpSettings(16, 3, Duration.ofMillis(200), Duration.ofSeconds(60), 16L << 20);
    }

    /**
     * The settings from the URL fragment (keys lower-cased) or else the system properties.
     *
     * @throws IllegalArgumentException for a value that is not a number or out of range, naming the key
     */
    public static HttpSettings resolve(Map<String, String> fragment, Function<String, String> properties) {
        HttpSettings d = defaults();
        return new HttpSettings(
                (int) number(CONCURRENCY, fragment, properties, d.concurrency()),
                (int) number(MAX_RETRIES, fragment, properties, d.maxRetries()),
                Duration.ofMillis(number(
                        RETRY_DELAY_MS, fragment, properties, d.retryDelay().toMillis())),
                Duration.ofMillis(
                        number(TIMEOUT, fragment, properties, d.timeout().toMillis())),
                number(WHOLE_OBJECT_LIMIT, fragment, properties, d.wholeObjectLimit()));
    }

    private static long number(String key, Map<String, String> fragment, Function<String, String> props, long dflt) {
        String v = fragment.get(key.toLowerCase(java.util.Locale.ROOT));
        if (v == null) {
            v = props.apply(key);
        }
        if (v == null || v.isBlank()) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v.trim());
            if (n > Integer.MAX_VALUE && !key.equals(WHOLE_OBJECT_LIMIT)) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, not '" + v + "'");
        }
    }
}
