package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.kerchunk.ReferenceStore;
import io.nczarr.testkit.http.LoginServerPair;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21, "HTTP authentication, bound per host": the Earthdata Login cookie flow against a loopback login and
 * data server pair ({@code .netrc} password to the login host only, the session cookie to the data host only),
 * and the credentials test: no {@code Authorization}, cookie or bearer token reaches a host the user did not
 * bind them to (a kerchunk target on another host, a redirect to another origin).
 */
class HttpCredentialsTest {
    private static final String PASSWORD = "s3cret-pw";
    private static final String TOKEN = "tok-user-origin";
    private static final String OTHER_TOKEN = "tok-other-host";

    @TempDir
    static Path tmp;

    private static LoginServerPair pair;
    private static RangeHttpServer other;
    private static Path netrc;

    @BeforeAll
    static void start() throws Exception {
        pair = LoginServerPair.start("127.0.0.1", "127.0.0.3", "alice", PASSWORD);
        other = RangeHttpServer.startOn("127.0.0.2");
        pair.put("/ds/.zgroup", "{\"zarr_format\":2}".getBytes(StandardCharsets.UTF_8));
        pair.put("/ds/v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        other.put("/data.bin", new byte[] {9, 8, 7, 6});
        netrc = tmp.resolve("netrc");
        Files.writeString(
                netrc,
                "machine " + pair.loginHost() + " login alice password " + PASSWORD + "\n"
                        + "machine 127.0.0.2 login mallory password " + PASSWORD + "\n"
                        + "default login anyone password " + PASSWORD + "\n");
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

    private static StoreResources resources(Map<String, String> props, Map<String, String> env, TrustSettings t) {
        AwsEnvironment e = AwsEnvironment.of(props, env);
        return new StoreResources(
                TestStores.S3_CLIENTS,
                e,
                MemoryLimits.defaults(),
                false,
                () -> TestStores.HTTP_CLIENT,
                t,
                null,
                HttpLogins.of(e));
    }

    private static StoreResources earthdata() {
        return resources(
                Map.of(HttpLogins.NETRC, netrc.toString(), HttpLogins.LOGIN_HOSTS, pair.loginHost()),
                Map.of(),
                TrustSettings.defaults());
    }

    private static String basic(String user) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ":" + PASSWORD).getBytes(StandardCharsets.UTF_8));
    }

    /** No header of any request seen by {@code server} carries a credential or the password. */
    private static void assertNothingSecret(List<Map<String, List<String>>> seen, String what) {
        assertFalse(seen.isEmpty(), what + ": the host was asked");
        for (Map<String, List<String>> h : seen) {
            assertFalse(h.containsKey("authorization") || h.containsKey("cookie"), what + ": " + h);
            assertFalse(h.toString().contains(PASSWORD) || h.toString().contains(TOKEN), what + ": " + h);
        }
    }

    @Test
    void earthdataFlowSendsThePasswordToTheLoginHostAndTheCookieToTheDataHost() throws Exception {
        StoreResources r = earthdata();
        String url = pair.dataUrl("/ds") + "#mode=zarr";
        try (Store s = Stores.open(DatasetUrl.parse(url), r)) {
            assertArrayEquals(new byte[] {3, 4, 5}, s.getRange("v/0", 2, 3).orElseThrow());
            List<LoginServerPair.Request> seen = pair.requests();
            // data (302) -> login (Basic, 302) -> data /urs_redirect (Set-Cookie, 302) -> data (cookie) : 4
            assertEquals(4, seen.size(), seen.toString());
            int logins = 0;
            for (LoginServerPair.Request q : seen) {
                List<String> authz = q.headers().getOrDefault("authorization", List.of());
                String cookie = String.join(";", q.headers().getOrDefault("cookie", List.of()));
                if (q.server().equals("login")) {
                    assertEquals(List.of(basic("alice")), authz, q.toString());
                    assertFalse(cookie.contains("data_session"), q.toString());
                    logins++;
                } else {
                    assertTrue(authz.isEmpty(), "the data host got an Authorization: " + q);
                    assertFalse(q.headers().toString().contains(PASSWORD), q.toString());
                    assertFalse(cookie.contains("urs_user"), "the login host's cookie reached the data host: " + q);
                }
            }
            assertEquals(1, logins);
            assertTrue(seen.get(3).headers().get("cookie").get(0).contains("data_session="), seen.toString());
            // the session is kept: the next read is one request, and the whole object works too
            pair.clear();
            assertArrayEquals(new byte[] {1, 2, 3, 4, 5, 6, 7, 8}, s.get("v/0").orElseThrow());
            assertEquals(1, pair.requests().size(), pair.requests().toString());
        }
    }

    @Test
    void aHostNotConfiguredAsLoginHostNeverGetsTheNetrcPasswordAfterARedirect() throws Exception {
        // same netrc, but the login hosts are the default (urs.earthdata.nasa.gov): 127.0.0.3 is not one
        StoreResources r = resources(Map.of(HttpLogins.NETRC, netrc.toString()), Map.of(), TrustSettings.defaults());
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), r)) {
            StoreException e = assertThrows(StoreException.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains("401"), e.getMessage());
            assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
        }
        for (LoginServerPair.Request q : pair.requests()) {
            assertFalse(q.headers().containsKey("authorization"), q.toString());
        }
    }

    /** A kerchunk reference file on the user's host names a target on another host: the target is anonymous. */
    @Test
    void aReferenceTargetOnAnotherHostGetsNoCredentials() throws Exception {
        String refs = "{\"version\":1,\"refs\":{\".zgroup\":\"{\\\"zarr_format\\\":2}\",\"t\":[\""
                + other.url("/data.bin") + "\",0,4]}}";
        pair.put("/refs.json", refs.getBytes(StandardCharsets.UTF_8));
        Map<String, String> props = new HashMap<>();
        props.put(HttpLogins.NETRC, netrc.toString());
        props.put(HttpLogins.LOGIN_HOSTS, pair.loginHost());
        // a token the user bound to the other host by prefix: still not sent for a document-named target
        props.put(HttpLogins.BEARER + "1", other.url("/") + " " + OTHER_TOKEN);
        StoreResources r = resources(props, Map.of("NCZARR_BEARER_TOKEN", TOKEN), TrustSettings.defaults());
        try (Store s = ReferenceStore.open(DatasetUrl.parse(pair.dataUrl("/refs.json") + "#mode=kerchunk"), r)) {
            assertArrayEquals(new byte[] {9, 8, 7, 6}, s.get("t").orElseThrow());
        }
        assertNothingSecret(other.requestHeaders(), "kerchunk target on another host");
        assertFalse(other.requestHeaders().toString().contains(OTHER_TOKEN));
        // the reference file itself went to the user's host with the user-origin token
        assertTrue(
                pair.requests().stream()
                        .anyMatch(q -> q.headers()
                                .getOrDefault("authorization", List.of())
                                .contains("Bearer " + TOKEN)),
                pair.requests().toString());

        // bound explicitly (nczarr.trust.credentials): the other host's own token goes there, nothing else
        other.reset();
        StoreResources bound = resources(
                props,
                Map.of("NCZARR_BEARER_TOKEN", TOKEN),
                new TrustSettings(List.of(), List.of(), List.of(other.url("/"))));
        try (Store s = ReferenceStore.open(DatasetUrl.parse(pair.dataUrl("/refs.json") + "#mode=kerchunk"), bound)) {
            assertArrayEquals(new byte[] {9, 8, 7, 6}, s.get("t").orElseThrow());
        }
        for (Map<String, List<String>> h : other.requestHeaders()) {
            assertEquals(List.of("Bearer " + OTHER_TOKEN), h.get("authorization"), h.toString());
            assertFalse(h.toString().contains(TOKEN) || h.toString().contains(PASSWORD), h.toString());
        }
    }

    /** The user's own URL redirects to another origin: the token, password and cookies stay behind. */
    @Test
    void aRedirectToAnotherOriginDropsTheCredentials() throws Exception {
        com.sun.net.httpserver.HttpServer redirector =
                com.sun.net.httpserver.HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        redirector.createContext("/", ex -> {
            ex.getResponseHeaders().add("Set-Cookie", "redirector=1; Path=/");
            ex.getResponseHeaders().set("Location", other.url("/data.bin"));
            ex.sendResponseHeaders(307, -1);
            ex.close();
        });
        redirector.start();
        try {
            String base = "http://127.0.0.1:" + redirector.getAddress().getPort();
            StoreResources r = resources(
                    Map.of(HttpLogins.NETRC, netrc.toString()),
                    Map.of("NCZARR_BEARER_TOKEN", TOKEN),
                    TrustSettings.defaults());
            try (Store s = Stores.open(DatasetUrl.parse(base + "/#mode=zarr"), r)) {
                assertArrayEquals(
                        new byte[] {8, 7}, s.getRange("data.bin", 1, 2).orElseThrow());
            }
            assertNothingSecret(other.requestHeaders(), "redirected to another origin");
            // user:password@ in the user's URL: Basic to that origin only, never after the redirect
            other.reset();
            String withUser = "http://bob:" + PASSWORD + "@127.0.0.1:"
                    + redirector.getAddress().getPort();
            try (Store s = Stores.open(DatasetUrl.parse(withUser + "/#mode=zarr"), r)) {
                assertArrayEquals(new byte[] {9}, s.getRange("data.bin", 0, 1).orElseThrow());
                assertFalse(s.location().contains(PASSWORD), s.location());
            }
            assertNothingSecret(other.requestHeaders(), "user-info URL redirected to another origin");
        } finally {
            redirector.stop(0);
        }
    }

    /** The netrc {@code default} entry answers a Basic challenge of the user's own origin, and nothing else. */
    @Test
    void theDefaultEntryAnswersOnlyAChallengeOfTheUsersOrigin() throws Exception {
        java.util.concurrent.ConcurrentLinkedQueue<String> seen = new java.util.concurrent.ConcurrentLinkedQueue<>();
        com.sun.net.httpserver.HttpServer guarded =
                com.sun.net.httpserver.HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
        guarded.createContext("/", ex -> {
            String a = ex.getRequestHeaders().getFirst("Authorization");
            seen.add(String.valueOf(a));
            if (!basic("anyone").equals(a)) {
                ex.getResponseHeaders().set("WWW-Authenticate", "Basic realm=\"x\"");
                ex.sendResponseHeaders(401, -1);
            } else {
                ex.sendResponseHeaders(200, 2);
                ex.getResponseBody().write(new byte[] {4, 2});
            }
            ex.close();
        });
        guarded.start();
        try {
            StoreResources r =
                    resources(Map.of(HttpLogins.NETRC, netrc.toString()), Map.of(), TrustSettings.defaults());
            String base = "http://127.0.0.1:" + guarded.getAddress().getPort();
            try (Store s = Stores.open(DatasetUrl.parse(base + "/#mode=zarr"), r)) {
                assertArrayEquals(new byte[] {4, 2}, s.get("x").orElseThrow());
            }
            assertEquals(List.of("null", basic("anyone")), List.copyOf(seen));
        } finally {
            guarded.stop(0);
        }
    }

    @Test
    void aBadNetrcIsAnErrorNamingTheFileAndLineWithoutTheSecret() throws Exception {
        Path bad = Files.writeString(tmp.resolve("bad-netrc"), "machine h login u\npassword two words-" + PASSWORD);
        StoreResources r = resources(Map.of(), Map.of("NETRC", bad.toString()), TrustSettings.defaults());
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), r)) {
            Exception e = assertThrows(Exception.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains(bad.toString()) && e.getMessage().contains("line 2"), e.getMessage());
            assertFalse(e.getMessage().contains(PASSWORD), e.getMessage());
        }
        StoreResources missing =
                resources(Map.of(HttpLogins.NETRC, tmp.resolve("nope").toString()), Map.of(), TrustSettings.defaults());
        try (Store s = Stores.open(DatasetUrl.parse(pair.dataUrl("/ds") + "#mode=zarr"), missing)) {
            Exception e = assertThrows(Exception.class, () -> s.get("v/0"));
            assertTrue(e.getMessage().contains("nope") && e.getMessage().contains(HttpLogins.NETRC), e.getMessage());
        }
    }
}
