package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.nczarr.error.StoreException;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GETs signed and sent past the SDK's pipeline answer exactly as the SDK's GetObject does: the same bytes,
 * the same missing objects, the same refusals, on a real S3 server; and a region redirect hands the bucket
 * to the SDK.
 */
class DirectGetsTest {

    static LocalS3Server server;
    static CountingProxy proxy;
    static CountingProxy anonProxy;

    @BeforeAll
    static void start() throws IOException {
        server = LocalS3Server.start(S3BucketTest.KEY_ID, S3BucketTest.SECRET);
        server.createBucket("bucket");
        server.put("bucket", "ds/v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        server.put("bucket", "ds/empty", new byte[0]);
        server.put("bucket", "ds/odd key+name%/é/1", new byte[] {42});
        proxy = CountingProxy.start(server.endpoint());
        anonProxy = CountingProxy.start(server.anonymousEndpoint());
    }

    @AfterAll
    static void stop() {
        proxy.close();
        anonProxy.close();
        server.close();
    }

    private static S3Bucket open(URI endpoint, String keyId, String secret, boolean sdkGets) {
        S3Settings s = S3BucketTest.settings(endpoint, keyId, secret, Map.of("nczarr.s3.sdkgets", "" + sdkGets));
        return S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create));
    }

    /** Every outcome of a set of requests: bytes, or the failure's type, retryability and first words. */
    private static List<String> outcomes(S3Bucket b) {
        List<String> out = new ArrayList<>();
        out.add(run(() -> b.get("ds/v/0", 100)));
        out.add(run(() -> b.get("ds/empty", 100)));
        out.add(run(() -> b.get("ds/odd key+name%/é/1", 100)));
        out.add(run(() -> b.get("ds/nosuch", 100)));
        out.add(run(() -> b.get("ds/v/0", 4)));
        out.add(run(() -> b.getRange("ds/v/0", 2, 3)));
        out.add(run(() -> b.getRange("ds/v/0", 6, 10)));
        out.add(run(() -> b.getRange("ds/v/0", 8, 10)));
        out.add(run(() -> b.getRange("ds/empty", 0, 4)));
        out.add(run(() -> b.getSuffix("ds/v/0", 3)));
        out.add(run(() -> b.getSuffix("ds/v/0", 30)));
        out.add(run(() -> b.getSuffix("ds/empty", 3)));
        out.add(run(() -> b.getSuffix("ds/nosuch", 3)));
        out.add(run(() -> {
            byte[] buf = new byte[4];
            S3Bucket.RangeRead r = b.readRange("ds/v/0", 5, buf, 0, 4);
            return Optional.of(java.util.Arrays.copyOf(buf, Math.max(0, r.bytes())));
        }));
        out.add(run(() -> b.readRange("ds/nosuch", 0, new byte[1], 0, 1).bytes() < 0
                ? Optional.empty()
                : Optional.of(new byte[0])));
        return out;
    }

    interface Call {
        Optional<byte[]> run() throws IOException;
    }

    private static String run(Call c) {
        try {
            return c.run().map(java.util.Arrays::toString).orElse("missing");
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            String kind = e instanceof StoreException se ? "StoreException retryable=" + se.isRetryable() : "";
            return e.getClass().getSimpleName() + " " + kind + ": " + m.substring(0, Math.min(40, m.length()));
        }
    }

    @Test
    void directAndSdkGetsAgreeOnEveryOutcome() {
        try (S3Bucket direct = open(proxy.endpoint(), S3BucketTest.KEY_ID, S3BucketTest.SECRET, false);
                S3Bucket sdk = open(proxy.endpoint(), S3BucketTest.KEY_ID, S3BucketTest.SECRET, true)) {
            assertTrue(direct.sendsGetsDirectly());
            assertFalse(sdk.sendsGetsDirectly());
            List<String> a = outcomes(direct);
            List<String> b = outcomes(sdk);
            assertEquals(b, a);
            assertEquals("[1, 2, 3, 4, 5, 6, 7, 8]", a.get(0));
            assertEquals("[]", a.get(1));
            assertEquals("[42]", a.get(2));
            assertEquals("missing", a.get(3));
            assertEquals("[6, 7, 8]", a.get(9));
            assertTrue(direct.sendsGetsDirectly(), "no redirect, so still direct");
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void refusalsAreTheSameErrors(boolean sdkGets) {
        try (S3Bucket b = open(proxy.endpoint(), S3BucketTest.KEY_ID, "wrong-secret-0000000000", sdkGets)) {
            StoreException e = assertThrows(StoreException.class, () -> b.get("ds/v/0", 100));
            assertTrue(e.getMessage().contains("HTTP 403"), e.getMessage());
            assertTrue(e.getMessage().contains("/bucket/ds/v/0"), e.getMessage());
            assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
            assertFalse(e.isRetryable());
        }
        S3Settings s = S3BucketTest.settings(
                proxy.endpoint(), S3BucketTest.KEY_ID, S3BucketTest.SECRET, Map.of("nczarr.s3.sdkgets", "" + sdkGets));
        S3Settings noBucket = new S3Settings(
                S3Location.parse(URI.create(proxy.endpoint() + "/nosuchbucket/ds")),
                s.profile(),
                s.region(),
                "test",
                s.credentials(),
                s.tuning());
        try (S3Bucket b = S3Bucket.open(noBucket, new S3ClientPool(S3ClientFactory::create))) {
            StoreException e = assertThrows(StoreException.class, () -> b.get("ds/v/0", 100));
            assertTrue(e.getMessage().contains("NoSuchBucket"), e.getMessage());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void unsignedRequestsReachAPublicEndpoint(boolean sdkGets) throws IOException {
        try (S3Bucket b = open(anonProxy.endpoint(), null, null, sdkGets)) {
            assertArrayEquals(new byte[] {3, 4}, b.getRange("ds/v/0", 2, 2).orElseThrow());
            assertTrue(b.get("ds/nosuch", 10).isEmpty());
        }
    }

    @Test
    void retryableFailuresAreRetriedOnTheDirectPath() throws IOException {
        AtomicInteger n = new AtomicInteger();
        proxy.faults(r -> n.incrementAndGet() == 1 ? CountingProxy.Fault.status(503, "SlowDown") : null);
        try (S3Bucket b = open(proxy.endpoint(), S3BucketTest.KEY_ID, S3BucketTest.SECRET, false)) {
            assertArrayEquals(
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, b.get("ds/v/0", 100).orElseThrow());
        } finally {
            proxy.faults(null);
        }
        assertEquals(2, n.get());
    }

    @Test
    void aDrippedErrorBodyEndsByTheDeadline() throws IOException {
        // a server answering 404 with an error body of 300 bytes, one every 100 ms (30 s in all)
        HttpServer slow = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        slow.createContext("/", x -> {
            x.sendResponseHeaders(404, 300);
            try (OutputStream out = x.getResponseBody()) {
                for (int i = 0; i < 300; i++) {
                    out.write(' ');
                    out.flush();
                    Thread.sleep(100);
                }
            } catch (IOException | InterruptedException e) {
                // the client hung up
            }
        });
        slow.setExecutor(Executors.newCachedThreadPool());
        slow.start();
        URI endpoint = URI.create("http://127.0.0.1:" + slow.getAddress().getPort());
        S3Settings s = S3BucketTest.settings(
                endpoint,
                null,
                null,
                Map.of("nczarr.s3.attempttimeoutms", "700", "nczarr.s3.requesttimeoutms", "2000"));
        long t0 = System.nanoTime();
        try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
            assertTrue(b.sendsGetsDirectly());
            try {
                assertTrue(b.get("ds/nosuch", 100).isEmpty(), "a 404 is missing, whatever its body");
            } catch (IOException e) {
                assertInstanceOf(StoreException.class, e); // or a clean time-out
            }
        } finally {
            slow.stop(0);
        }
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertTrue(ms < 5_000, "took " + ms + " ms");
    }

    @Test
    void aRegionRedirectHandsTheBucketToTheSdk() throws IOException {
        AtomicInteger n = new AtomicInteger();
        proxy.faults(r -> n.incrementAndGet() == 1 ? CountingProxy.Fault.status(301, "PermanentRedirect") : null);
        try (S3Bucket b = open(proxy.endpoint(), S3BucketTest.KEY_ID, S3BucketTest.SECRET, false)) {
            assertTrue(b.sendsGetsDirectly());
            assertArrayEquals(
                    new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, b.get("ds/v/0", 100).orElseThrow());
            assertFalse(b.sendsGetsDirectly(), "later GETs go through the SDK, which follows redirects");
        } finally {
            proxy.faults(null);
        }
    }

    @Test
    void objectUrisAsTheSdkAddressesThem() {
        DirectGets path = DirectGets.create(spec(URI.create("http://127.0.0.1:9000"), "us-east-1", true));
        assertNotNull(path);
        assertEquals(
                "http://127.0.0.1:9000/bucket/a%20b/c%2Bd/%C3%A9",
                path.objectUri("bucket", "a b/c+d/é").toString());
        path.close();
        DirectGets aws = DirectGets.create(spec(null, "eu-west-2", false));
        assertNotNull(aws);
        assertEquals(
                "https://my-bucket.s3.eu-west-2.amazonaws.com/k/0.0",
                aws.objectUri("my-bucket", "k/0.0").toString());
        assertEquals(
                "https://s3.eu-west-2.amazonaws.com/my.dotted.bucket/k",
                aws.objectUri("my.dotted.bucket", "k").toString());
        aws.close();
        assertNull(DirectGets.create(spec(null, "cn-north-1", false)), "other partitions: the SDK");
        assertNull(
                DirectGets.create(spec(URI.create("https://host/prefix"), "us-east-1", true)), "endpoint with a path");
    }

    private static S3ClientSpec spec(URI endpoint, String region, boolean pathStyle) {
        return new S3ClientSpec(endpoint, region, pathStyle, new S3Credentials.Anonymous(), 4, 1000, 2000);
    }
}
