package io.nczarr.source;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.TargetRefusedException;
import io.nczarr.url.DatasetUrl;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules of {@link Trust} on their own, without files or connections: documents from a public host, a
 * loopback host, a private host and a local directory against every kind of target (public, loopback, private,
 * link-local (IPv4 and IPv6 metadata addresses), local file inside and outside the document's directory, and
 * the spellings of local files), plus the allow list, the local roots and credential binding.
 */
class TrustRulesTest {
    @TempDir
    Path tmp;

    private static final String PUBLIC_DOC = "http://93.184.215.14/refs/doc.json";
    private static final String LOOPBACK_DOC = "http://127.0.0.1:8080/refs/doc.json";
    private static final String PRIVATE_DOC = "http://10.1.2.3/refs/doc.json";

    private static Origin docOrigin(String doc, TrustSettings settings) {
        return Origin.user(DatasetUrl.parse(doc + "#mode=kerchunk"), settings).within(URI.create(doc));
    }

    /** null: read; else the option the refusal names ("" for none). */
    private static String outcome(Origin o, String target) {
        try {
            Trust.check(o, URI.create(target), "k", LocalTargets.Kind.REGULAR_FILE);
            return null;
        } catch (TargetRefusedException e) {
            assertTrue(e.getMessage().contains("refused target"), e.getMessage());
            return e.option() == null ? "" : e.option().replaceAll("=.*", "");
        }
    }

    @Test
    void remoteDocumentsAgainstHosts() {
        String allow = TrustSettings.ALLOW;
        // document host, target, expected (null = read)
        Object[][] table = {
            {PUBLIC_DOC, "http://93.184.215.15/data.nc", null},
            {PUBLIC_DOC, "https://example.org/data.nc", null},
            {PUBLIC_DOC, "s3://bucket/data.nc", null},
            {PUBLIC_DOC, "http://127.0.0.1:9000/b/data.nc", allow},
            {PUBLIC_DOC, "http://localhost/data.nc", allow},
            {PUBLIC_DOC, "http://[::1]/data.nc", allow},
            {PUBLIC_DOC, "http://0.0.0.0/data.nc", allow},
            {PUBLIC_DOC, "http://10.0.0.1/data.nc", allow},
            {PUBLIC_DOC, "http://172.16.5.5/data.nc", allow},
            {PUBLIC_DOC, "http://192.168.1.1/data.nc", allow},
            {PUBLIC_DOC, "http://169.254.169.254/latest/meta-data/", allow},
            {PUBLIC_DOC, "http://[fe80::1]/x", allow},
            {PUBLIC_DOC, "http://[fd00:ec2::254]/latest/", allow},
            {PUBLIC_DOC, "s3://127.0.0.1:9000/b/k", allow},
            {LOOPBACK_DOC, "http://127.0.0.2:9000/data.nc", null},
            {LOOPBACK_DOC, "http://localhost:9000/data.nc", null},
            {LOOPBACK_DOC, "http://169.254.169.254/latest/meta-data/", allow},
            {LOOPBACK_DOC, "http://10.0.0.1/data.nc", allow},
            {LOOPBACK_DOC, "http://93.184.215.15/data.nc", null},
            {PRIVATE_DOC, "http://10.9.9.9/data.nc", null},
            {PRIVATE_DOC, "http://127.0.0.1/data.nc", allow},
            {PRIVATE_DOC, "http://169.254.169.254/", allow},
        };
        for (Object[] row : table) {
            Origin o = docOrigin((String) row[0], TrustSettings.defaults());
            assertEquals(row[2], outcome(o, (String) row[1]), row[0] + " -> " + row[1]);
        }
    }

    @Test
    void remoteDocumentsNeverReachLocalFilesInAnySpelling() {
        for (String doc : List.of(PUBLIC_DOC, LOOPBACK_DOC, "s3://bucket/refs.json")) {
            Origin o = docOrigin(doc, TrustSettings.defaults());
            for (String t :
                    List.of("file:///etc/passwd", "FILE:///etc/passwd", "file:/etc/passwd", "File:/etc/./passwd")) {
                TargetRefusedException e = assertThrows(
                        TargetRefusedException.class,
                        () -> Trust.check(o, URI.create(t), "v/0", LocalTargets.Kind.REGULAR_FILE),
                        doc + " -> " + t);
                assertTrue(e.getMessage().contains("may not name local files"), e.getMessage());
                assertTrue(e.getMessage().contains(TrustSettings.ALLOW), e.getMessage());
                assertTrue(e.getMessage().contains("v/0"), e.getMessage());
            }
        }
    }

