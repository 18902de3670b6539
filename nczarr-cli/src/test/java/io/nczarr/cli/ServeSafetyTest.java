package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.s3.DirectoryS3Server;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 21 finding 4: {@code nczarr serve} is read-only and confined. Links out of the directory, FIFOs and
 * devices are neither listed nor served (and never block), every S3 write operation (PUT object, PUT ?acl on
 * a key, a link and the bucket, DELETE, multipart, copy, multi-object delete, versioning) is refused with an S3
 * error and changes nothing on disk, and a taken port is one clear line.
 */
class ServeSafetyTest {
    @TempDir
    static Path tmp;

    private static Path served;
    private static Path secret;
    private static DirectoryS3Server server;
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws Exception {
        served = Files.createDirectories(tmp.resolve("served"));
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        secret = Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.writeString(served.resolve("a.txt"), "aaa");
        Files.writeString(Files.createDirectories(served.resolve("sub")).resolve("b.txt"), "bb");
        Files.createSymbolicLink(served.resolve("link-in.txt"), served.resolve("a.txt"));
        Files.createSymbolicLink(served.resolve("link-out.txt"), secret);
        Files.createSymbolicLink(served.resolve("dir-out"), outside);
        assertEquals(
                0,
                new ProcessBuilder("mkfifo", served.resolve("fifo").toString())
                        .start()
                        .waitFor());
        server = DirectoryS3Server.start(served, "data", 0);
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static HttpResponse<String> send(String method, String path, Map<String, String> headers, String body)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint() + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    private static HttpResponse<String> get(String path) throws Exception {
        return assertTimeoutPreemptively(Duration.ofSeconds(15), () -> send("GET", path, Map.of(), null));
    }

    /** Every file under the served and outside folders: contents, permissions and link targets. */
    private static Map<String, String> snapshot() throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> all = Files.walk(tmp)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                String state;
                if (Files.isSymbolicLink(p)) {
                    state = "link " + Files.readSymbolicLink(p);
                } else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) {
                    state = Files.readString(p) + " " + Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                } else {
                    state = (Files.isDirectory(p) ? "dir " : "other ")
                            + Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                }
                m.put(tmp.relativize(p).toString(), state);
            }
        }
        return m;
    }

    @Test
    void onlyRegularFilesInsideAreServed() throws Exception {
        assertEquals("aaa", get("/data/a.txt").body());
        assertEquals("aaa", get("/data/link-in.txt").body(), "a link inside the directory is served");
        assertEquals("bb", get("/data/sub/b.txt").body());
        for (String refused : List.of(
                "/data/link-out.txt", "/data/dir-out/secret.txt", "/data/fifo", "/data/../outside/secret.txt")) {
            HttpResponse<String> r = get(refused);
            assertTrue(r.statusCode() == 404 || r.statusCode() == 403 || r.statusCode() == 400, refused + ": " + r);
            assertFalse(r.body().contains("secret"), refused + ": " + r.body());
        }
        HttpResponse<String> head =
                assertTimeoutPreemptively(Duration.ofSeconds(15), () -> send("HEAD", "/data/fifo", Map.of(), null));
        assertTrue(head.statusCode() >= 400, "HEAD of a FIFO: " + head.statusCode());
    }

    @Test
    void listingsShowNeitherLinksOutNorFifos() throws Exception {
        for (String query : List.of("?list-type=2", "", "?list-type=2&delimiter=/", "?delimiter=/&prefix=")) {
            HttpResponse<String> r = get("/data" + query);
            assertEquals(200, r.statusCode(), query + ": " + r.body());
            String b = r.body();
            assertTrue(b.contains("<Key>a.txt</Key>"), query + ": " + b);
            assertTrue(b.contains("<Key>link-in.txt</Key>"), query + ": " + b);
            assertFalse(b.contains("link-out"), query + ": " + b);
            assertFalse(b.contains("fifo"), query + ": " + b);
            assertFalse(b.contains("dir-out"), query + ": " + b);
            assertFalse(b.contains("secret"), query + ": " + b);
            if (query.contains("delimiter")) {
                assertTrue(b.contains("<Prefix>sub/</Prefix>"), query + ": " + b);
            } else {
                assertTrue(b.contains("<Key>sub/b.txt</Key>"), query + ": " + b);
            }
        }
        assertEquals(200, get("/data?location").statusCode(), "GetBucketLocation");
        HttpResponse<String> page = get("/data?list-type=2&max-keys=1");
        assertTrue(page.body().contains("<IsTruncated>true</IsTruncated>"), page.body());
    }

    @Test
    void everyWriteIsRefusedAndChangesNothing() throws Exception {
        Map<String, String> before = snapshot();
        String acl = "x-amz-acl";
        String multiDelete = "<Delete><Object><Key>a.txt</Key></Object></Delete>";
        Object[][] writes = {
            {"PUT", "/data/new.txt", Map.of(), "new"},
            {"PUT", "/data/a.txt", Map.of(), "overwritten"},
            {"PUT", "/data/a.txt?acl", Map.of(acl, "public-read-write"), ""},
            {"PUT", "/data/link-out.txt?acl", Map.of(acl, "public-read-write"), ""},
            {"PUT", "/data?acl", Map.of(acl, "public-read-write"), ""},
            {"PUT", "/data/a.txt?tagging", Map.of(), "<Tagging><TagSet/></Tagging>"},
            {
                "PUT",
                "/data?versioning",
                Map.of(),
                "<VersioningConfiguration><Status>Enabled</Status></VersioningConfiguration>"
            },
            {"PUT", "/data/copy.txt", Map.of("x-amz-copy-source", "/data/a.txt"), ""},
            {"PUT", "/data/copy2.txt", Map.of("x-amz-copy-source", "/data/link-out.txt"), ""},
            {"DELETE", "/data/a.txt", Map.of(), null},
            {"DELETE", "/data/sub/b.txt", Map.of(), null},
            {"DELETE", "/data", Map.of(), null},
            {"POST", "/data?delete", Map.of(), multiDelete},
            {"POST", "/data/big.bin?uploads", Map.of(), null},
            {"PUT", "/data/big.bin?partNumber=1&uploadId=x", Map.of(), "part"},
            {"POST", "/data/big.bin?uploadId=x", Map.of(), "<CompleteMultipartUpload/>"},
            {"DELETE", "/data/big.bin?uploadId=x", Map.of(), null},
            {"PUT", "/other", Map.of(), null},
        };
        for (Object[] w : writes) {
            @SuppressWarnings("unchecked")
            Map<String, String> h = (Map<String, String>) w[2];
            HttpResponse<String> r = assertTimeoutPreemptively(
                    Duration.ofSeconds(15), () -> send((String) w[0], (String) w[1], h, (String) w[3]));
            int s = r.statusCode();
            assertTrue(s == 403 || s == 405 || s == 501 || s == 400 || s == 404, w[0] + " " + w[1] + ": " + s);
            assertTrue(
                    r.body().contains("<Error>") || r.body().contains("<Code>"), w[0] + " " + w[1] + ": " + r.body());
            assertEquals(before, snapshot(), w[0] + " " + w[1] + " changed the disk");
        }
        assertEquals("secret", Files.readString(secret));
    }

    @Test
    void aTakenPortIsOneClearLine() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 0));
            IOException e = assertThrows(
                    IOException.class, () -> DirectoryS3Server.start(served, "data", taken.getLocalPort()));
            assertTrue(e.getMessage().contains("in use"), e.getMessage());
            assertFalse(e.getMessage().contains("\n"), e.getMessage());
            MainTest.Run r = assertTimeoutPreemptively(
                    Duration.ofSeconds(20),
                    () -> MainTest.run("serve", served.toString(), "--port", String.valueOf(taken.getLocalPort())));
            assertEquals(1, r.rc());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains("in use"), r.err());
        }
    }
}
