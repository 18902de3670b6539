package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.http.RangeHttpServer;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.AccessDeniedException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link HttpRangeSource} against a real loopback server, well-behaved and not. */
class HttpRangeSourceTest {
    private static RangeHttpServer server;
    private static final byte[] DATA = new byte[100_000];
    private static final ByteRangeConfig CONFIG = ByteRangeConfig.defaults()
            .withRetries(2, Duration.ofMillis(10))
            .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(10));

    @BeforeAll
    static void start() throws IOException {
        new Random(1).nextBytes(DATA);
        server = RangeHttpServer.start();
        server.put("/data.bin", DATA).put("/empty.bin", new byte[0]);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    @BeforeEach
    void reset() {
        server.reset();
    }

    private static HttpRangeSource source(String path) {
        return HttpRangeSource.open(server.uri(path), CONFIG);
    }

    @Test
    void rangeEndIsInclusiveAndBytesMatch() throws IOException {
        try (HttpRangeSource s = source("/data.bin")) {
            byte[] b = new byte[100];
            assertEquals(100, s.read(10, b, 0, 100));
            assertArrayEquals(Arrays.copyOfRange(DATA, 10, 110), b);
            assertEquals(List.of("bytes=10-109"), server.ranges());
            byte[] one = new byte[1];
            assertEquals(1, s.read(0, one, 0, 1));
            assertEquals("bytes=0-0", server.ranges().get(1));
            assertEquals(DATA[0], one[0]);
            assertEquals(101, s.stats().bytes());
        }
    }

    @Test
    void lengthComesFromTheFirstRangedGetWithoutHead() throws IOException {
        try (HttpRangeSource s = source("/data.bin")) {
            assertEquals(-1, s.knownLength());
            s.read(0, new byte[10], 0, 10);
            assertEquals(DATA.length, s.knownLength());
            assertEquals(DATA.length, s.length());
            assertEquals(0, server.heads());
            assertEquals(1, server.gets());
            assertTrue(s.lastModified() > 0);
        }
    }

    @Test
    void lengthBeforeAnyReadIsOneHead() throws IOException {
        try (HttpRangeSource s = source("/data.bin")) {
            assertEquals(DATA.length, s.length());
            assertEquals(DATA.length, s.length());
            assertEquals(1, server.heads());
            assertEquals(0, server.gets());
        }
    }

    @Test
    void refusedHeadFallsBackToOneByteGet() throws IOException {
        for (int status : new int[] {405, 403, 501}) {
            server.reset();
            server.headStatus(status);
            try (HttpRangeSource s = source("/data.bin")) {
                assertEquals(DATA.length, s.length(), "HEAD " + status);
                assertEquals(1, server.heads());
                assertEquals(List.of("bytes=0-0"), server.ranges());
            }
        }
    }

    @Test
    void readsAtTheEnd() throws IOException {
        try (HttpRangeSource s = source("/data.bin")) {
            byte[] b = new byte[100];
            // length unknown yet: the server clips the range
            assertEquals(40, s.read(DATA.length - 40, b, 0, 100));
            assertArrayEquals(Arrays.copyOfRange(DATA, DATA.length - 40, DATA.length), Arrays.copyOf(b, 40));
            assertEquals(-1, s.read(DATA.length, b, 0, 100));
            assertEquals(-1, s.read(DATA.length + 5, b, 0, 100));
            assertEquals(0, s.read(5, b, 0, 0));
        }
        server.resetCounters();
        try (HttpRangeSource s = source("/data.bin")) {
            // length unknown and offset past the end: 416 tells the length
            assertEquals(-1, s.read(DATA.length + 10, new byte[4], 0, 4));
            assertEquals(DATA.length, s.knownLength());
        }
    }

    @Test
    void emptyObject() throws IOException {
        try (HttpRangeSource s = source("/empty.bin")) {
            assertEquals(-1, s.read(0, new byte[8], 0, 8));
            assertEquals(0, s.length());
        }
        try (HttpRangeSource s = source("/empty.bin")) {
            assertEquals(0, s.length());
        }
    }

    @Test
    void notFoundNamesTheUrl() {
        try (HttpRangeSource s = source("/missing.nc")) {
            FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> s.read(0, new byte[4], 0, 4));
            assertTrue(e.getMessage().contains(server.url("/missing.nc")), e.getMessage());
            assertTrue(e.getMessage().contains("404"), e.getMessage());
            assertThrows(FileNotFoundException.class, s::length);
        }
        assertEquals(1, server.gets(), "404 is not retried");
    }

    @Test
    void forbiddenNamesTheUrlAndTheS3Code() {
        server.forceStatus(403);
        try (HttpRangeSource s = source("/data.bin")) {
            AccessDeniedException e = assertThrows(AccessDeniedException.class, () -> s.read(0, new byte[4], 0, 4));
            assertTrue(e.getMessage().contains(server.url("/data.bin")), e.getMessage());
            assertTrue(e.getMessage().contains("403") && e.getMessage().contains("AccessDenied"), e.getMessage());
        }
        assertEquals(1, server.gets(), "403 is not retried");
    }

    @Test
    void transient503IsRetried() throws IOException {
        server.failNextGets(2);
        try (HttpRangeSource s = source("/data.bin")) {
            byte[] b = new byte[50];
            assertEquals(50, s.read(100, b, 0, 50));
            assertArrayEquals(Arrays.copyOfRange(DATA, 100, 150), b);
            // a late request of an earlier test may take one of the 503s on a loaded machine: at least one
            // retry, and every GET of this source but the last answered 503
            long retries = s.stats().retries();
            assertTrue(retries == 1 || retries == 2, "retries " + retries);
            assertEquals(retries + 1, s.stats().gets());
        }
        assertEquals(3, server.gets());
    }

    @Test
    void persistent503GivesUpAfterTheRetries() {
        server.failNextGets(1000);
        try (HttpRangeSource s = source("/data.bin")) {
            IOException e = assertThrows(IOException.class, () -> s.read(0, new byte[4], 0, 4));
            assertTrue(e.getMessage().contains(server.url("/data.bin")), e.getMessage());
            assertTrue(e.getMessage().contains("503") && e.getMessage().contains("3 attempts"), e.getMessage());
        }
        assertEquals(3, server.gets());
    }

    @Test
    void truncatedBodyIsAnErrorNeverZeros() {
        server.truncate(true);
        try (HttpRangeSource s = source("/data.bin")) {
            byte[] b = new byte[10_000];
            IOException e = assertThrows(IOException.class, () -> s.read(0, b, 0, b.length));
            assertTrue(e.getMessage().contains(server.url("/data.bin")), e.getMessage());
            assertTrue(e.getMessage().contains("3 attempts"), e.getMessage());
        }
        assertEquals(3, server.gets(), "a truncated body is retried");
    }

    @Test
    void serverIgnoringRangeSmallObjectIsReadWholeOnce() throws IOException {
        server.ignoreRange(true);
        try (HttpRangeSource s = source("/data.bin")) {
            byte[] b = new byte[100];
            assertEquals(100, s.read(500, b, 0, 100));
            assertArrayEquals(Arrays.copyOfRange(DATA, 500, 600), b);
            assertTrue(s.servingWholeObject());
            assertEquals(DATA.length, s.length());
            assertEquals(100, s.read(90_000, b, 0, 100));
            assertArrayEquals(Arrays.copyOfRange(DATA, 90_000, 90_100), b);
            assertEquals(-1, s.read(DATA.length, b, 0, 1));
        }
        assertEquals(1, server.gets());
    }

    @Test
    void serverIgnoringRangeLargeObjectFailsWithoutDownloadingIt() throws IOException {
        long huge = 4L << 30; // 4 GiB, generated on the fly
        server.putSynthetic("/huge.nc", huge).ignoreRange(true);
        ByteRangeConfig cfg = CONFIG.withWholeObjectLimit(1 << 20);
        long t0 = System.nanoTime();
        try (HttpRangeSource s = HttpRangeSource.open(server.uri("/huge.nc"), cfg)) {
            IOException e = assertThrows(IOException.class, () -> s.read(0, new byte[4096], 0, 4096));
            assertTrue(e.getMessage().contains(server.url("/huge.nc")), e.getMessage());
            assertTrue(e.getMessage().contains("ignores HTTP Range"), e.getMessage());
            assertTrue(s.stats().bytes() < (1 << 20), "client kept " + s.stats().bytes());
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 5000, "took " + ms + " ms");
        assertEquals(1, server.gets(), "not retried");
        // the cancelled download stops the server soon (socket buffers may hold a few MB)
        assertTrue(server.bytesSent() < 256L << 20, "server sent " + server.bytesSent());
    }

    @Test
    void timeoutNamesTheUrlAndIsNotRetried() {
        server.latencyMs(3000);
        ByteRangeConfig cfg = CONFIG.withTimeouts(Duration.ofSeconds(2), Duration.ofMillis(300));
        long t0 = System.nanoTime();
        try (HttpRangeSource s = HttpRangeSource.open(server.uri("/data.bin"), cfg)) {
            IOException e = assertThrows(IOException.class, () -> s.read(0, new byte[4], 0, 4));
            assertTrue(e.getMessage().contains(server.url("/data.bin")), e.getMessage());
            assertTrue(
                    e.getMessage().contains("300 ms") && e.getMessage().contains("nczarr.bytes.timeout"),
                    e.getMessage());
        }
        assertTrue((System.nanoTime() - t0) / 1_000_000 < 2500);
        assertEquals(1, server.gets());
    }

    @Test
    void connectionRefusedNamesTheUrl() throws IOException {
        int port;
        try (ServerSocket ss = new ServerSocket(0)) {
            port = ss.getLocalPort();
        }
        URI u = URI.create("http://127.0.0.1:" + port + "/x.nc");
        try (HttpRangeSource s = HttpRangeSource.open(u, CONFIG)) {
            IOException e = assertThrows(IOException.class, () -> s.read(0, new byte[4], 0, 4));
            assertTrue(e.getMessage().contains(u.toString()), e.getMessage());
            assertEquals(2, s.stats().retries());
        }
    }

    @Test
    void objectChangingBetweenReadsIsDetected() throws IOException {
        server.put("/changing.bin", DATA);
        try (HttpRangeSource s = source("/changing.bin")) {
            s.read(0, new byte[10], 0, 10);
            server.put("/changing.bin", Arrays.copyOf(DATA, DATA.length + 1));
            IOException e = assertThrows(IOException.class, () -> s.read(10, new byte[10], 0, 10));
            assertTrue(e.getMessage().contains("changed"), e.getMessage());
            assertTrue(e.getMessage().contains(server.url("/changing.bin")), e.getMessage());
        }
    }

    @Test
    void concurrentReadsOnOneSource() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (HttpRangeSource s = source("/data.bin")) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long seed = t;
                fs.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int i = 0; i < 100; i++) {
                        int off = r.nextInt(DATA.length);
                        int len = 1 + r.nextInt(5000);
                        byte[] b = new byte[len];
                        int n = s.read(off, b, 0, len);
                        int expect = Math.min(len, DATA.length - off);
                        assertEquals(expect, n);
                        assertArrayEquals(Arrays.copyOfRange(DATA, off, off + expect), Arrays.copyOf(b, expect));
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void messagesHideSignaturesAndRejectCredentialsInTheUrl() {
        String r = HttpRangeSource.redact(URI.create(
                "https://b.s3.amazonaws.com/k.nc?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F1&X-Amz-Signature=abc"));
        assertEquals(
                "https://b.s3.amazonaws.com/k.nc?X-Amz-Algorithm=AWS4&X-Amz-Credential=REDACTED"
                        + "&X-Amz-Signature=REDACTED",
                r);
        assertThrows(
                IllegalArgumentException.class,
                () -> HttpRangeSource.open(URI.create("http://u:p@127.0.0.1/x"), CONFIG));
        assertThrows(
                IllegalArgumentException.class, () -> HttpRangeSource.open(URI.create("ftp://127.0.0.1/x"), CONFIG));
        assertFalse(r.contains("abc"));
    }
}