    @Test
    void localDocumentsReachTheirOwnTreeAndTheRootsGiven() throws Exception {
        Path docDir = Files.createDirectories(tmp.resolve("refs"));
        Path inside = Files.write(Files.createDirectories(docDir.resolve("sub")).resolve("in.bin"), new byte[4]);
        Path outside = Files.write(tmp.resolve("out.bin"), new byte[4]);
        Path link = Files.createSymbolicLink(docDir.resolve("link.bin"), outside);
        Origin o = Origin.user(DatasetUrl.parse(docDir.resolve("r.json").toString()), TrustSettings.defaults())
                .within(docDir.resolve("r.json").toUri());
        assertNull(outcome(o, inside.toUri().toString()));
        assertEquals(TrustSettings.LOCAL_ROOTS, outcome(o, outside.toUri().toString()));
        assertEquals(TrustSettings.LOCAL_ROOTS, outcome(o, link.toUri().toString()), "a link out of the tree");
        assertEquals(TrustSettings.LOCAL_ROOTS, outcome(o, docDir.toUri() + "../out.bin"));
        assertEquals(TrustSettings.LOCAL_ROOTS, outcome(o, "file:///etc/passwd"));
        // local documents reach loopback and private hosts, never link-local ones
        assertNull(outcome(o, "http://127.0.0.1:9000/b/k"));
        assertNull(outcome(o, "http://10.0.0.1/k"));
        assertEquals(TrustSettings.ALLOW, outcome(o, "http://169.254.169.254/latest/meta-data/"));
        // the roots option widens
        Origin wide = Origin.user(
                        DatasetUrl.parse(docDir.resolve("r.json").toString()),
                        new TrustSettings(List.of(), List.of(tmp), List.of()))
                .within(docDir.resolve("r.json").toUri());
        assertNull(outcome(wide, outside.toUri().toString()));
        assertNull(outcome(wide, link.toUri().toString()));
    }

    @Test
    void nonRegularFilesAreRefusedWhateverAllowsThem() throws Exception {
        Path fifo = tmp.resolve("fifo");
        assertEquals(0, new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor());
        TrustSettings all = new TrustSettings(List.of("file:/"), List.of(), List.of());
        Origin o = docOrigin(PUBLIC_DOC, all);
        assertEquals("", outcome(o, fifo.toUri().toString()));
        assertEquals("", outcome(o, "file:///dev/zero"));
        assertEquals("", outcome(o, tmp.toUri().toString()), "a directory where a file is wanted");
        Trust.check(o, tmp.toUri(), "k", LocalTargets.Kind.FILE_OR_DIRECTORY);
    }

    @Test
    void theAllowListOpensPrefixesAndComesFromTheUserUrlOnly() {
        Origin o = docOrigin(PUBLIC_DOC, TrustSettings.defaults());
        assertEquals(TrustSettings.ALLOW, outcome(o, "http://127.0.0.1:9000/b/k"));
        Origin viaUrl = Origin.user(
                        DatasetUrl.parse(PUBLIC_DOC + "#mode=kerchunk&nczarr.trust.allow=HTTP://127.0.0.1:9000/b/"),
                        TrustSettings.defaults())
                .within(URI.create(PUBLIC_DOC));
        assertNull(outcome(viaUrl, "http://127.0.0.1:9000/b/k"));
        assertEquals(TrustSettings.ALLOW, outcome(viaUrl, "http://127.0.0.1:9000/other/k"));
        assertEquals(TrustSettings.ALLOW, outcome(viaUrl, "http://127.0.0.1:90001/b/k"));
        // a fragment key in a document-named URL widens nothing: it is dropped
        Map<String, String> p = Trust.parametersFor(
                o, URI.create("http://h/x"), Map.of("nczarr.trust.allow", "file:/", "mode", "bytes"), false);
        assertEquals(Map.of("mode", "bytes"), p);
    }

