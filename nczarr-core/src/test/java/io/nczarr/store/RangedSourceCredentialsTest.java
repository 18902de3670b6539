package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.http.HttpSettings;
import io.nczarr.http.auth.RequestAuth;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.HttpObjectSource;
import io.nczarr.source.HttpSourceSettings;
import io.nczarr.source.TrustSettings;
import io.nczarr.testkit.http.LoginServerPair;
import io.nczarr.testkit.http.RangeHttpServer;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ranged reads of one object ({@code #mode=bytes}, {@link HttpObjectSource}) carry the user's HTTP credentials
 * as the other HTTP reads do: the Earthdata Login flow with {@code .netrc} for the login host only, a bearer token
 * for the user's origin, nothing without credentials bound.
 */
class RangedSourceCredentialsTest {
    private static final String PASSWORD = "s3cret-pw-ranged";
    private static final String TOKEN = "tok-ranged-origin";

    @TempDir
    static Path tmp;

    private static LoginServerPair pair;
    private static RangeHttpServer plain;
    private static Path netrc;

    @BeforeAll
    static void start() throws Exception {
        pair = LoginServerPair.start("127.0.0.1", "127.0.0.3", "alice", PASSWORD);
        pair.put("/granule.nc", new byte[] {10, 11, 12, 13, 14, 15, 16, 17});
        plain = RangeHttpServer.startOn("127.0.0.2");
        plain.put("/x.nc", new byte[] {1, 2, 3, 4});
        netrc = tmp.resolve("netrc");
        Files.writeString(netrc, "machine " + pair.loginHost() + " login alice password " + PASSWORD + "\n");
    }

    @AfterAll
    static void stop() {
        pair.close();
        plain.close();
    }

    private static RequestAuth userCredentials(String url, Map<String, String> props, Map<String, String> env) {
        AwsEnvironment e = AwsEnvironment.of(props, env);
        return new StoreResources(
                        TestStores.S3_CLIENTS,
                        e,
                        MemoryLimits.defaults(),
                        false,
                        () -> TestStores.HTTP_CLIENT,
                        TrustSettings.defaults(),
                        null,
                        HttpLogins.of(e))
                .userHttpAuth(URI.create(url));
    }

    private static HttpObjectSource open(String url, RequestAuth auth) {
        return HttpObjectSource.open(
                URI.create(url), HttpSourceSettings.of(HttpSettings.defaults()), TestStores.HTTP_CLIENT, auth);
    }

    @Test
    void rangedReadsFollowTheEarthdataFlow() throws Exception {
        RequestAuth auth = userCredentials(
                pair.dataUrl("/granule.nc"),
                Map.of(HttpLogins.NETRC, netrc.toString(), HttpLogins.LOGIN_HOSTS, pair.loginHost()),
                Map.of());
        pair.clear();
        try (HttpObjectSource s = open(pair.dataUrl("/granule.nc"), auth)) {
            assertArrayEquals(new byte[] {12, 13, 14}, s.readFully(2, 3));
            int logins = 0;
            for (LoginServerPair.Request q : pair.requests()) {
                List<String> authz = q.headers().getOrDefault("authorization", List.of());
                if (q.server().equals("login")) {
                    logins++;
                } else {
                    assertTrue(authz.isEmpty(), "the data host got an Authorization: " + q);
                    assertFalse(q.headers().toString().contains(PASSWORD), q.toString());
                }
            }
            assertEquals(1, logins, pair.requests().toString());
            pair.clear();
            assertArrayEquals(new byte[] {16, 17}, s.readFully(6, 2));
            assertEquals(1, pair.requests().size(), "the session cookie is kept: " + pair.requests());
        }
    }

    @Test
    void aBearerTokenGoesToTheUsersOriginAndNotWithoutCredentials() throws Exception {
        plain.resetCounters();
        try (HttpObjectSource s = open(
                plain.url("/x.nc"),
                userCredentials(plain.url("/x.nc"), Map.of(), Map.of("NCZARR_BEARER_TOKEN", TOKEN)))) {
            assertArrayEquals(new byte[] {2, 3}, s.readFully(1, 2));
        }
        assertTrue(
                plain.requestHeaders().stream()
                        .allMatch(
                                h -> h.getOrDefault("authorization", List.of()).equals(List.of("Bearer " + TOKEN))),
                plain.requestHeaders().toString());
        plain.resetCounters();
        try (HttpObjectSource s = open(plain.url("/x.nc"), RequestAuth.NONE)) {
            assertArrayEquals(new byte[] {1, 2, 3, 4}, s.readFully(0, 4));
        }
        assertFalse(
                plain.requestHeaders().toString().contains(TOKEN),
                plain.requestHeaders().toString());
    }
}
