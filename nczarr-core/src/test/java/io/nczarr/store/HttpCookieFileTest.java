package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.nczarr.error.StoreException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.kerchunk.ReferenceStore;
import io.nczarr.testkit.http.LoginServerPair;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task 21c, step 1: netcdf-c's {@code HTTP.COOKIEJAR} cookie file on the loopback login and data server pair. A
 * login's session cookie is saved to the file and a later run (new options) reads it back and skips the login;
 * cookies stay per host, also when read from the file; the file is bounded, must be a regular file, and its
 * cookies never appear in a message.
 */
class HttpCookieFileTest {
    private static final String PASSWORD = "s3cret-pw";

    @TempDir
    static Path tmp;

    private static LoginServerPair pair;
    private static RangeHttpServer other;
    private static Path netrc;

    @BeforeAll
    static void start() throws Exception {
        pair = LoginServerPair.start("127.0.0.1", "127.0.0.3", "alice", PASSWORD);
        other = RangeHttpServer.startOn("127.0.0.2");
        pair.put("/ds/v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        other.put("/data.bin", new byte[] {9, 8, 7, 6});
        netrc = Files.writeString(
                tmp.resolve("netrc"), "machine " + pair.loginHost() + " login alice password " + PASSWORD + "\n");
    }

    @AfterAll
    static void stop() {
        pair.close();
        other.close();
    }

    @BeforeEach
    void clear() {
        pair.clear();
        other.reset();
    }

    private static StoreResources resources(Map<String, String> props) {
        AwsEnvironment e = AwsEnvironment.of(props, Map.of());
        return new StoreResources(
                TestStores.S3_CLIENTS,
                e,
                MemoryLimits.defaults(),
                false,
                () -> TestStores.HTTP_CLIENT,
                TrustSettings.defaults(),
                null,
                HttpLogins.of(e));
    }

    private static long logins() {
        return pair.requests().stream().filter(q -> q.server().equals("login")).count();
    }

    @Test
    void aLoginIsSavedToTheCookieFileAndANewRunUsesItWithoutLoggingIn() throws Exception {
        Path jar = tmp.resolve("run-cookies.txt");
        Map<String, String> props = Map.of(
                HttpLogins.NETRC, netrc.toString(),
                HttpLogins.LOGIN_HOSTS, pair.loginHost(),
                HttpLogins.COOKIEJAR, jar.toString());
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), resources(props))) {
            assertArrayEquals(new byte[] {3, 4}, s.getRange("v/0", 2, 2).orElseThrow());
        }
        assertEquals(1, logins(), pair.requests().toString());
        assertTrue(Files.isRegularFile(jar));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(jar)));
        String saved = Files.readString(jar);
        assertTrue(saved.startsWith("# Netscape HTTP Cookie File"), saved);
        assertTrue(saved.contains("127.0.0.1\tFALSE\t/\tFALSE\t0\tdata_session\t"), saved);
        assertTrue(saved.contains(pair.loginHost() + "\tFALSE\t/\tFALSE\t0\turs_user_already_logged\tyes"), saved);
        assertFalse(saved.contains(PASSWORD), saved);

        // a new run (new options): the session comes from the file, the login host is never asked
        pair.clear();
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), resources(props))) {
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, s.get("v/0").orElseThrow());
        }
        List<LoginServerPair.Request> seen = pair.requests();
        assertEquals(1, seen.size(), seen.toString());
        assertEquals(0, logins());
        String cookie = String.join(";", seen.get(0).headers().get("cookie"));
        assertTrue(cookie.contains("data_session="), cookie);
        assertFalse(cookie.contains("urs_user"), "the login host's cookie reached the data host: " + cookie);

        // netcdf-c's other spelling names the same file
        pair.clear();
        Map<String, String> alias = Map.of(HttpLogins.COOKIEFILE, jar.toString());
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), resources(alias))) {
            assertArrayEquals(new byte[] {8}, s.getRange("v/0", 7, 1).orElseThrow());
        }
        assertEquals(0, logins());
    }

    @Test
    void cookiesReadFromAFileGoOnlyToTheirOwnHost() throws Exception {
        Path jar = tmp.resolve("curl-cookies.txt");
        long future = System.currentTimeMillis() / 1000 + 3600;
        Files.writeString(
                jar,
                "# Netscape HTTP Cookie File\n"
                        + "# a comment\n"
                        + "127.0.0.2\tFALSE\t/\tFALSE\t" + future + "\tmine\tyes\n"
                        + "#HttpOnly_.127.0.0.2\tTRUE\t/\tFALSE\t0\thonly\t1\n"
                        + "127.0.0.2\tFALSE\t/\tFALSE\t1000\texpired\tno\n"
                        + "127.0.0.2\tFALSE\t/\tTRUE\t0\tsecureonly\tno\n"
                        + "127.0.0.2\tnot enough fields\n"
                        + "127.0.0.1\tFALSE\t/\tFALSE\t0\tdata_session\tnot-for-other\n");
        Map<String, String> props = Map.of(HttpLogins.COOKIEJAR, jar.toString());
        try (Store s = Stores.open(DatasetUrl.parse(other.url("/") + "#mode=zarr"), resources(props))) {
            assertArrayEquals(new byte[] {9, 8}, s.getRange("data.bin", 0, 2).orElseThrow());
        }
        List<Map<String, List<String>>> seen = other.requestHeaders();
        assertEquals(1, seen.size(), seen.toString());
        assertEquals(List.of("mine=yes; honly=1"), seen.get(0).get("cookie"), seen.toString());

        // a kerchunk file on the data host names the other host: that target gets no cookie, from the file or not
        other.reset();
        String refs = "{\"version\":1,\"refs\":{\".zgroup\":\"{\\\"zarr_format\\\":2}\",\"t\":[\""
                + other.url("/data.bin") + "\",0,4]}}";
        RangeHttpServer docs = RangeHttpServer.startOn("127.0.0.1");
        try {
            docs.put("/refs.json", refs.getBytes(StandardCharsets.UTF_8));
            try (Store s = ReferenceStore.open(
                    DatasetUrl.parse(docs.url("/refs.json") + "#mode=kerchunk"), resources(props))) {
                assertArrayEquals(new byte[] {9, 8, 7, 6}, s.get("t").orElseThrow());
            }
            for (Map<String, List<String>> h : other.requestHeaders()) {
                assertFalse(h.containsKey("cookie"), h.toString());
            }
            for (Map<String, List<String>> h : docs.requestHeaders()) {
                assertEquals(List.of("data_session=not-for-other"), h.get("cookie"), h.toString());
            }
        } finally {
            docs.close();
        }
    }

    @Test
    void aCookieFileThatIsNotARegularFileOrTooLargeIsAnErrorNamingItAndTheOption() throws Exception {
        Path big = tmp.resolve("big-cookies.txt");
        String line = "127.0.0.2\tFALSE\t/\tFALSE\t0\tsecretname\tsecretvalue\n";
        Files.writeString(big, line.repeat(CookieFile.MAX_BYTES / line.length() + 1));
        StoreException e = readOther(Map.of(HttpLogins.COOKIEJAR, big.toString()));
        assertTrue(e.getMessage().contains(big.toString()), e.getMessage());
        assertTrue(e.getMessage().contains(HttpLogins.COOKIEJAR), e.getMessage());
        assertTrue(e.getMessage().contains("larger than"), e.getMessage());
        assertFalse(e.getMessage().contains("secret"), e.getMessage());

        StoreException d = readOther(Map.of(HttpLogins.COOKIEFILE, tmp.toString()));
        assertTrue(
                d.getMessage().contains("not a regular file") && d.getMessage().contains(HttpLogins.COOKIEFILE));

        Path fifo = tmp.resolve("cookie-fifo");
        boolean made;
        try {
            Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
            made = p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException x) {
            made = false;
        }
        assumeTrue(made, "mkfifo is not available");
        long t0 = System.nanoTime();
        StoreException f = readOther(Map.of(HttpLogins.COOKIEJAR, fifo.toString()));
        assertTrue(f.getMessage().contains("not a regular file"), f.getMessage());
        assertTrue(System.nanoTime() - t0 < TimeUnit.SECONDS.toNanos(10), "a FIFO cookie file blocked");
        assertTrue(other.requestHeaders().isEmpty(), "nothing is sent when the cookie file is refused");
    }

    private static StoreException readOther(Map<String, String> props) throws Exception {
        try (Store s = Stores.open(DatasetUrl.parse(other.url("/") + "#mode=zarr"), resources(props))) {
            return assertThrows(StoreException.class, () -> s.get("data.bin"));
        }
    }
}
