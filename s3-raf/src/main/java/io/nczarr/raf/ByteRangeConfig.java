package io.nczarr.raf;

import java.time.Duration;
import java.util.Locale;
import java.util.Properties;
import java.util.function.UnaryOperator;

/**
 * Settings of {@code #mode=bytes} reads. {@link #fromSystemProperties()} reads the
 * {@code nczarr.bytes.*} system properties; every key is optional (defaults below, chosen from the
 * measurements in docs/performance.md). Sizes accept {@code k}/{@code m}/{@code g} suffixes
 * (powers of 1024), durations {@code ms}/{@code s}/{@code m} suffixes (plain numbers are seconds).
 *
 * @param blockSize bytes per cache block and the smallest ranged GET ({@code nczarr.bytes.blockSize})
 * @param cacheBlocks blocks kept per open file, least recently used evicted first
 *     ({@code nczarr.bytes.cacheBlocks}); the cache holds at most {@code blockSize * cacheBlocks}
 * @param readAheadBlocks the most blocks appended to a GET when reads are sequential
 *     ({@code nczarr.bytes.readAhead}; 0 disables read-ahead)
 * @param maxRequestBytes the largest single GET ({@code nczarr.bytes.maxRequest}); larger reads are
 *     split
 * @param connectTimeout TCP/TLS connect timeout ({@code nczarr.bytes.connectTimeout})
 * @param requestTimeout the whole of one request, headers and body ({@code nczarr.bytes.timeout})
 * @param maxRetries retries of one request after a 5xx/429 or a broken connection
 *     ({@code nczarr.bytes.retries}); timeouts and other 4xx are not retried
 * @param retryDelay first backoff delay, doubled on every retry ({@code nczarr.bytes.retryDelay})
 * @param wholeObjectLimit the largest object read whole into memory when a server ignores
 *     {@code Range} and answers 200 ({@code nczarr.bytes.wholeObjectLimit}); a larger object is an
 *     error and its download is aborted
 */
