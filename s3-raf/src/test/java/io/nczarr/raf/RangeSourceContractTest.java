package io.nczarr.raf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.raf.testing.MemoryRangeSource;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.s3.S3ClientFactory;
import io.nczarr.s3.S3ClientPool;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3Server;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@link RangeSource} contract, held against every implementation over the same bytes: plain
 * HTTP ({@link HttpRangeSource} on a loopback {@link RangeHttpServer}, with a presigned-looking URL),
 * S3 ({@link S3RangeSource} on a loopback S3 server, signed and anonymous) and memory
 * ({@link MemoryRangeSource}). Real servers on 127.0.0.1, no mocks. A new backend adds a fixture.
 */
class RangeSourceContractTest {
    private static final int SIZE = 300_007; // no multiple of anything
    private static final byte[] DATA = new byte[SIZE];
    private static final String KEY_ID = "AKIACONTRACTTEST";
    private static final String SECRET = "contract-secret-5f4e3d2c1b";
    private static final String PROFILE = "contract-test";
    private static final String URL_SIGNATURE = "c0ffee5ignature";
    private static final String URL_CREDENTIAL = "AKIAPRESIGNED";
    private static final ByteRangeConfig CONFIG = ByteRangeConfig.defaults()
            .withRetries(1, Duration.ofMillis(10))
            .withTimeouts(Duration.ofSeconds(5), Duration.ofSeconds(20));

    private static RangeHttpServer http;
    private static HttpClient httpClient;
    private static LocalS3Server s3;
    private static S3ClientPool s3Pool;
    private static final Map<String, String> SAVED_PROPERTIES = new HashMap<>();

    @TempDir
    static Path aws;

    /** One implementation under test, opened afresh for every test. */
    record Fixture(String name, Opener opener, List<String> secrets) {
        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface Opener {
        RangeSource open() throws IOException;
    }

    @BeforeAll
    static void start() throws IOException {
        new Random(2024).nextBytes(DATA);
        http = RangeHttpServer.start();
        http.put("/contract.bin", DATA);
        httpClient = HttpRangeSource.newClient(CONFIG.connectTimeout());

        Path credentials = aws.resolve("credentials");
        Files.writeString(
                credentials,
                "[" + PROFILE + "]\naws_access_key_id = " + KEY_ID + "\naws_secret_access_key = " + SECRET
                        + "\nregion = us-east-1\n");
        setProperty(AwsEnvironment.CREDENTIALS_FILE_PROPERTY, credentials.toString());
        setProperty(
                AwsEnvironment.CONFIG_FILE_PROPERTY, aws.resolve("no-config").toString());
        s3 = LocalS3Server.start(KEY_ID, SECRET);
        s3.createBucket("contract");
        s3.put("contract", "data/contract.bin", DATA);
        s3Pool = new S3ClientPool(S3ClientFactory::create);
    }

    @AfterAll
    static void stop() {
        http.close();
        s3.close();
        SAVED_PROPERTIES.forEach((k, v) -> {
            if (v == null) {
                System.clearProperty(k);
            } else {
                System.setProperty(k, v);
            }
        });
        assertEquals(0, s3Pool.openClients(), "every S3 source gave its client back");
    }

    private static void setProperty(String key, String value) {
        SAVED_PROPERTIES.put(key, System.getProperty(key));
        System.setProperty(key, value);
    }

    static Stream<Fixture> sources() {
        return Stream.of(
                new Fixture(
                        "http",
                        () -> HttpRangeSource.open(
                                http.uri("/contract.bin?X-Amz-Credential=" + URL_CREDENTIAL + "&X-Amz-Signature="
                                        + URL_SIGNATURE),
                                CONFIG,
                                httpClient),
                        List.of(URL_SIGNATURE, URL_CREDENTIAL)),
                new Fixture(
                        "s3 signed",
                        () -> S3RangeSource.open(
                                URI.create(s3.endpoint() + "/contract/data/contract.bin"),
                                Map.of("mode", "bytes,s3", "aws.profile", PROFILE),
                                s3Pool),
                        List.of(KEY_ID, SECRET)),
                new Fixture(
                        "s3 anonymous",
                        () -> S3RangeSource.open(
                                URI.create(s3.anonymousEndpoint() + "/contract/data/contract.bin"),
                                Map.of("mode", "bytes,s3", "aws.profile", "none"),
                                s3Pool),
                        List.of(KEY_ID, SECRET)),
                new Fixture("memory", () -> new MemoryRangeSource(DATA), List.of()));
    }

