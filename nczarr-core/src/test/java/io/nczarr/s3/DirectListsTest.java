package io.nczarr.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.nczarr.error.StoreException;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.core.exception.SdkClientException;

/**
 * LIST and HEAD past the SDK's pipeline answer as the SDK's ListObjectsV2 and HeadObject do, on a real S3 server,
 * signed and unsigned, over more than one page; and a bucket that only GETs, HEADs and LISTs never builds the
 * SDK's client (most of a fresh process's first S3 open).
 */
class DirectListsTest {

    static LocalS3Server server;
    static final int MANY = 1003;

    @BeforeAll
    static void start() throws IOException {
        server = LocalS3Server.start(S3BucketTest.KEY_ID, S3BucketTest.SECRET);
        server.createBucket("bucket");
        for (String k : List.of(
                "ds/zarr.json",
                "ds/a/zarr.json",
                "ds/a/c/0/0",
                "ds/b c/zarr.json",
                "ds/odd key+name%&<>/é/1",
                "ds/sub/deeper/x",
                "top")) {
            server.put("bucket", k, k.getBytes(StandardCharsets.UTF_8));
        }
        for (int i = 0; i < MANY; i++) {
            server.put("bucket", "many/k" + i, new byte[] {(byte) i});
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static S3Bucket open(URI endpoint, boolean signed, boolean sdk, S3ClientPool pool) {
        S3Settings s = S3BucketTest.settings(
                endpoint,
                signed ? S3BucketTest.KEY_ID : null,
                signed ? S3BucketTest.SECRET : null,
                Map.of("nczarr.s3.sdkgets", "" + sdk));
        return S3Bucket.open(s, pool);
    }

    private static List<String> outcomes(S3Bucket b) {
        List<String> out = new ArrayList<>();
        for (String prefix : List.of("", "ds/", "ds/a/", "ds/odd key+name%&<>/", "ds/sub/", "nosuch/", "many/")) {
            out.add(run(() -> String.valueOf(b.list(prefix))));
        }
        for (String key : List.of("ds/zarr.json", "ds/odd key+name%&<>/é/1", "ds/nosuch", "many/k7")) {
            out.add(run(() -> String.valueOf(b.length(key))));
        }
        return out;
    }

    interface Call {
        String run() throws IOException;
    }

    private static String run(Call c) {
        try {
            return c.run();
        } catch (IOException e) {
            String m = String.valueOf(e.getMessage());
            return e.getClass().getSimpleName() + ": " + m.substring(0, Math.min(60, m.length()));
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void directAndSdkAgreeOnListsAndLengths(boolean signed) {
        URI endpoint = signed ? server.endpoint() : server.anonymousEndpoint();
        S3ClientPool directPool = new S3ClientPool(S3ClientFactory::create);
        S3ClientPool sdkPool = new S3ClientPool(S3ClientFactory::create);
        try (S3Bucket direct = open(endpoint, signed, false, directPool);
                S3Bucket sdk = open(endpoint, signed, true, sdkPool)) {
            List<String> a = outcomes(direct);
            List<String> b = outcomes(sdk);
            assertEquals(b, a);
            assertEquals("[ds, many, top]", a.get(0));
            assertEquals("[a, b c, odd key+name%&<>, sub, zarr.json]", a.get(1));
            assertEquals("[é]", a.get(3));
            assertEquals("[]", a.get(5));
            assertEquals(MANY, a.get(6).split(",").length, "a LIST of two pages");
            assertEquals("12", a.get(7));
            assertTrue(a.get(9).startsWith("NoSuchObject"), a.get(9));
            assertFalse(directPool.sdkClientBuilt(direct.settings().clientSpec()), "no SDK client for GET/HEAD/LIST");
            assertTrue(sdkPool.sdkClientBuilt(sdk.settings().clientSpec()));
        }
    }

    @Test
    void aRefusedListIsTheSameErrorAsTheSdks() {
        for (boolean sdk : new boolean[] {false, true}) {
            S3Settings s = S3BucketTest.settings(
                    server.endpoint(),
                    S3BucketTest.KEY_ID,
                    "wrong-secret-0000000000",
                    Map.of("nczarr.s3.sdkgets", "" + sdk));
            try (S3Bucket b = S3Bucket.open(s, new S3ClientPool(S3ClientFactory::create))) {
                StoreException e = assertThrows(StoreException.class, () -> b.list("ds/"));
                assertTrue(e.getMessage().contains("HTTP 403"), e.getMessage());
                assertFalse(e.getMessage().contains("wrong-secret"), e.getMessage());
                assertFalse(e.isRetryable());
            }
        }
    }

    @Test
    void aServerRepeatingItsContinuationTokenIsAnErrorNotAHang() throws IOException {
        AtomicInteger pages = new AtomicInteger();
        HttpServer loop = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        loop.createContext("/", x -> {
            // tokens a, b, a, b, ...
            String token = pages.getAndIncrement() % 2 == 0 ? "a" : "b";
            byte[] page = ("<?xml version=\"1.0\"?><ListBucketResult><IsTruncated>true</IsTruncated>"
                            + "<Contents><Key>ds/k</Key><Size>1</Size></Contents>"
                            + "<NextContinuationToken>" + token + "</NextContinuationToken></ListBucketResult>")
                    .getBytes(StandardCharsets.UTF_8);
            x.sendResponseHeaders(200, page.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(page);
            }
        });
        loop.start();
        try (S3Bucket b = open(
                URI.create("http://127.0.0.1:" + loop.getAddress().getPort()),
                false,
                false,
                new S3ClientPool(S3ClientFactory::create))) {
            StoreException e = assertThrows(StoreException.class, () -> b.list("ds/"));
            assertTrue(e.getMessage().contains("same continuation token"), e.getMessage());
            assertEquals(3, pages.get());
        } finally {
            loop.stop(0);
        }
    }

    @Test
    void pagesAreReadWithoutDtdsAndMustBeListBucketResults() {
        String bomb = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;\">]>"
                + "<ListBucketResult><Contents><Key>&b;</Key></Contents></ListBucketResult>";
        assertThrows(SdkClientException.class, () -> ListPages.parse(bomb.getBytes(StandardCharsets.UTF_8)));
        String external = "<?xml version=\"1.0\"?><!DOCTYPE r [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>"
                + "<ListBucketResult><Contents><Key>&x;</Key></Contents></ListBucketResult>";
        assertThrows(SdkClientException.class, () -> ListPages.parse(external.getBytes(StandardCharsets.UTF_8)));
        SdkClientException wrongRoot = assertThrows(
                SdkClientException.class, () -> ListPages.parse("<Error><Code>x</Code></Error>".getBytes()));
        assertTrue(wrongRoot.getMessage().contains("not a ListBucketResult"), wrongRoot.getMessage());
        assertThrows(SdkClientException.class, () -> ListPages.parse(new byte[0]));
        assertThrows(
                SdkClientException.class,
                () -> ListPages.parse(
                        "<ListBucketResult><Contents><Size>1</Size></Contents></ListBucketResult>".getBytes()));
        ListPages r = ListPages.parse(("<ListBucketResult><Prefix>p/</Prefix>"
                        + "<Contents><Key>p/a&amp;b</Key><Size>3</Size></Contents>"
                        + "<CommonPrefixes><Prefix>p/q/</Prefix></CommonPrefixes>"
                        + "<IsTruncated>false</IsTruncated></ListBucketResult>")
                .getBytes(StandardCharsets.UTF_8));
        assertEquals(List.of("p/a&b"), r.keys());
        assertEquals(List.of("p/q/"), r.prefixes());
        assertFalse(r.truncated());
    }
}
