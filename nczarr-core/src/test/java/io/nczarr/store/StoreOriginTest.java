package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.Origin;
import io.nczarr.source.TrustSettings;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, one door for stores: a store a document names (an aggregation fragment) is opened by the same resolver
 * call as the user's own ({@link Stores#open} → {@code io.nczarr.source.StoreSources}), with the document as
 * origin. So a remote aggregation's local fragment (folder or zip) is refused, and its S3 fragment on another host
 * is read unsigned even though the user's environment has credentials (the user's own URL there is signed: the
 * control). Before, {@code S3Store.open} took the fragment URL's keys and the default credentials as they were.
 */
class StoreOriginTest {
    private static final byte[] ZGROUP = "{\"zarr_format\":2}".getBytes(StandardCharsets.UTF_8);

    @TempDir
    static Path tmp;

    /** The other host the aggregation names (a distinct origin on loopback). */
    private static RangeHttpServer other;

    private static StoreResources resources;

    @BeforeAll
    static void start() throws Exception {
        other = RangeHttpServer.startOn("127.0.0.2");
        AwsEnvironment userHasKeys = AwsEnvironment.of(
                Map.of(),
                Map.of(
                        "AWS_ACCESS_KEY_ID", "AKIAUSERKEY0000000",
                        "AWS_SECRET_ACCESS_KEY", "user-secret",
                        "AWS_REGION", "us-east-1"));
        resources = new StoreResources(
                TestStores.S3_CLIENTS,
                userHasKeys,
                MemoryLimits.defaults(),
                false,
                () -> TestStores.HTTP_CLIENT,
                TrustSettings.defaults(),
                null);
        Path f = Files.createDirectories(tmp.resolve("f0.zarr"));
        Files.write(f.resolve(".zgroup"), ZGROUP);
    }

    @AfterAll
    static void stop() {
        other.close();
    }

    @BeforeEach
    void reset() {
        other.reset();
        other.put("/bucket/f0.zarr/.zgroup", ZGROUP);
        other.resetCounters();
    }

    /** The origin of URLs named inside an aggregation served at {@code http://127.0.0.1:1/agg.zarr}. */
    private static Origin remoteAggregation() {
        String agg = "http://127.0.0.1:1/agg.zarr";
        return Origin.user(DatasetUrl.parse(agg + "#mode=zarr"), TrustSettings.defaults())
                .within(URI.create(agg));
    }

    private static boolean signed(Map<String, List<String>> headers) {
        return headers.keySet().stream().anyMatch(n -> n.equals("authorization") || n.equals("x-amz-security-token"));
    }

    @Test
    void theUsersOwnS3UrlIsSigned() throws Exception {
        DatasetUrl url = DatasetUrl.parse(other.url("/bucket/f0.zarr") + "#mode=zarr,s3");
        try (Store s = Stores.open(url, resources)) {
            assertArrayEquals(ZGROUP, s.get(".zgroup").orElseThrow());
        }
        assertFalse(other.requestHeaders().isEmpty());
        assertTrue(other.requestHeaders().stream().allMatch(StoreOriginTest::signed), other.requestHeaders()::toString);
    }

    @Test
    void aRemoteAggregationsS3FragmentOnAnotherHostIsReadUnsigned() throws Exception {
        for (String fragment : List.of("#mode=zarr,s3", "#mode=zarr,s3&aws.profile=default")) {
            other.resetCounters();
            DatasetUrl url = DatasetUrl.parse(other.url("/bucket/f0.zarr") + fragment);
            try (Store s = Stores.open(url, resources.withOrigin(remoteAggregation()))) {
                assertArrayEquals(ZGROUP, s.get(".zgroup").orElseThrow());
            }
            assertFalse(other.requestHeaders().isEmpty(), fragment);
            for (Map<String, List<String>> h : other.requestHeaders()) {
                assertFalse(signed(h), fragment + ": the user's credentials reached the other host: " + h);
            }
        }
    }

    @Test
    void aRemoteAggregationsLocalFragmentIsRefusedWhateverItsKind() throws Exception {
        Path zip = tmp.resolve("f1.zip");
        Files.write(zip, new byte[] {'P', 'K', 3, 4});
        for (String local : List.of(
                tmp.resolve("f0.zarr").toString(),
                tmp.resolve("f0.zarr").toUri() + "#mode=zarr,file",
                zip.toUri() + "#mode=zarr,zip")) {
            TargetRefusedException e = assertThrows(
                    TargetRefusedException.class,
                    () -> Stores.open(DatasetUrl.parse(local), resources.withOrigin(remoteAggregation())),
                    local);
            assertTrue(e.getMessage().contains("agg.zarr"), e.getMessage());
        }
    }

    @Test
    void aDocumentNamedHttpStoreMayNotCarryCredentialsInItsUrl() {
        String withPassword = other.url("/bucket/f0.zarr").replace("http://", "http://u:pw@") + "#mode=zarr";
        StoreException e = assertThrows(
                StoreException.class,
                () -> Stores.open(DatasetUrl.parse(withPassword), resources.withOrigin(remoteAggregation())));
        assertFalse(e.getMessage().contains("pw@"), e.getMessage());
    }
}
