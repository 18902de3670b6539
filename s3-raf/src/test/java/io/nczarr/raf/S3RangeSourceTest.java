package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.testkit.TestFiles;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * {@code #mode=bytes} on S3 objects: ranged GetObject through the S3 store's URL, profile and
 * client code, against a real S3 server (S3Proxy) on loopback, signed and anonymous.
 */
class S3RangeSourceTest {

    static final String KEY_ID = "AKIABYTESTEST";
    static final String SECRET = "bytes-test-secret-123456";
    static final String PROFILE = "bytes-test";

    static LocalS3Server server;
    static CountingProxy signed;
    static CountingProxy anonymous;
    static byte[] blob;

    @TempDir
    static Path aws;

    @BeforeAll
    static void start() throws IOException {
        Path credentials = aws.resolve("credentials");
        Files.writeString(
                credentials,
                "[" + PROFILE + "]\naws_access_key_id = " + KEY_ID + "\naws_secret_access_key = " + SECRET
                        + "\nregion = us-east-1\n");
        System.setProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY, credentials.toString());
        System.setProperty(
                AwsEnvironment.CONFIG_FILE_PROPERTY, aws.resolve("no-config").toString());
        server = LocalS3Server.start(KEY_ID, SECRET);
        server.createBucket("files");
        for (String f : List.of("classic.nc", "offset64.nc", "nc4.nc")) {
            server.put(
                    "files",
                    "test/" + f,
                    Files.readAllBytes(TestFiles.bytesDir().resolve(f)));
        }
        blob = new byte[3_000_017];
        new Random(7).nextBytes(blob);
        server.put("files", "blob.bin", blob);
        signed = CountingProxy.start(server.endpoint());
        anonymous = CountingProxy.start(server.anonymousEndpoint());
    }

    @AfterAll
    static void stop() {
        signed.close();
        anonymous.close();
        server.close();
        System.clearProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY);
        System.clearProperty(AwsEnvironment.CONFIG_FILE_PROPERTY);
    }

    @BeforeEach
    void reset() {
        signed.reset();
        anonymous.reset();
    }

    static URI uri(CountingProxy proxy, String key) {
        return URI.create(proxy.endpoint() + "/files/" + key);
    }

    static Map<String, String> signedFragment() {
        return Map.of("mode", "bytes,s3", "aws.profile", PROFILE);
    }

    @Test
    void rangesAreExactAndTheLengthComesWithTheFirstGet() throws IOException {
        try (RangeSource src =
                ByteRangeFiles.openSource(uri(signed, "blob.bin"), signedFragment(), ByteRangeConfig.defaults())) {
            assertTrue(src instanceof S3RangeSource, src.toString());
            byte[] buf = new byte[1000];
            assertEquals(1000, src.read(12345, buf, 0, 1000));
            assertArrayEquals(java.util.Arrays.copyOfRange(blob, 12345, 13345), buf);
            assertEquals(blob.length, src.knownLength(), "Content-Range gave the length");
            assertEquals(17, src.read(blob.length - 17, buf, 0, 1000), "clipped at the end");
            assertEquals(-1, src.read(blob.length, buf, 0, 10));
            assertEquals(blob.length, src.length());
        }
        CountingProxy.Counts c = signed.counts();
        assertEquals(0, c.head(), c.toString());
        assertEquals(2, c.get(), c.toString());
    }

    @Test
    void randomReadsThroughTheCachedFileEqualTheObject() throws IOException {
        ByteRangeConfig cfg =
                ByteRangeConfig.defaults().withBlockSize(64 * 1024).withCacheBlocks(8);
        try (BlockCacheRandomAccessFile raf = BlockCacheRandomAccessFile.open(
                ByteRangeFiles.openSource(uri(signed, "blob.bin"), signedFragment(), cfg), cfg)) {
            Random rnd = new Random(11);
            for (int i = 0; i < 300; i++) {
                int pos = rnd.nextInt(blob.length);
                int len = Math.min(blob.length - pos, 1 + rnd.nextInt(200_000));
                byte[] got = new byte[len];
                raf.seek(pos);
                raf.readFully(got);
                assertArrayEquals(java.util.Arrays.copyOfRange(blob, pos, pos + len), got, "read " + i);
            }
            assertEquals(blob.length, raf.length());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"classic.nc", "offset64.nc", "nc4.nc"})
    void netcdfFilesReadLikeLocalOpens(String name) throws IOException {
        for (boolean isSigned : new boolean[] {true, false}) {
            CountingProxy proxy = isSigned ? signed : anonymous;
            Map<String, String> fragment =
                    isSigned ? signedFragment() : Map.of("mode", "bytes,s3", "aws.profile", "none");
            String location = uri(proxy, "test/" + name) + "#mode=bytes,s3";
            try (NetcdfFile remote = ByteRangeFiles.open(uri(proxy, "test/" + name), fragment, location);
                    NetcdfFile local =
                            NetcdfFile.open(TestFiles.bytesDir().resolve(name).toString())) {
                assertEquals(NetcdfOverHttpTest.header(local), NetcdfOverHttpTest.header(remote));
                for (Variable lv : local.getVariables()) {
                    Variable rv = remote.findVariable(lv.getFullNameEscaped());
                    assertNotNull(rv, lv.getFullName());
                    NetcdfOverHttpTest.assertSameValues(name + " " + lv.getFullName(), lv.read(), rv.read());
                }
            }
            CountingProxy.Counts c = proxy.counts();
            assertEquals(0, c.head(), "no HEAD: " + c);
            assertTrue(c.get() <= 5, "whole small file in a few GETs: " + c);
        }
    }

    @Test
    void missingObjectAndWrongCredentialsAreClearErrors() {
        FileNotFoundException nf = assertThrows(
                FileNotFoundException.class,
                () -> ByteRangeFiles.open(uri(signed, "test/none.nc"), signedFragment(), "x"));
        assertTrue(nf.getMessage().contains("/files/test/none.nc"), nf.getMessage());
        IOException denied = assertThrows(
                IOException.class,
                () -> ByteRangeFiles.open(
                        uri(signed, "test/nc4.nc"), Map.of("mode", "bytes,s3", "aws.profile", "none"), "x"));
        assertTrue(
                denied.getMessage().contains("/files/test/nc4.nc")
                        && denied.getMessage().contains("403"),
                denied.getMessage());
        assertTrue(!denied.getMessage().contains(SECRET));
    }

    @Test
    void plainHttpsWithoutS3HintsStaysHttp() throws IOException {
        // the anonymous S3 endpoint answers plain ranged GETs too: no S3 mode, no profile -> HTTP backend
        try (RangeSource src = ByteRangeFiles.openSource(
                uri(anonymous, "blob.bin"), Map.of("mode", "bytes"), ByteRangeConfig.defaults())) {
            assertTrue(src instanceof HttpRangeSource, src.toString());
            byte[] buf = new byte[10];
            assertEquals(10, src.read(5, buf, 0, 10));
            assertArrayEquals(java.util.Arrays.copyOfRange(blob, 5, 15), buf);
        }
    }

    @Test
    void failuresAreStoreExceptionsNamingTheObject() throws IOException {
        try (RangeSource src = ByteRangeFiles.openSource(
                uri(signed, "test/nc4.nc"),
                Map.of("mode", "bytes,s3", "aws.profile", "none"),
                ByteRangeConfig.defaults())) {
            StoreException e = assertThrows(StoreException.class, () -> src.read(0, new byte[8], 0, 8));
            assertFalse(e.isRetryable(), "403 is not retryable");
            assertEquals(src.location(), e.dataset());
            assertTrue(e.dataset().endsWith("/files/test/nc4.nc"), e.dataset());
            assertTrue(e.detail().contains("403") && !e.getMessage().contains(SECRET), e.getMessage());
        }
        try (RangeSource src =
                ByteRangeFiles.openSource(uri(signed, "test/none.nc"), signedFragment(), ByteRangeConfig.defaults())) {
            FileNotFoundException nf = assertThrows(FileNotFoundException.class, () -> src.read(0, new byte[8], 0, 8));
            StoreException cause = assertInstanceOf(StoreException.class, nf.getCause());
            assertFalse(cause.isRetryable());
            assertEquals(src.location(), cause.dataset());
        }
    }

    @Test
    void theCallersClientsAreTheOnesUsed() throws Exception {
        S3ClientPool pool = new S3ClientPool(S3ClientFactory::create);
        AtomicInteger httpTasks = new AtomicInteger();
        ExecutorService executor = Executors.newCachedThreadPool();
        HttpClient http = HttpClient.newBuilder()
                .executor(task -> {
                    httpTasks.incrementAndGet();
                    executor.execute(task);
                })
                .build();
        ByteRangeConfig cfg = ByteRangeConfig.defaults();
        try {
            try (RangeSource src =
                    ByteRangeFiles.openSource(uri(signed, "blob.bin"), signedFragment(), cfg, http, pool)) {
                assertTrue(src instanceof S3RangeSource, src.toString());
                assertEquals(1, pool.openClients());
                byte[] buf = new byte[10];
                assertEquals(10, src.read(5, buf, 0, 10));
                assertArrayEquals(java.util.Arrays.copyOfRange(blob, 5, 15), buf);
            }
            assertEquals(0, pool.openClients(), "closing the source gives the client back to the caller's pool");
            assertEquals(0, httpTasks.get());

            try (RangeSource src =
                    ByteRangeFiles.openSource(uri(anonymous, "blob.bin"), Map.of("mode", "bytes"), cfg, http, pool)) {
                assertTrue(src instanceof HttpRangeSource, src.toString());
                byte[] buf = new byte[10];
                assertEquals(10, src.read(20, buf, 0, 10));
                assertArrayEquals(java.util.Arrays.copyOfRange(blob, 20, 30), buf);
            }
            assertTrue(httpTasks.get() > 0, "the HTTP source sent its request with the caller's client");
            assertEquals(0, pool.openClients());

            try (NetcdfFile nc =
                    ByteRangeFiles.open(uri(signed, "test/nc4.nc"), signedFragment(), "nc4.nc", cfg, http, pool)) {
                assertEquals(1, pool.openClients());
                assertFalse(nc.getVariables().isEmpty());
            }
            assertEquals(0, pool.openClients(), "closing the file gives the client back");
        } finally {
            executor.shutdownNow();
        }
    }
}
