package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.TrustSettings;
import io.nczarr.testkit.http.LoginServerPair;
import io.nczarr.url.DatasetUrl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Task 21c, step 2: parallel first reads log in once. Eight reads of a data host start together, all get the
 * redirect to the login host; only one logs in (the login server answers slowly, so the others arrive while it
 * is under way), the others wait for it and start over with its session cookie.
 */
class HttpLoginSingleFlightTest {
    private static final String PASSWORD = "s3cret-pw";
    private static final int READS = 8;

    @TempDir
    static Path tmp;

    private static LoginServerPair pair;
    private static Path netrc;

    @BeforeAll
    static void start() throws Exception {
        pair = LoginServerPair.start("127.0.0.1", "127.0.0.3", "alice", PASSWORD);
        for (int i = 0; i < READS; i++) {
            pair.put("/ds/v/" + i, new byte[] {(byte) i, 1, 2, 3});
        }
        netrc = Files.writeString(
                tmp.resolve("netrc"), "machine " + pair.loginHost() + " login alice password " + PASSWORD + "\n");
    }

    @AfterAll
    static void stop() {
        pair.close();
    }

    @Test
    void eightParallelFirstReadsLogInOnce() throws Exception {
        pair.loginDelay(400);
        AwsEnvironment e = AwsEnvironment.of(
                Map.of(HttpLogins.NETRC, netrc.toString(), HttpLogins.LOGIN_HOSTS, pair.loginHost()), Map.of());
        StoreResources r = new StoreResources(
                TestStores.S3_CLIENTS,
                e,
                MemoryLimits.defaults(),
                false,
                () -> TestStores.HTTP_CLIENT,
                TrustSettings.defaults(),
                null,
                HttpLogins.of(e));
        ExecutorService pool = Executors.newFixedThreadPool(READS);
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), r)) {
            CyclicBarrier together = new CyclicBarrier(READS);
            List<Future<byte[]>> reads = new ArrayList<>();
            for (int i = 0; i < READS; i++) {
                String key = "v/" + i;
                reads.add(pool.submit(() -> {
                    together.await(10, TimeUnit.SECONDS);
                    return s.get(key).orElseThrow();
                }));
            }
            for (int i = 0; i < READS; i++) {
                assertArrayEquals(new byte[] {(byte) i, 1, 2, 3}, reads.get(i).get(20, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
            pair.loginDelay(0);
        }
        List<LoginServerPair.Request> seen = pair.requests();
        long logins = seen.stream().filter(q -> q.server().equals("login")).count();
        long firstTries = seen.stream()
                .filter(q -> q.server().equals("data") && q.target().startsWith("/ds/"))
                .filter(q -> !q.headers().containsKey("cookie"))
                .count();
        assertEquals(1, logins, seen.toString());
        assertEquals(READS, firstTries, "every read was redirected to the login once: " + seen);
        // 8 first tries, 1 /urs_redirect, 8 reads with the cookie
        assertEquals(2 * READS + 2, seen.size(), seen.toString());
        assertTrue(seen.stream()
                .filter(q -> q.server().equals("data") && q.target().startsWith("/ds/"))
                .filter(q -> q.headers().containsKey("cookie"))
                .allMatch(q -> String.join(";", q.headers().get("cookie")).contains("data_session=")));
    }
}
