package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.http.HttpSettings;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.source.HttpObjectSource;
import io.nczarr.source.HttpSourceSettings;
import io.nczarr.source.ObjectSource;
import io.nczarr.source.ObjectSources;
import io.nczarr.source.Origin;
import io.nczarr.source.TrustSettings;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3Server;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Virtual chunk references' {@code checksum_etag} / {@code checksum_last_modified} checked against the object
 * that answered: the loopback HTTP server (fixed ETag, Last-Modified 1994-11-15T08:12:31Z) and a local file.
 */
class VirtualChecksumsTest {
    private static final byte[] DATA = new byte[4096];
    /** RangeHttpServer's Last-Modified, Tue, 15 Nov 1994 08:12:31 GMT. */
    private static final long SERVER_MTIME = 784887151L;

    @TempDir
    static Path dir;

    private static RangeHttpServer http;
    private static HttpClient client;
    private static S3ClientPool pool;
    private static LocalS3Server s3;
    private static ObjectSources sources;

    @BeforeAll
    static void start() throws IOException {
        new Random(23).nextBytes(DATA);
        Files.write(dir.resolve("data.bin"), DATA);
        http = RangeHttpServer.start();
        http.put("/data.bin", DATA);
        client = HttpObjectSource.newClient(Duration.ofSeconds(5));
        pool = new S3ClientPool(S3ClientFactory::create);
        s3 = LocalS3Server.start("AKIACHECKSUMTEST", "checksum-test-secret");
        s3.createBucket("virt");
        s3.put("virt", "data.bin", DATA);
        String anon = s3.anonymousEndpoint().toString();
        sources = new ObjectSources(
                Origin.user(DatasetUrl.parse(dir.toString()), TrustSettings.defaults()),
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

    private static ChunkRef ref(String location, String etag, long modified) {
        return new ChunkRef(ChunkRef.Kind.VIRTUAL, null, null, 100, 16, location, etag, modified);
    }

    private static void readAndCheck(ChunkRef r) throws IOException {
        try (ObjectSource src = sources.open(java.net.URI.create(r.location()), null)) {
            assertArrayEquals(java.util.Arrays.copyOfRange(DATA, 100, 116), src.readFully(100, 16));
            VirtualChecksums.check(r, src, "file:///repo.icechunk", "/sst", "sst/c/0");
        }
    }

    @Test
    void httpEtagAndLastModified() throws IOException {
        String url = http.url("/data.bin");
        String etag;
        try (ObjectSource src = sources.open(java.net.URI.create(url), null)) {
            src.readFully(0, 1);
            etag = src.etag();
        }
        assertTrue(etag != null && etag.startsWith("\""), etag);
        readAndCheck(ref(url, etag, 0));
        readAndCheck(ref(url, etag.substring(1, etag.length() - 1), 0)); // recorded without quotes
        readAndCheck(ref(url, "W/" + etag, SERVER_MTIME));
        readAndCheck(ref(url, null, SERVER_MTIME + 3600));
        StoreException e = assertThrows(StoreException.class, () -> readAndCheck(ref(url, "\"other\"", 0)));
        assertChanged(e, url, "ETag");
        e = assertThrows(StoreException.class, () -> readAndCheck(ref(url, null, SERVER_MTIME - 1)));
        assertChanged(e, url, "modified at 1994-11-15T08:12:31Z");
    }

    @Test
    void s3EtagAndLastModified() throws IOException {
        String url = s3.anonymousEndpoint().toString().replaceAll("/$", "") + "/virt/data.bin";
        String etag;
        long modified;
        try (ObjectSource src = sources.open(java.net.URI.create(url), null)) {
            src.readFully(0, 1);
            etag = src.etag();
            modified = src.lastModified() / 1000;
        }
        assertTrue(etag != null && modified > 0, etag + " " + modified);
        readAndCheck(ref(url, etag, modified));
        StoreException e = assertThrows(StoreException.class, () -> readAndCheck(ref(url, "\"0123\"", 0)));
        assertChanged(e, "virt/data.bin", "ETag");
        e = assertThrows(StoreException.class, () -> readAndCheck(ref(url, etag, modified - 60)));
        assertChanged(e, "virt/data.bin", "modified at");
    }

    @Test
    void localFileMtimeIsCheckedEtagIsNot() throws IOException {
        Path f = dir.resolve("data.bin");
        Files.setLastModifiedTime(f, FileTime.fromMillis(1_700_000_000_500L));
        String url = f.toUri().toString();
        assertDoesNotThrow(() -> readAndCheck(ref(url, "\"any\"", 0)), "no ETag for a local file");
        readAndCheck(ref(url, null, 1_700_000_000L));
        StoreException e = assertThrows(StoreException.class, () -> readAndCheck(ref(url, null, 1_699_999_999L)));
        assertChanged(e, "data.bin", "modified at");
    }

    @Test
    void refsWithoutChecksumsNeedNoCheck() {
        assertNull(VirtualChecksums.of(ref("file:///x", null, 0), "r", "/a", "a/c/0"));
    }

    private static void assertChanged(StoreException e, String location, String why) {
        String m = e.getMessage();
        assertTrue(m.contains(VirtualChecksums.CHANGED), m);
        assertTrue(m.contains("file:///repo.icechunk") && m.contains("/sst") && m.contains("sst/c/0"), m);
        assertTrue(m.contains(location) && m.contains(why), m);
    }
}
