package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.PreconditionFailedException;
import io.nczarr.error.StoreException;
import io.nczarr.http.HttpSettings;
import io.nczarr.http.ReadPreconditions;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.HttpObjectSource;
import io.nczarr.source.HttpSourceSettings;
import io.nczarr.source.ObjectSource;
import io.nczarr.source.ObjectSources;
import io.nczarr.source.Origin;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.Store;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: virtual chunks are read with conditional ranged GETs ({@code If-Match: checksum_etag}, {@code
 * If-Unmodified-Since: checksum_last_modified}), so a changed object answers 412 and none of its bytes are
 * transferred; the loopback HTTP server and S3Proxy both honour the conditions.
 */
class ConditionalReadsTest {
    private static final byte[] DATA = new byte[4096];
    /** RangeHttpServer's Last-Modified, Tue, 15 Nov 1994 08:12:31 GMT. */
    private static final long SERVER_MTIME = 784887151L;

    private static RangeHttpServer http;
    private static HttpClient client;
    private static S3ClientPool pool;
    private static LocalS3Server s3;
    private static ObjectSources sources;

    @BeforeAll
    static void start() throws IOException {
        new Random(2323).nextBytes(DATA);
        http = RangeHttpServer.start();
        http.put("/data.bin", DATA);
        client = HttpObjectSource.newClient(Duration.ofSeconds(5));
        pool = new S3ClientPool(S3ClientFactory::create);
        s3 = LocalS3Server.start("AKIACONDITIONAL", "conditional-test-secret");
        s3.createBucket("cond");
        s3.put("cond", "data.bin", DATA);
        String anon = s3.anonymousEndpoint().toString();
        sources = new ObjectSources(
                Origin.user(DatasetUrl.parse(Path.of("").toAbsolutePath().toString()), TrustSettings.defaults()),
                Map.of("aws.profile", "none", "aws.region", "us-east-1"),
                ObjectSources.s3ApiOn(anon.endsWith("/") ? anon.substring(0, anon.length() - 1) : anon),
                () -> client,
                HttpSourceSettings.of(HttpSettings.defaults()),
                pool,
                AwsEnvironment.system());
    }

    @AfterAll
    static void stop() {
        sources.close();
        http.close();
        s3.close();
    }

    private static byte[] read(String url, ReadPreconditions pre) throws IOException {
        try (ObjectSource src = sources.open(URI.create(url), null);
                ObjectSource cond = src.withPreconditions(pre)) {
            return cond.readFully(100, 16);
        }
    }

    private static String lastHeader(String name) {
        List<Map<String, List<String>>> all = http.requestHeaders();
        List<String> v = all.get(all.size() - 1).get(name);
        return v == null ? null : v.get(0);
    }

    @Test
    void preconditionsAsHttpWantsThem() {
        assertEquals("\"abc\"", ReadPreconditions.of("abc", 0).ifMatch());
        assertEquals("\"abc\"", ReadPreconditions.of(" \"abc\" ", 0).ifMatch());
        assertNull(ReadPreconditions.of("W/\"abc\"", 0).ifMatch(), "a weak tag never matches If-Match");
        assertEquals(
                "Tue, 15 Nov 1994 08:12:31 GMT",
                ReadPreconditions.of(null, SERVER_MTIME).ifUnmodifiedSinceHeader());
        assertTrue(ReadPreconditions.of(null, 0).isEmpty());
    }

    @Test
    void httpChangedObjectAnswers412AndSendsNoBytes() throws IOException {
        String url = http.url("/data.bin");
        String etag;
        try (ObjectSource src = sources.open(URI.create(url), null)) {
            src.readFully(0, 1);
            etag = src.etag();
        }
        byte[] want = Arrays.copyOfRange(DATA, 100, 116);
        // the object as recorded: the bytes
        assertArrayEquals(want, read(url, ReadPreconditions.of(etag.substring(1, etag.length() - 1), SERVER_MTIME)));
        assertEquals(etag, lastHeader("if-match"));
        assertEquals(RangeHttpServer.LAST_MODIFIED, lastHeader("if-unmodified-since"));
        // changed: 412, nothing transferred
        long sent = http.bytesSent();
        PreconditionFailedException e =
                assertThrows(PreconditionFailedException.class, () -> read(url, ReadPreconditions.of("\"other\"", 0)));
        assertTrue(e.getMessage().contains("412") && e.getMessage().contains("If-Match: \"other\""), e.getMessage());
        assertTrue(e.getMessage().contains(url), e.getMessage());
        e = assertThrows(
                PreconditionFailedException.class, () -> read(url, ReadPreconditions.of(null, SERVER_MTIME - 1)));
        assertTrue(e.getMessage().contains("If-Unmodified-Since: Tue, 15 Nov 1994 08:12:30 GMT"), e.getMessage());
        assertEquals(sent, http.bytesSent(), "a 412 transfers none of the object");
        // a weak tag is not sent (it could never match); the modification time still is
        assertArrayEquals(want, read(url, ReadPreconditions.of("W/\"other\"", SERVER_MTIME + 60)));
        assertNull(lastHeader("if-match"));
    }

