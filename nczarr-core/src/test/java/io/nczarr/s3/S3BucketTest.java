package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** GET, ranges, LIST and error handling against a real S3 server on loopback. */
class S3BucketTest {

    static final String KEY_ID = "AKIATESTLOCAL";
    static final String SECRET = "local-secret-0123456789";

    static LocalS3Server server;
    static CountingProxy proxy;
    static CountingProxy anonProxy;

    @BeforeAll
    static void start() throws IOException {
        server = LocalS3Server.start(KEY_ID, SECRET);
        server.createBucket("bucket");
        server.put("bucket", "ds/.zgroup", bytes("{\"zarr_format\":2}"));
        server.put("bucket", "ds/v/.zarray", bytes("{}"));
        server.put("bucket", "ds/v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        server.put("bucket", "ds/v/1", new byte[] {9});
        server.put("bucket", "ds/g/w/0.0", new byte[] {1});
        server.put("bucket", "other/x", new byte[] {1});
        server.put("bucket", "other/empty", new byte[0]);
        proxy = CountingProxy.start(server.endpoint());
        anonProxy = CountingProxy.start(server.anonymousEndpoint());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        anonProxy.close();
        server.close();
    }

    @BeforeEach
    void reset() {
        proxy.reset();
        proxy.faults(null);
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static S3Settings settings(URI endpoint, String keyId, String secret, Map<String, String> fragment) {
        S3Location loc = S3Location.parse(URI.create(endpoint + "/bucket/ds"));
        S3Credentials c =
                keyId == null ? new S3Credentials.Anonymous() : new S3Credentials.Keys(keyId, secret, null, "test");
        Map<String, String> f = new HashMap<>(Map.of(S3Tuning.RETRY_BASE_DELAY_MS.toLowerCase(), "5"));
        f.putAll(fragment);
        return new S3Settings(
                loc,
                keyId == null ? "none" : "test",
                "us-east-1",
                "test",
                c,
                S3Tuning.from(f, AwsEnvironment.of(Map.of(), Map.of())));
    }

    static S3Bucket open(S3ClientPool pool) {
        return S3Bucket.open(settings(proxy.endpoint(), KEY_ID, SECRET, Map.of()), pool);
    }

    @Test
    void getRangeAndMissing() throws IOException {
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket b = open(pool)) {
            assertArrayEquals(
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, b.get("ds/v/0", 100).orElseThrow());
            assertTrue(b.get("ds/v/9", 100).isEmpty());
            assertTrue(b.get("ds/.zattrs", 100).isEmpty());
            assertArrayEquals(new byte[] {3, 4, 5}, b.getRange("ds/v/0", 2, 3).orElseThrow());
            assertArrayEquals(new byte[] {7, 8}, b.getRange("ds/v/0", 6, 10).orElseThrow());
            assertArrayEquals(new byte[0], b.getRange("ds/v/0", 8, 10).orElseThrow());
            assertTrue(b.getRange("ds/v/9", 0, 4).isEmpty());
        }
        CountingProxy.Counts c = proxy.counts();
        assertEquals(7, c.get(), c.toString());
        assertEquals(0, c.head(), "never a HEAD");
        assertEquals(0, c.list());
        assertEquals(0, pool.openClients());
    }

    @Test
    void objectSizeLimit() {
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket b = open(pool)) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/v/0", 4));
            assertTrue(e.getMessage().contains("ds/v/0"), e.getMessage());
        }
    }

    @Test
    void listGivesOneLevelWithDelimiter() throws IOException {
        try (S3Bucket b = open(new S3ClientPool(S3ClientFactory::create))) {
            assertEquals(List.of(".zgroup", "g", "v"), b.list("ds/"));
            assertEquals(List.of(".zarray", "0", "1"), b.list("ds/v/"));
            assertEquals(List.of(), b.list("ds/nosuch/"));
            assertEquals(List.of("ds", "other"), b.list(""));
        }
        assertEquals(4, proxy.counts().list());
        assertTrue(
                proxy.requests().get(0).query().contains("delimiter=%2F"),
                proxy.requests().toString());
    }

    @Test
    void wrongSecretIs403NotMissingAndNamesTheUrl() {
        S3Settings s = settings(proxy.endpoint(), KEY_ID, "wrong-secret-0000000000", Map.of());
        try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/.zgroup", 100));
            assertTrue(e.getMessage().contains("403"), e.getMessage());
            assertTrue(e.getMessage().contains(proxy.endpoint() + "/bucket/ds/.zgroup"), e.getMessage());
            assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
            // a missing key with bad credentials is still an error, not "missing"
            assertThrows(IOException.class, () -> b.get("ds/nosuch", 100));
        }
    }

    @Test
    void unsignedRequestsToTheSignedEndpointAreRefused() {
        S3Settings s = settings(proxy.endpoint(), null, null, Map.of());
        try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/.zgroup", 100));
            assertTrue(e.getMessage().contains("403"), e.getMessage());
            assertTrue(e.getMessage().contains("unsigned"), e.getMessage());
        }
    }

    @Test
    void anonymousEndpoint() throws IOException {
        S3Settings s = settings(anonProxy.endpoint(), null, null, Map.of());
        try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
            assertArrayEquals(new byte[] {9}, b.get("ds/v/1", 100).orElseThrow());
            assertTrue(b.get("ds/v/7", 100).isEmpty());
        }
    }

    @Test
    void missingBucketIsAnError() {
        S3Location loc = S3Location.parse(URI.create(proxy.endpoint() + "/nosuchbucket/ds"));
        S3Settings base = settings(proxy.endpoint(), KEY_ID, SECRET, Map.of());
        S3Settings s = new S3Settings(
                loc, base.profile(), base.region(), base.regionSource(), base.credentials(), base.tuning());
        try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/.zgroup", 100));
            assertTrue(e.getMessage().contains("NoSuchBucket"), e.getMessage());
        }
    }

    @Test
    void serverErrorsAndResetsAreRetried() throws IOException {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        proxy.faults(r -> {
            int n = seen.computeIfAbsent(r.path(), k -> new AtomicInteger()).incrementAndGet();
            if (r.path().endsWith("/v/0") && n <= 2) {
                return n == 1 ? CountingProxy.Fault.status(503, "SlowDown") : CountingProxy.Fault.RESET;
            }
            if (r.path().endsWith("/v/1") && n == 1) {
                return CountingProxy.Fault.status(500, "InternalError");
            }
            return null;
        });
        try (S3Bucket b = open(new S3ClientPool(S3ClientFactory::create))) {
            assertArrayEquals(
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, b.get("ds/v/0", 100).orElseThrow());
            assertArrayEquals(new byte[] {9}, b.get("ds/v/1", 100).orElseThrow());
        }
        assertEquals(5, proxy.counts().get(), proxy.requests().toString());
    }

    @Test
    void retriesAreBounded() {
        proxy.faults(r -> CountingProxy.Fault.status(503, "ServiceUnavailable"));
        try (S3Bucket b = S3Bucket.open(
                settings(proxy.endpoint(), KEY_ID, SECRET, Map.of("nczarr.s3.maxattempts", "3")),
                new S3ClientPool(S3ClientFactory::create))) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/v/0", 100));
            assertTrue(e.getMessage().contains("503"), e.getMessage());
        }
        assertEquals(3, proxy.counts().get());
    }

    @Test
    void forbiddenIsNotRetried() {
        proxy.faults(r -> CountingProxy.Fault.status(403, "AccessDenied"));
        try (S3Bucket b = open(new S3ClientPool(S3ClientFactory::create))) {
            IOException e = assertThrows(IOException.class, () -> b.get("ds/v/0", 100));
            assertTrue(e.getMessage().contains("AccessDenied"), e.getMessage());
        }
        assertEquals(1, proxy.counts().get());
    }

    @Test
    void clientsAreSharedPerSpecAndClosedWithTheLastUser() throws IOException {
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        S3Bucket a = open(pool);
        S3Bucket b = open(pool);
        S3Bucket other = S3Bucket.open(settings(anonProxy.endpoint(), null, null, Map.of()), pool);
        S3ClientSpec spec = a.settings().clientSpec();
        assertEquals(2, pool.openClients());
        assertEquals(2, pool.users(spec));
        S3ClientPool.Lease l1 = pool.acquire(spec);
        S3ClientPool.Lease l2 = pool.acquire(spec);
        assertSame(l1.client(), l2.client());
        assertNotSame(l1.client(), pool.acquire(other.settings().clientSpec()).client());
        l1.close();
        l2.close();
        a.close();
        a.close(); // twice is harmless
        assertEquals(1, pool.users(spec));
        assertArrayEquals(new byte[] {9}, b.get("ds/v/1", 100).orElseThrow(), "still usable by the other user");
        b.close();
        assertEquals(0, pool.users(spec));
        assertEquals(1, pool.openClients());
        other.close();
    }

    /** The fault on the first request of each path, then the server's answers. */
    static CountingProxy.FaultRule once(CountingProxy.Fault f) {
        Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
        return r -> seen.computeIfAbsent(r.path(), k -> new AtomicInteger()).incrementAndGet() == 1 ? f : null;
    }

    static final List<CountingProxy.Fault> BROKEN_BODIES = List.of(
            CountingProxy.Fault.resetAfter(2),
            CountingProxy.Fault.truncateAfter(3),
            CountingProxy.Fault.lengthDelta(-2),
            CountingProxy.Fault.lengthDelta(3),
            CountingProxy.Fault.drip(java.time.Duration.ofMillis(400)));

    static S3Bucket openWithDeadlines(S3ClientPool pool) {
        return S3Bucket.open(
                settings(
                        proxy.endpoint(),
                        KEY_ID,
                        SECRET,
                        Map.of("nczarr.s3.attempttimeoutms", "700", "nczarr.s3.requesttimeoutms", "2000")),
                pool);
    }

    @Test
    void brokenBodiesOfWholeAndRangedGetsAreRetried() throws IOException {
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket b = openWithDeadlines(pool)) {
            for (CountingProxy.Fault f : BROKEN_BODIES) {
                proxy.reset();
                proxy.faults(once(f));
                assertArrayEquals(
                        new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
                        b.get("ds/v/0", 100).orElseThrow(),
                        f.toString());
                assertEquals(2, proxy.counts().get(), f.toString());

                proxy.reset();
                proxy.faults(once(f));
                byte[] buf = new byte[5];
                S3Bucket.RangeRead r = b.readRange("ds/v/0", 2, buf, 0, 5);
                assertEquals(5, r.bytes(), f.toString());
                assertEquals(8, r.objectLength(), f.toString());
                assertArrayEquals(new byte[] {3, 4, 5, 6, 7}, buf, f.toString());
                assertEquals(2, proxy.counts().get(), f.toString());

                proxy.reset();
                proxy.faults(once(f));
                assertArrayEquals(new byte[] {7, 8}, b.getRange("ds/v/0", 6, 10).orElseThrow(), f.toString());
            }
        }
    }

    @Test
    void aBodyThatNeverCompletesIsAnErrorWithinTheDeadline() {
        proxy.faults(r -> CountingProxy.Fault.drip(java.time.Duration.ofMillis(300)));
        try (S3Bucket b = openWithDeadlines(new S3ClientPool(S3ClientFactory::create))) {
            long t0 = System.nanoTime();
            io.nczarr.error.StoreException e =
                    assertThrows(io.nczarr.error.StoreException.class, () -> b.get("ds/v/0", 100));
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms >= 1900 && ms < 6000, ms + " ms"); // the deadline, plus room for a busy machine
            assertTrue(e.isRetryable());
            assertTrue(e.getMessage().contains(proxy.endpoint() + "/bucket/ds/v/0"), e.getMessage());
            assertTrue(e.getMessage().contains("timed out"), e.getMessage());
            assertFalse(e.getMessage().contains(SECRET), e.getMessage());
        }
    }

    @Test
    void listAndHeadAreRetriedToo() throws IOException {
        proxy.faults(once(CountingProxy.Fault.RESET));
        try (S3Bucket b = open(new S3ClientPool(S3ClientFactory::create))) {
            assertEquals(List.of(".zarray", "0", "1"), b.list("ds/v/"));
            assertEquals(2, proxy.counts().list());
            assertEquals(8, b.length("ds/v/0"));
            assertEquals(2, proxy.counts().head());
        }
    }

    @Test
    void anEmptyObjectIsReadWhole() throws IOException {
        try (S3Bucket b = open(new S3ClientPool(S3ClientFactory::create))) {
            assertArrayEquals(new byte[0], b.get("other/empty", 100).orElseThrow());
            assertArrayEquals(new byte[0], b.getRange("other/empty", 0, 4).orElseThrow());
        }
    }

    @Test
    void httpsAgainstAPlainHttpServerSuggestsHttp() {
        // s3://host:port means https; the loopback server speaks plain http
        URI https = URI.create("https://" + server.endpoint().getRawAuthority());
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket b = S3Bucket.open(settings(https, KEY_ID, SECRET, Map.of()), pool)) {
            StoreException e = assertThrows(StoreException.class, () -> b.get("ds/.zgroup", 100));
            String m = e.getMessage();
            assertTrue(m.contains("TLS handshake with " + https.getRawAuthority() + " failed"), m);
            assertTrue(m.contains("use http://" + https.getRawAuthority() + "/<bucket>/<key>#mode=...,s3"), m);
            assertFalse(e.isRetryable(), "the same handshake fails every time: " + m);
            assertEquals(1, count(m, "https://" + https.getRawAuthority() + "/bucket/ds/.zgroup"), m);
        }
    }

    @Test
    void unknownHostIsNamed() {
        URI nowhere = URI.create("http://no-such-host.invalid:9000");
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket b = S3Bucket.open(settings(nowhere, KEY_ID, SECRET, Map.of()), pool)) {
            StoreException e = assertThrows(StoreException.class, () -> b.get("ds/.zgroup", 100));
            String m = e.getMessage();
            assertTrue(m.contains("unknown host 'no-such-host.invalid:9000' (DNS lookup failed)"), m);
            assertFalse(e.isRetryable(), m);
            assertEquals(1, count(m, "no-such-host.invalid:9000/bucket/ds/.zgroup"), m);
        }
    }

    static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