    private static void assertBytes(RangeSource src, long offset, int len) throws IOException {
        byte[] b = new byte[len + 6];
        Arrays.fill(b, (byte) 0x5a);
        assertEquals(len, src.read(offset, b, 3, len), "read " + len + " at " + offset);
        assertArrayEquals(
                Arrays.copyOfRange(DATA, (int) offset, (int) offset + len),
                Arrays.copyOfRange(b, 3, 3 + len),
                "bytes at " + offset);
        for (int i : new int[] {0, 1, 2, len + 3, len + 4, len + 5}) {
            assertEquals((byte) 0x5a, b[i], "byte " + i + " outside the read is untouched");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void lengthIsTheObjectsLengthAskedFirstOrLearnedByARead(Fixture f) throws IOException {
        try (RangeSource src = f.opener().open()) {
            assertEquals(SIZE, src.length());
            assertEquals(SIZE, src.knownLength());
            assertEquals(SIZE, src.length());
        }
        try (RangeSource src = f.opener().open()) {
            assertBytes(src, 0, 10);
            long known = src.knownLength();
            assertTrue(known == -1 || known == SIZE, "knownLength " + known);
            assertEquals(SIZE, src.length());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void readsAreExactAtTheStartInTheMiddleAndAtTheEnd(Fixture f) throws IOException {
        try (RangeSource src = f.opener().open()) {
            assertBytes(src, 0, 1);
            assertBytes(src, 0, 4096);
            assertBytes(src, SIZE / 2 - 777, 1555);
            assertBytes(src, SIZE - 4096, 4096);
            assertBytes(src, SIZE - 1, 1);
            assertBytes(src, 0, SIZE);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void zeroLengthReadsReadNothing(Fixture f) throws IOException {
        try (RangeSource src = f.opener().open()) {
            byte[] b = new byte[4];
            for (long offset : new long[] {0, SIZE / 2, SIZE - 1, SIZE, SIZE + 100}) {
                assertEquals(0, src.read(offset, b, 2, 0), "at " + offset);
            }
            assertArrayEquals(new byte[4], b);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void readsAreShortOnlyAcrossTheEndAndEndOfFileBeyond(Fixture f) throws IOException {
        // once with the length unknown (the read itself meets the end), once with it known
        for (boolean lengthFirst : new boolean[] {false, true}) {
            try (RangeSource src = f.opener().open()) {
                if (lengthFirst) {
                    assertEquals(SIZE, src.length());
                }
                byte[] b = new byte[100];
                assertEquals(17, src.read(SIZE - 17, b, 0, 100), "lengthFirst " + lengthFirst);
                assertArrayEquals(Arrays.copyOfRange(DATA, SIZE - 17, SIZE), Arrays.copyOf(b, 17));
                assertEquals(-1, src.read(SIZE, b, 0, 100));
                assertEquals(-1, src.read(SIZE + 12_345, b, 0, 1));
                assertBytes(src, SIZE - 100, 100);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void badArgumentsAreRefusedBeforeAnyRequest(Fixture f) throws IOException {
        try (RangeSource src = f.opener().open()) {
            long before = src.stats().snapshot().requests();
            byte[] b = new byte[10];
            assertThrows(IllegalArgumentException.class, () -> src.read(-1, b, 0, 5));
            assertThrows(IndexOutOfBoundsException.class, () -> src.read(0, b, 6, 5));
            assertThrows(IndexOutOfBoundsException.class, () -> src.read(0, b, -1, 5));
            assertThrows(IndexOutOfBoundsException.class, () -> src.read(0, b, 0, -1));
            assertEquals(before, src.stats().snapshot().requests());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void concurrentReadersGetTheirOwnBytes(Fixture f) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try (RangeSource src = f.opener().open()) {
            List<Future<?>> work = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                long seed = t;
                work.add(pool.submit(() -> {
                    Random r = new Random(seed);
                    for (int i = 0; i < 40; i++) {
                        int offset = r.nextInt(SIZE);
                        int len = 1 + r.nextInt(20_000);
                        byte[] b = new byte[len];
                        int expect = Math.min(len, SIZE - offset);
                        assertEquals(expect, src.read(offset, b, 0, len));
                        assertArrayEquals(Arrays.copyOfRange(DATA, offset, offset + expect), Arrays.copyOf(b, expect));
                    }
                    return null;
                }));
            }
            for (Future<?> w : work) {
                w.get();
            }
            assertEquals(SIZE, src.length());
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void locationNamesTheObjectWithoutCredentials(Fixture f) throws IOException {
        try (RangeSource src = f.opener().open()) {
            String location = src.location();
            assertNotNull(location);
            assertFalse(location.isBlank());
            for (String secret : f.secrets()) {
                assertFalse(location.contains(secret), location);
                assertFalse(src.toString().contains(secret), src.toString());
            }
            assertNotNull(src.stats());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sources")
    void closeIsIdempotentAndEndsReads(Fixture f) throws IOException {
        RangeSource src = f.opener().open();
        assertBytes(src, 100, 10);
        src.close();
        src.close();
        assertThrows(IOException.class, () -> src.read(0, new byte[4], 0, 4));
    }
}
