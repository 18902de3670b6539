package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.Arrays;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The types of {@link HttpRangeSource}'s failures: {@link StoreException}s with the URL as dataset,
 * retryable when trying again may help; 404 and 403 keep the JDK types netCDF-Java callers expect,
 * with the StoreException as their cause.
 */
class HttpRangeSourceErrorTest {
    private static final byte[] DATA = new byte[50_000];
    private static final ByteRangeConfig CONFIG = ByteRangeConfig.defaults()
            .withRetries(2, Duration.ofMillis(5))
            .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));
    private static RangeHttpServer server;

    @BeforeAll
    static void start() throws IOException {
        Arrays.fill(DATA, (byte) 7);
        server = RangeHttpServer.start();
        server.put("/data.bin", DATA);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void reset() {
        server.reset();
    }

    private static HttpRangeSource source(String path, ByteRangeConfig config) {
        return HttpRangeSource.open(server.uri(path), config);
    }

    private static StoreException readFails(HttpRangeSource s) {
        return assertThrows(StoreException.class, () -> s.read(0, new byte[16], 0, 16));
    }

    @Test
    void serverErrorsAreRetryableStoreExceptionsAfterTheRetries() {
        server.failNextGets(100);
        try (HttpRangeSource s = source("/data.bin", CONFIG)) {
            StoreException e = readFails(s);
            assertTrue(e.isRetryable());
            assertEquals(server.url("/data.bin"), e.dataset());
            assertTrue(e.detail().startsWith("HTTP 503 Service Unavailable for GET bytes=0-15 (SlowDown)"), e.detail());
            assertTrue(e.detail().endsWith("(gave up after 3 attempts, nczarr.bytes.retries=2)"), e.detail());
        }
        assertEquals(3, server.gets());
    }

    @Test
    void notFoundAndForbiddenKeepTheirTypesWithAStoreExceptionAsCause() {
        try (HttpRangeSource s = source("/missing.bin", CONFIG)) {
            FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> s.read(0, new byte[4], 0, 4));
            StoreException cause = assertInstanceOf(StoreException.class, e.getCause());
            assertFalse(cause.isRetryable());
            assertEquals(server.url("/missing.bin"), cause.dataset());
            assertEquals(e.getMessage(), cause.getMessage());
        }
        server.forceStatus(401);
        try (HttpRangeSource s = source("/data.bin", CONFIG)) {
            AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> s.read(0, new byte[4], 0, 4));
            StoreException cause = assertInstanceOf(StoreException.class, e.getCause());
            assertFalse(cause.isRetryable());
            assertEquals(server.url("/data.bin"), cause.dataset());
            assertTrue(cause.detail().startsWith("HTTP 401 Unauthorized for GET bytes=0-3"), cause.detail());
        }
        assertEquals(2, server.gets(), "neither is retried");
    }

    @Test
    void otherClientErrorsAreNotRetryable() {
        server.forceStatus(400);
        try (HttpRangeSource s = source("/data.bin", CONFIG)) {
            StoreException e = readFails(s);
            assertFalse(e.isRetryable());
            assertTrue(
                    e.getMessage().startsWith(server.url("/data.bin") + ": HTTP 400 Bad Request for GET"),
                    e.getMessage());
        }
        assertEquals(1, server.gets());
    }

    @Test
    void aTimeoutIsRetryableForTheCallerButNotRetriedHere() {
        server.latencyMs(2000);
        try (HttpRangeSource s =
                source("/data.bin", CONFIG.withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(200)))) {
            StoreException e = readFails(s);
            assertTrue(e.isRetryable());
            assertInstanceOf(HttpTimeoutException.class, e.getCause());
            assertEquals("no complete response within 200 ms for GET bytes=0-15 (nczarr.bytes.timeout)", e.detail());
            assertEquals(0, s.stats().retries());
        }
        assertEquals(1, server.gets());
    }

    @Test
    void aTruncatedBodyIsRetryable() {
        server.truncate(true);
        try (HttpRangeSource s = source("/data.bin", CONFIG)) {
            StoreException e = assertThrows(StoreException.class, () -> s.read(0, new byte[20_000], 0, 20_000));
            assertTrue(e.isRetryable());
            assertEquals(server.url("/data.bin"), e.dataset());
        }
    }

    @Test
    void aRefusedConnectionIsRetryable() throws IOException {
        int port;
        try (ServerSocket ss = new ServerSocket(0)) {
            port = ss.getLocalPort();
        }
        URI u = URI.create("http://127.0.0.1:" + port + "/x.nc");
        try (HttpRangeSource s = HttpRangeSource.open(u, CONFIG)) {
            StoreException e = readFails(s);
            assertTrue(e.isRetryable());
            assertEquals(u.toString(), e.dataset());
            assertTrue(e.detail().startsWith("connection failed during GET bytes=0-15: "), e.detail());
            assertInstanceOf(IOException.class, e.getCause());
        }
    }

    @Test
    void protocolViolationsNameTheRequestAndAreNotRetryable() throws IOException {
        server.put("/changing.bin", DATA);
        try (HttpRangeSource s = source("/changing.bin", CONFIG)) {
            s.read(0, new byte[10], 0, 10);
            server.put("/changing.bin", Arrays.copyOf(DATA, DATA.length + 1));
            StoreException e = assertThrows(StoreException.class, () -> s.read(10, new byte[10], 0, 10));
            assertFalse(e.isRetryable());
            assertEquals(
                    "object changed while reading: its length was 50000 bytes and is now 50001" + " (GET bytes=10-19)",
                    e.detail());
        }
        server.putSynthetic("/large.bin", 1 << 20).ignoreRange(true);
        try (HttpRangeSource s = source("/large.bin", CONFIG.withWholeObjectLimit(1000))) {
            StoreException e = readFails(s);
            assertFalse(e.isRetryable());
            assertTrue(e.detail().contains("ignores HTTP Range"), e.detail());
        }
    }

    @Test
    void aClosedSourceRefusesReads() {
        HttpRangeSource s = source("/data.bin", CONFIG);
        s.close();
        StoreException e = readFails(s);
        assertFalse(e.isRetryable());
        assertEquals(server.url("/data.bin") + ": closed", e.getMessage());
        assertEquals(0, server.gets());
    }

    @Test
    void theBlockCacheHandsOnTheSourcesStoreException() {
        server.failNextGets(100);
        ByteRangeConfig cfg = CONFIG.withRetries(0, Duration.ZERO);
        StoreException e =
                assertThrows(StoreException.class, () -> ByteRangeFiles.openRaf(server.uri("/data.bin"), cfg));
        assertTrue(e.isRetryable());
        assertEquals(server.url("/data.bin"), e.dataset());
    }

    @Test
    void unknownHostIsNamedAndNotRetried() {
        try (HttpRangeSource s = HttpRangeSource.open(URI.create("http://no-such-host.invalid/x.nc"), CONFIG)) {
            StoreException e = readFails(s);
            assertFalse(e.isRetryable());
            assertTrue(e.detail().startsWith("unknown host 'no-such-host.invalid' (DNS lookup failed)"), e.detail());
        }
    }
}
