package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The HTTP store's answers to what a plain server does: 404, 403, 5xx, slow answers, no Range support. */
class HttpStoreTest {
    static RangeHttpServer http;

    @BeforeAll
    static void start() throws IOException {
        http = RangeHttpServer.start();
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    @BeforeEach
    void reset() {
        http.reset();
        http.put("/ds/.zgroup", "{\"zarr_format\":2}".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        http.put("/ds/v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
    }

    static HttpStore open(String fragment) throws IOException {
        return (HttpStore) TestStores.open(DatasetUrl.parse(http.url("/ds") + "#mode=zarr" + fragment));
    }

    @Test
    void aMissingKeyIsOneGetAndEmpty() throws IOException {
        try (HttpStore s = open("")) {
            http.resetCounters();
            assertTrue(s.get("v/1").isEmpty());
            assertEquals(1, http.gets());
            assertEquals(0, http.heads());
        }
    }

    @Test
    void forbiddenIsAnErrorNamingTheUrlAndNotRetried() throws IOException {
        try (HttpStore s = open("")) {
            http.forceStatus(403);
            http.resetCounters();
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertTrue(
                    e.getMessage().contains(http.url("/ds/v/0"))
                            && e.getMessage().contains("403"),
                    e.getMessage());
            assertFalse(e.isRetryable());
            assertEquals("v/0", e.key());
            assertEquals(1, http.gets());
        }
    }

    @Test
    void serverErrorsAreRetriedWithinTheLimit() throws IOException {
        try (HttpStore s = open("&nczarr.http.retryDelayMs=1&nczarr.http.maxRetries=2")) {
            http.failNextGets(2);
            assertArrayEquals(new byte[] {3, 4}, s.getRange("v/0", 2, 2).orElseThrow());
            assertEquals(2, s.stats().snapshot().retries());
            http.failNextGets(5);
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertTrue(e.isRetryable());
            assertTrue(
                    e.getMessage().contains("503") && e.getMessage().contains("gave up after 3 attempts"),
                    e.getMessage());
        }
    }

    @Test
    void aSlowServerTimesOutNamingTheSetting() throws IOException {
        try (HttpStore s = open("&nczarr.http.timeoutMs=100&nczarr.http.maxRetries=0")) {
            http.latencyMs(1000);
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains("nczarr.http.timeoutMs"), e.getMessage());
        }
    }

    @Test
    void aServerIgnoringRangeStillGivesTheRightBytes() throws IOException {
        try (HttpStore s = open("")) {
            http.ignoreRange(true);
            assertArrayEquals(new byte[] {3, 4}, s.getRange("v/0", 2, 2).orElseThrow());
            assertArrayEquals(new byte[] {7, 8}, s.getSuffix("v/0", 2).orElseThrow());
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheKey() {
        StoreException e = assertThrows(StoreException.class, () -> open("&nczarr.http.concurrency=zero"));
        assertTrue(e.getMessage().contains("nczarr.http.concurrency"), e.getMessage());
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
    }
}
