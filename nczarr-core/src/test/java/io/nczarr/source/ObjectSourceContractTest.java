package io.nczarr.source;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nczarr.error.StoreException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.http.HttpSettings;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3Server;
import io.nczarr.url.DatasetUrl;
import java.io.EOFException;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link ObjectSource} contract, held against the three implementations over the same bytes, all made by
 * the one resolver {@link ObjectSources}: a local file, an S3 object on a loopback S3 server (anonymous), an
 * HTTP object on a loopback {@link RangeHttpServer}. Ranged get, get past the end, length, the bounded whole
 * get, a missing object; and the local source refuses what is not a regular file.
 */
class ObjectSourceContractTest {
    private static final int SIZE = 70_001;
    private static final byte[] DATA = new byte[SIZE];

    @TempDir
    static Path dir;

    private static RangeHttpServer http;
    private static HttpClient client;
    private static LocalS3Server s3;
    private static S3ClientPool pool;
    private static ObjectSources sources;

    @BeforeAll
    static void start() throws IOException {
        new Random(21).nextBytes(DATA);
        Files.write(dir.resolve("data.bin"), DATA);
        http = RangeHttpServer.start();
        http.put("/data.bin", DATA);
        client = HttpObjectSource.newClient(Duration.ofSeconds(5));
        s3 = LocalS3Server.start("AKIASOURCETEST", "source-test-secret");
        s3.createBucket("door");
        s3.put("door", "data.bin", DATA);
        pool = new S3ClientPool(S3ClientFactory::create);
        String anon = s3.anonymousEndpoint().toString();
        sources = new ObjectSources(
                Origin.user(DatasetUrl.parse(dir.toString()), TrustSettings.defaults()),
                Map.of("aws.profile", "none", "aws.region", "us-east-1"),
                ObjectSources.s3ApiOn(anon.endsWith("/") ? anon.substring(0, anon.length() - 1) : anon),
                () -> client,
                HttpSourceSettings.of(new HttpSettings(4, 1, Duration.ofMillis(10), Duration.ofSeconds(10), 1 << 20)),
                pool,
                AwsEnvironment.system());
    }

    @AfterAll
    static void stop() {
        sources.close();
        http.close();
        s3.close();
        assertEquals(0, pool.openClients(), "every bucket gave its client back");
    }

    record Fixture(String name, String path) {
        URI uri() {
            return URI.create(path);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Fixture> kinds() {
        return Stream.of(
                new Fixture("local", dir.resolve("data.bin").toUri().toString()),
                new Fixture(
                        "s3", s3.anonymousEndpoint().resolve("/door/data.bin").toString()),
                new Fixture("http", http.uri("/data.bin").toString()));
    }

    private static URI missing(Fixture f) {
        return URI.create(f.path().replace("data.bin", "missing.bin"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void rangedGetsAreExact(Fixture f) throws IOException {
        try (ObjectSource src = sources.open(f.uri(), null)) {
            for (long[] r : new long[][] {{0, 1}, {0, 4096}, {SIZE / 2 - 77, 1555}, {SIZE - 10, 10}, {0, SIZE}}) {
                byte[] b = src.readFully(r[0], (int) r[1]);
                assertArrayEquals(Arrays.copyOfRange(DATA, (int) r[0], (int) (r[0] + r[1])), b, f + " " + r[0]);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aGetPastTheEndIsShortThenNothingAndReadFullyFails(Fixture f) throws IOException {
        try (ObjectSource src = sources.open(f.uri(), null)) {
            byte[] b = new byte[100];
            int n = src.read(SIZE - 30, b, 0, 100);
            assertTrue(n > 0 && n <= 30, "a range crossing the end gives at most the bytes up to it: " + n);
            assertArrayEquals(Arrays.copyOfRange(DATA, SIZE - 30, SIZE - 30 + n), Arrays.copyOf(b, n));
            assertEquals(-1, src.read(SIZE + 5, b, 0, 10), "past the end");
            EOFException e = assertThrows(EOFException.class, () -> src.readFully(SIZE - 4, 8));
            assertTrue(e.getMessage().contains("past the end"), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void lengthAndTheBoundedWholeGet(Fixture f) throws IOException {
        try (ObjectSource src = sources.open(f.uri(), null)) {
            assertEquals(SIZE, src.length());
            assertArrayEquals(DATA, src.readAll(SIZE));
        }
        try (ObjectSource src = sources.open(f.uri(), null)) {
            ObjectSource.TooLarge e = assertThrows(ObjectSource.TooLarge.class, () -> src.readAll(SIZE - 1));
            assertTrue(e.size() == SIZE || e.size() == -1, "size " + e.size());
            assertTrue(e.getMessage().contains("limit of " + (SIZE - 1)), e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void aMissingObjectIsAClearError(Fixture f) throws IOException {
        try (ObjectSource src = sources.open(missing(f), null)) {
            FileNotFoundException e = assertThrows(FileNotFoundException.class, () -> src.read(0, new byte[10], 0, 10));
            assertTrue(e.getMessage().contains("missing.bin"), e.getMessage());
            StoreException cause = assertInstanceOf(StoreException.class, e.getCause());
            assertTrue(cause.dataset().contains("missing.bin"), cause.getMessage());
            assertThrows(FileNotFoundException.class, () -> src.readAll(1000));
        }
    }

    @Test
    void aLocalSourceRefusesWhatIsNotARegularFile() throws Exception {
        StoreException d = assertThrows(StoreException.class, () -> sources.open(dir.toUri(), null));
        assertTrue(d.getMessage().contains("not a regular file"), d.getMessage());
        Path fifo = dir.resolve("fifo");
        boolean made;
        try {
            Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
            made = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException e) {
            made = false;
        }
        assumeTrue(made, "mkfifo is not available");
        StoreException e = assertThrows(StoreException.class, () -> sources.open(fifo.toUri(), null));
        assertTrue(e.getMessage().contains("FIFO"), e.getMessage());
        assertThrows(StoreException.class, () -> LocalObjectSource.open(fifo));
    }

    @Test
    void anotherSchemeHasNoSource() {
        UnsupportedFeatureException e =
                assertThrows(UnsupportedFeatureException.class, () -> sources.open(URI.create("ftp://h/x"), null));
        assertTrue(e.getMessage().contains("ftp"), e.getMessage());
    }

    @Test
    void aRemoteDocumentCannotNameALocalFileThroughTheResolver() {
        Origin doc = Origin.user(DatasetUrl.parse(http.url("/refs.json") + "#mode=kerchunk"), TrustSettings.defaults())
                .within(http.uri("/refs.json"));
        try (ObjectSources fromDoc = new ObjectSources(
                doc,
                Map.of(),
                u -> false,
                () -> client,
                HttpSourceSettings.of(HttpSettings.defaults()),
                pool,
                AwsEnvironment.system())) {
            TargetRefusedException e = assertThrows(
                    TargetRefusedException.class,
                    () -> fromDoc.open(dir.resolve("data.bin").toUri(), "v/0"));
            assertTrue(e.getMessage().contains("may not name local files"), e.getMessage());
        }
    }
}
