package io.nczarr.http.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The {@code .netrc} grammar, and errors that name the file and line but never a word of the file. */
class NetrcTest {

    @Test
    void machinesDefaultMacrosQuotesAndComments() throws Exception {
        String text = "# my hosts\n"
                + "machine urs.earthdata.nasa.gov login alice password s3cret\n"
                + "macdef init\n"
                + "cd /pub\n"
                + "machine evil.example.com login x password y\n"
                + "\n"
                + "machine Data.Example.ORG\n"
                + "  login \"bob smith\" account acct\n"
                + "  password \"pa ss\\\"word\" # trailing comment\n"
                + "machine urs.earthdata.nasa.gov login second password ignored\n"
                + "machine nologin.example password only\n"
                + "default login anon password guest\n";
        Netrc n = Netrc.parse(text, "/home/u/.netrc");
        assertEquals("alice", n.machine("URS.earthdata.nasa.gov").orElseThrow().login());
        assertEquals("s3cret", n.machine("urs.earthdata.nasa.gov").orElseThrow().password());
        Netrc.Entry d = n.machine("data.example.org").orElseThrow();
        assertEquals("bob smith", d.login());
        assertEquals("pa ss\"word", d.password());
        // the macro body (including its 'machine' line) is skipped
        assertTrue(n.machine("evil.example.com").isEmpty());
        // an entry without login is no entry
        assertTrue(n.machine("nologin.example").isEmpty());
        assertEquals("guest", n.defaultEntry().orElseThrow().password());
        assertFalse(n.entries().toString().contains("s3cret"), n.entries().toString());
    }

    @Test
    void syntaxErrorsNameFileAndLineNeverTheSecret() {
        List<String[]> cases = List.of(
                new String[] {"machine h login u password my secret\n", "1"},
                new String[] {"\n\nlogin u password topsecret\n", "3"},
                new String[] {"machine h login u\npassword \"unclosed topsecret\n", "2"},
                new String[] {"machine h login u password", "1"});
        for (String[] c : cases) {
            NetrcException e = assertThrows(NetrcException.class, () -> Netrc.parse(c[0], "/home/u/.netrc"), c[0]);
            assertTrue(e.getMessage().startsWith("/home/u/.netrc: line " + c[1] + ":"), e.getMessage());
            assertFalse(e.getMessage().contains("secret") || e.getMessage().contains("topsecret"), e.getMessage());
            assertEquals("/home/u/.netrc", e.dataset());
        }
    }

    @Test
    void sizeIsBounded() {
        String big = "#".repeat(Netrc.MAX_CHARS + 1);
        NetrcException e = assertThrows(NetrcException.class, () -> Netrc.parse(big, "f"));
        assertTrue(e.getMessage().contains("larger than"), e.getMessage());
    }

    @Test
    void bearerTokensMatchTheLongestPrefixOnItsOwnHostOnly() {
        BearerTokens t = new BearerTokens(List.of(
                BearerTokens.parseLine("https://Data.example.com t1", "x"),
                BearerTokens.parseLine("https://data.example.com/secure/ t2", "x")));
        assertEquals("t1", t.tokenFor(URI.create("https://data.example.com/a")).orElseThrow());
        assertEquals(
                "t2",
                t.tokenFor(URI.create("https://DATA.example.com/secure/b")).orElseThrow());
        assertTrue(t.tokenFor(URI.create("https://data.example.com.evil.org/a")).isEmpty());
        assertTrue(t.tokenFor(URI.create("http://data.example.com/a")).isEmpty());
        assertTrue(t.tokenFor(URI.create("https://data.example.com:8443/a")).isEmpty());
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class, () -> BearerTokens.parseLine("ftp://h tok3n", "tokens line 4"));
        assertFalse(e.getMessage().contains("tok3n"), e.getMessage());
        assertTrue(e.getMessage().startsWith("tokens line 4"), e.getMessage());
    }

    @Test
    void cookiesGoBackToTheirHostOnly() {
        CookieJar jar = new CookieJar();
        jar.store(URI.create("https://data.example.com/login"), List.of("session=abc; Domain=example.com; Path=/"));
        jar.store(URI.create("https://urs.example.com/"), List.of("urs=1; Secure"));
        assertEquals("session=abc", jar.header(URI.create("https://data.example.com/x")));
        assertEquals(null, jar.header(URI.create("https://other.example.com/x")));
        assertEquals(null, jar.header(URI.create("http://urs.example.com/x")));
        assertEquals("urs=1", jar.header(URI.create("https://urs.example.com/x")));
        jar.store(URI.create("https://data.example.com/"), List.of("session=gone; Max-Age=0"));
        assertEquals(null, jar.header(URI.create("https://data.example.com/x")));
    }
}