public record ByteRangeConfig(
        int blockSize,
        int cacheBlocks,
        int readAheadBlocks,
        int maxRequestBytes,
        Duration connectTimeout,
        Duration requestTimeout,
        int maxRetries,
        Duration retryDelay,
        long wholeObjectLimit) {

    public static final String PREFIX = "nczarr.bytes.";

    public static final int DEFAULT_BLOCK_SIZE = 512 * 1024;
    public static final int DEFAULT_CACHE_BLOCKS = 32;
    public static final int DEFAULT_READ_AHEAD_BLOCKS = 8;
    public static final int DEFAULT_MAX_REQUEST_BYTES = 16 * 1024 * 1024;
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(60);
    public static final int DEFAULT_MAX_RETRIES = 3;
    public static final Duration DEFAULT_RETRY_DELAY = Duration.ofMillis(200);
    public static final long DEFAULT_WHOLE_OBJECT_LIMIT = 16L * 1024 * 1024;

    /** Cache memory above this is refused as a configuration error. */
    private static final long MAX_CACHE_BYTES = 1L << 34;

    public ByteRangeConfig {
        if (blockSize < 1) {
            throw new IllegalArgumentException(PREFIX + "blockSize must be at least 1, got " + blockSize);
        }
        if (cacheBlocks < 1) {
            throw new IllegalArgumentException(PREFIX + "cacheBlocks must be at least 1, got " + cacheBlocks);
        }
        if ((long) blockSize * cacheBlocks > MAX_CACHE_BYTES) {
            throw new IllegalArgumentException(PREFIX + "blockSize * cacheBlocks is over 16 GiB");
        }
        if (readAheadBlocks < 0) {
            throw new IllegalArgumentException(PREFIX + "readAhead must be >= 0, got " + readAheadBlocks);
        }
        if (maxRequestBytes < 1) {
            throw new IllegalArgumentException(PREFIX + "maxRequest must be at least 1, got " + maxRequestBytes);
        }
        if (connectTimeout.isNegative()
                || connectTimeout.isZero()
                || requestTimeout.isNegative()
                || requestTimeout.isZero()) {
            throw new IllegalArgumentException(PREFIX + "timeouts must be positive");
        }
        if (maxRetries < 0) {
            throw new IllegalArgumentException(PREFIX + "retries must be >= 0, got " + maxRetries);
        }
        if (retryDelay.isNegative()) {
            throw new IllegalArgumentException(PREFIX + "retryDelay must be >= 0");
        }
        if (wholeObjectLimit < 0 || wholeObjectLimit > Integer.MAX_VALUE - 8) {
            throw new IllegalArgumentException(PREFIX + "wholeObjectLimit must be between 0 and 2 GiB");
        }
    }

    /** The built-in defaults, ignoring system properties. */
    public static ByteRangeConfig defaults() {
        return new ByteRangeConfig(
                DEFAULT_BLOCK_SIZE,
                DEFAULT_CACHE_BLOCKS,
                DEFAULT_READ_AHEAD_BLOCKS,
                DEFAULT_MAX_REQUEST_BYTES,
                DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_REQUEST_TIMEOUT,
                DEFAULT_MAX_RETRIES,
                DEFAULT_RETRY_DELAY,
                DEFAULT_WHOLE_OBJECT_LIMIT);
    }

    /** The defaults overridden by the {@code nczarr.bytes.*} system properties that are set. */
    public static ByteRangeConfig fromSystemProperties() {
        return from(System.getProperties());
    }

    /**
     * The defaults overridden by {@code nczarr.bytes.*} keys of {@code p}.
     *
     * @throws IllegalArgumentException naming the key for a malformed or out-of-range value
     */
    public static ByteRangeConfig from(Properties p) {
        return from(p::getProperty);
    }

    /**
     * The defaults overridden by the {@code nczarr.bytes.*} settings {@code property} returns (by full
     * name, {@code null} when unset): e.g. {@code NcZarrOptions.environment()::property}, so that the
     * options' environment is where these settings are read, as for every other setting.
     *
     * @throws IllegalArgumentException naming the key for a malformed or out-of-range value
     */
    public static ByteRangeConfig from(UnaryOperator<String> property) {
        UnaryOperator<String> p = property;
        ByteRangeConfig d = defaults();
        return new ByteRangeConfig(
                (int) size(p, "blockSize", d.blockSize, Integer.MAX_VALUE - 8),
                (int) number(p, "cacheBlocks", d.cacheBlocks),
                (int) number(p, "readAhead", d.readAheadBlocks),
                (int) size(p, "maxRequest", d.maxRequestBytes, Integer.MAX_VALUE - 8),
                duration(p, "connectTimeout", d.connectTimeout),
                duration(p, "timeout", d.requestTimeout),
                (int) number(p, "retries", d.maxRetries),
                duration(p, "retryDelay", d.retryDelay),
                size(p, "wholeObjectLimit", d.wholeObjectLimit, Integer.MAX_VALUE - 8));
    }

    public ByteRangeConfig withBlockSize(int v) {
        return new ByteRangeConfig(
                v,
                cacheBlocks,
                readAheadBlocks,
                maxRequestBytes,
                connectTimeout,
                requestTimeout,
                maxRetries,
                retryDelay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withCacheBlocks(int v) {
        return new ByteRangeConfig(
                blockSize,
                v,
                readAheadBlocks,
                maxRequestBytes,
                connectTimeout,
                requestTimeout,
                maxRetries,
                retryDelay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withReadAheadBlocks(int v) {
        return new ByteRangeConfig(
                blockSize,
                cacheBlocks,
                v,
                maxRequestBytes,
                connectTimeout,
                requestTimeout,
                maxRetries,
                retryDelay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withMaxRequestBytes(int v) {
        return new ByteRangeConfig(
                blockSize,
                cacheBlocks,
                readAheadBlocks,
                v,
                connectTimeout,
                requestTimeout,
                maxRetries,
                retryDelay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withTimeouts(Duration connect, Duration request) {
        return new ByteRangeConfig(
                blockSize,
                cacheBlocks,
                readAheadBlocks,
                maxRequestBytes,
                connect,
                request,
                maxRetries,
                retryDelay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withRetries(int retries, Duration delay) {
        return new ByteRangeConfig(
                blockSize,
                cacheBlocks,
                readAheadBlocks,
                maxRequestBytes,
                connectTimeout,
                requestTimeout,
                retries,
                delay,
                wholeObjectLimit);
    }

    public ByteRangeConfig withWholeObjectLimit(long v) {
        return new ByteRangeConfig(
                blockSize,
                cacheBlocks,
                readAheadBlocks,
                maxRequestBytes,
                connectTimeout,
                requestTimeout,
                maxRetries,
                retryDelay,
                v);
    }

    /** The most bytes the block cache of one open file holds. */
    public long cacheBytes() {
        return (long) blockSize * cacheBlocks;
    }

    private static String value(UnaryOperator<String> p, String key) {
        String v = p.apply(PREFIX + key);
        return v == null || v.isBlank() ? null : v.trim();
    }

    private static long number(UnaryOperator<String> p, String key, long dflt) {
        String v = value(p, key);
        if (v == null) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v);
            if (n < 0 || n > Integer.MAX_VALUE) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(PREFIX + key + ": expected a non-negative integer, got '" + v + "'");
        }
    }

    /** Parses {@code 65536}, {@code 64k}, {@code 1m}, {@code 1g} (powers of 1024). */
    static long parseSize(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("b")) {
            s = s.substring(0, s.length() - 1);
        }
        if (s.endsWith("i")) { // 64ki, 1mi
            s = s.substring(0, s.length() - 1);
        }
        long mult = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> mult = 1024;
                case 'm' -> mult = 1024 * 1024;
                case 'g' -> mult = 1024L * 1024 * 1024;
                default -> mult = 1;
            }
        }
        if (mult != 1) {
            s = s.substring(0, s.length() - 1).trim();
        }
        long n = Long.parseLong(s);
        if (n < 0) {
            throw new NumberFormatException();
        }
        return Math.multiplyExact(n, mult);
    }

    private static long size(UnaryOperator<String> p, String key, long dflt, long max) {
        String v = value(p, key);
        if (v == null) {
            return dflt;
        }
        long n;
        try {
            n = parseSize(v);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(
                    PREFIX + key + ": expected a size like 262144, 256k or 1m, got '" + v + "'");
        }
        if (n > max) {
            throw new IllegalArgumentException(PREFIX + key + ": " + v + " is too large (at most " + max + ")");
        }
        return n;
    }

    /** Parses {@code 30} (seconds), {@code 30s}, {@code 500ms}, {@code 2m}. */
    static Duration parseDuration(String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ms")) {
            return Duration.ofMillis(
                    Long.parseLong(s.substring(0, s.length() - 2).trim()));
        }
        if (s.endsWith("s")) {
            return Duration.ofMillis(Math.round(
                    Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 1000));
        }
        if (s.endsWith("m")) {
            return Duration.ofMillis(Math.round(
                    Double.parseDouble(s.substring(0, s.length() - 1).trim()) * 60_000));
        }
        return Duration.ofMillis(Math.round(Double.parseDouble(s) * 1000));
    }

    private static Duration duration(UnaryOperator<String> p, String key, Duration dflt) {
        String v = value(p, key);
        if (v == null) {
            return dflt;
        }
        try {
            Duration d = parseDuration(v);
            if (d.isNegative()) {
                throw new NumberFormatException();
            }
            return d;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    PREFIX + key + ": expected a duration like 30s or 500ms, got '" + v + "'");
        }
    }
}