    @Test
    void credentialsGoOnlyToTheUsersEndpointAndBucket() {
        String user = "http://127.0.0.1:9000/mybucket/refs/r.json#mode=kerchunk,s3&aws.profile=me";
        Origin o = Origin.user(DatasetUrl.parse(user), TrustSettings.defaults())
                .within(URI.create("http://127.0.0.1:9000/mybucket/refs/r.json"));
        assertTrue(Trust.credentialsBound(o, URI.create("http://127.0.0.1:9000/mybucket/data/x.nc")));
        assertFalse(Trust.credentialsBound(o, URI.create("http://127.0.0.2:9000/mybucket/data/x.nc")));
        assertFalse(Trust.credentialsBound(o, URI.create("http://127.0.0.1:9001/mybucket/data/x.nc")));
        assertFalse(Trust.credentialsBound(o, URI.create("http://127.0.0.1:9000/otherbucket/x.nc")));
        assertFalse(Trust.credentialsBound(o, URI.create("s3://mybucket/x.nc")), "AWS is another endpoint");
        // bound: the user's profile replaces the document's; not bound: unsigned
        Map<String, String> doc = Map.of("mode", "bytes,s3", "aws.profile", "victim");
        assertEquals(
                "me",
                Trust.parametersFor(o, URI.create("http://127.0.0.1:9000/mybucket/x.nc"), doc, true)
                        .get("aws.profile"));
        assertEquals(
                "none",
                Trust.parametersFor(o, URI.create("http://127.0.0.2:9000/b/k"), doc, true)
                        .get("aws.profile"));
        // a prefix the user bound explicitly
        Origin bound = Origin.user(
                        DatasetUrl.parse(user + "&nczarr.trust.credentials=http://127.0.0.1:9000/otherbucket/"),
                        TrustSettings.defaults())
                .within(URI.create("http://127.0.0.1:9000/mybucket/refs/r.json"));
        assertTrue(Trust.credentialsBound(bound, URI.create("http://127.0.0.1:9000/otherbucket/x.nc")));
        // the URL the user gave keeps its keys
        Origin given = Origin.user(DatasetUrl.parse(user), TrustSettings.defaults());
        assertEquals(doc, Trust.parametersFor(given, URI.create("http://127.0.0.2/b/k"), doc, true));
    }

    @Test
    void aDocumentNamedUrlLosesItsProfileButNotItsKind() {
        Origin o = docOrigin(LOOPBACK_DOC, TrustSettings.defaults());
        DatasetUrl plainHttp = Trust.forDocument(DatasetUrl.parse("http://127.0.0.2:1/x.nc#mode=bytes"), o);
        assertFalse(plainHttp.parameters().containsKey("aws.profile"), "plain HTTP stays plain HTTP");
        DatasetUrl s3 =
                Trust.forDocument(DatasetUrl.parse("http://127.0.0.2:1/b/x.nc#mode=bytes,s3&aws.profile=victim"), o);
        assertEquals("none", s3.parameter("aws.profile"));
    }

    @Test
    void hostClasses() {
        assertEquals(HostClass.LOOPBACK, HostClass.of("127.0.0.2"));
        assertEquals(HostClass.LOOPBACK, HostClass.of("[::1]"));
        assertEquals(HostClass.LOOPBACK, HostClass.of("LOCALHOST"));
        assertEquals(HostClass.LOOPBACK, HostClass.of("::ffff:127.0.0.1"));
        assertEquals(HostClass.LINK_LOCAL, HostClass.of("169.254.169.254"));
        assertEquals(HostClass.LINK_LOCAL, HostClass.of("fd00:ec2::254"));
        assertEquals(HostClass.PRIVATE, HostClass.of("172.31.255.255"));
        assertEquals(HostClass.PUBLIC, HostClass.of("172.32.0.1"));
        assertEquals(HostClass.PRIVATE, HostClass.of("100.64.0.1"));
        assertEquals(HostClass.PUBLIC, HostClass.of("8.8.8.8"));
    }

    @Test
    void badSettingsNameTheirProperty() {
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> TrustSettings.from(Map.of(TrustSettings.ALLOW, "not a url")::get, false));
        assertTrue(e.getMessage().contains(TrustSettings.ALLOW), e.getMessage());
        e = assertThrows(
                IllegalArgumentException.class,
                () -> TrustSettings.from(Map.of(TrustSettings.LOCAL_ROOTS, "relative/dir")::get, false));
        assertTrue(e.getMessage().contains(TrustSettings.LOCAL_ROOTS), e.getMessage());
        assertEquals(
                List.of("file:/"),
                TrustSettings.from(Map.<String, String>of()::get, true).allow());
    }
}
