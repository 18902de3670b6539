package io.nczarr.http.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which credential {@link HttpAuth} puts on which request, hop by hop (no network). */
class HttpAuthTest {
    private static final String LOGIN = "urs.earthdata.nasa.gov";

    private static HttpAuth auth(String userToken, String earthdataToken) throws Exception {
        Netrc netrc = Netrc.parse(
                "machine " + LOGIN + " login alice password pw\n"
                        + "machine data.example.org login bob password pw2\n"
                        + "default login d password pw3\n",
                "netrc");
        BearerTokens tokens = new BearerTokens(List.of(BearerTokens.parseLine("https://api.example.com/v1/ tk", "t")));
        return new HttpAuth(netrc, tokens, userToken, earthdataToken, Set.of(LOGIN), h -> h.equals("127.0.0.1"));
    }

    private static Optional<String> authorization(RequestAuth.Chain c, String url, int hop) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url));
        c.authorize(URI.create(url), hop, b);
        return b.build().headers().firstValue("Authorization");
    }

    private static String basic(String s) {
        return "Basic " + Base64.getEncoder().encodeToString(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void eachHopGetsOnlyWhatIsBoundToItsOwnUrl() throws Exception {
        HttpAuth a = auth(null, null);
        URI user = URI.create("https://data.example.org/x.zarr");
        RequestAuth.Chain c = a.chain(user, user, null);
        assertEquals(Optional.of(basic("bob:pw2")), authorization(c, "https://data.example.org/x.zarr/.zgroup", 0));
        // a plain-http request to a non-loopback host gets nothing, even its own netrc entry
        assertEquals(Optional.empty(), authorization(c, "http://data.example.org/x.zarr/.zgroup", 0));
        // after a redirect: the login host gets its own entry, another host nothing (not even the default)
        assertEquals(Optional.of(basic("alice:pw")), authorization(c, "https://" + LOGIN + "/oauth/authorize", 1));
        assertEquals(Optional.empty(), authorization(c, "https://cdn.example.net/obj", 1));
        // a prefix token on its prefix only
        assertEquals(Optional.of("Bearer tk"), authorization(c, "https://api.example.com/v1/a", 2));
        assertEquals(Optional.empty(), authorization(c, "https://api.example.com/v2/a", 2));
        // loopback (plain http allowed) but no entry: nothing
        assertEquals(Optional.empty(), authorization(c, "http://127.0.0.1:8080/a", 0));
    }

    @Test
    void tokensFromTheEnvironmentStayOnTheirHosts() throws Exception {
        HttpAuth a = auth("utok", "etok");
        URI user = URI.create("https://data.lpdaac.earthdatacloud.nasa.gov/store.zarr");
        RequestAuth.Chain c = a.chain(user, user, null);
        assertEquals(Optional.of("Bearer utok"), authorization(c, user + "/.zgroup", 0));
        assertEquals(Optional.of("Bearer etok"), authorization(c, "https://other.earthdata.nasa.gov/a", 1));
        // the login host gets its netrc password, never the token; http and look-alike hosts get nothing
        assertEquals(Optional.of(basic("alice:pw")), authorization(c, "https://" + LOGIN + "/oauth", 1));
        assertEquals(Optional.empty(), authorization(c, "http://other.earthdata.nasa.gov/a", 1));
        assertEquals(Optional.empty(), authorization(c, "https://earthdata.nasa.gov.evil.org/a", 1));
    }

    @Test
    void userInfoGoesToTheUsersOriginOnly() throws Exception {
        HttpAuth a = auth(null, null);
        URI user = URI.create("https://u:p%40ss@host.example.org:8443/ds");
        RequestAuth.Chain c = a.chain(URI.create("https://host.example.org:8443/ds"), user, user.getUserInfo());
        assertEquals(Optional.of(basic("u:p@ss")), authorization(c, "https://host.example.org:8443/ds/a", 0));
        assertEquals(Optional.empty(), authorization(c, "https://host.example.org/ds/a", 1));
        assertTrue(a.chain(user, user, null) != null);
    }
}