    @Test
    void s3ChangedObjectAnswers412() throws IOException {
        String url = s3.anonymousEndpoint().toString().replaceAll("/$", "") + "/cond/data.bin";
        String etag;
        long modified;
        try (ObjectSource src = sources.open(URI.create(url), null)) {
            src.readFully(0, 1);
            etag = src.etag();
            modified = src.lastModified() / 1000;
        }
        byte[] want = Arrays.copyOfRange(DATA, 100, 116);
        assertArrayEquals(want, read(url, ReadPreconditions.of(etag, 0)));
        // S3Proxy compares If-Unmodified-Since with the file's time in milliseconds: a second later passes
        assertArrayEquals(want, read(url, ReadPreconditions.of(etag, modified + 1)));
        PreconditionFailedException e =
                assertThrows(PreconditionFailedException.class, () -> read(url, ReadPreconditions.of("\"0123\"", 0)));
        assertTrue(e.getMessage().contains("cond/data.bin") && e.getMessage().contains("If-Match"), e.getMessage());
        assertThrows(PreconditionFailedException.class, () -> read(url, ReadPreconditions.of(null, modified - 3600)));
        // through the counting relay: the 412 carries S3's short error document, none of the 4000 bytes asked
        try (CountingProxy proxy = CountingProxy.start(s3.anonymousEndpoint())) {
            String ep = proxy.endpoint().toString().replaceAll("/$", "");
            try (ObjectSources viaProxy = new ObjectSources(
                    Origin.user(DatasetUrl.parse(Path.of("").toAbsolutePath().toString()), TrustSettings.defaults()),
                    Map.of("aws.profile", "none", "aws.region", "us-east-1"),
                    ObjectSources.s3ApiOn(ep),
                    () -> client,
                    HttpSourceSettings.of(HttpSettings.defaults()),
                    pool,
                    AwsEnvironment.system())) {
                try (ObjectSource src = viaProxy.open(URI.create(ep + "/cond/data.bin"), null);
                        ObjectSource cond = src.withPreconditions(ReadPreconditions.of("\"0123\"", 0))) {
                    proxy.reset();
                    assertThrows(PreconditionFailedException.class, () -> cond.readFully(0, 4000));
                    assertEquals(1, proxy.counts().get(), proxy.counts().toString());
                    assertTrue(
                            proxy.counts().responseBytes() < 1000,
                            proxy.counts().toString());
                }
            }
        }
    }

    /**
     * Through the Icechunk store: VirtualiZarr's repository records {@code checksum_last_modified} (2100-01-01),
     * sent as {@code If-Unmodified-Since}; a 412 is the "object changed" error naming repository, array, chunk
     * and location.
     */
    @Test
    void icechunkVirtualChunkReadIsConditional() throws Exception {
        Path dir = Corpus.icechunkDir();
        try (RangeHttpServer src = RangeHttpServer.start()) {
            src.put("/nc/vz_src4.nc", dir.resolve("vz_src4.nc"));
            String url = dir.resolve("vz_nc4.icechunk").toUri() + "#mode=zarr,icechunk&icechunk.container.src="
                    + src.url("/nc/");
            try (Store s = io.nczarr.open.Datasets.openStore(DatasetUrl.parse(url), IcechunkStoreTest.RES)) {
                assertTrue(s.get("flat/c/0/0").isPresent());
                List<Map<String, List<String>>> h = src.requestHeaders();
                assertEquals(
                        List.of("Fri, 1 Jan 2100 00:00:00 GMT"),
                        h.get(h.size() - 1).get("if-unmodified-since"));
                long sent = src.bytesSent();
                src.forceStatus(412);
                StoreException e = assertThrows(StoreException.class, () -> s.get("flat/c/0/0"));
                String m = e.getMessage();
                assertTrue(m.contains(VirtualChecksums.CHANGED) && m.contains("412"), m);
                assertTrue(
                        m.contains("vz_nc4.icechunk")
                                && m.contains("/flat")
                                && m.contains("flat/c/0/0")
                                && m.contains(src.url("/nc/vz_src4.nc")),
                        m);
                assertEquals(sent, src.bytesSent());
            }
        }
    }
}
