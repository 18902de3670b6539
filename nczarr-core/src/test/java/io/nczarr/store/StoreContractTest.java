package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same contract for every store: directory, zip in netcdf-c's layout (one top folder), zip in
 * zarr-python's root layout, S3 (the loopback server) and memory, all holding {@link #OBJECTS}.
 */
class StoreContractTest {

    @TempDir
    static Path tmp;

    /** The objects every store under test holds: nested keys, an empty object, a key with a space. */
    static final Map<String, byte[]> OBJECTS = new TreeMap<>(Map.of(
            ".zgroup", bytes("{\"zarr_format\":2}"),
            ".zattrs", bytes("{}"),
            "v/.zarray", bytes("{\"shape\":[4]}"),
            "v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
            "g/.zgroup", bytes("{\"zarr_format\":2}"),
            "g/empty", new byte[0],
            "g/with space", bytes("spaced"),
            "g/w/.zarray", bytes("{}"),
            "g/w/0/1", new byte[] {9}));

    interface Factory {
        Store open() throws IOException;
    }

    /** @param lists whether the store can list (plain HTTP cannot: its list says so) */
    record Case(String name, Factory factory, boolean lists) {
        Case(String name, Factory factory) {
            this(name, factory, true);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Case> stores() throws IOException {
        Path dir = writeDirectory(tmp.resolve("dir.file"));
        Path nczip = writeZip(tmp.resolve("nc.file.zip"), "nc.file/");
        Path rootzip = writeZip(tmp.resolve("root.zip"), "");
        return Stream.of(
                new Case("directory", () -> new DirectoryStore(dir)),
                new Case("zip, netcdf-c layout", () -> new ZipStore(nczip)),
                new Case("zip, root layout", () -> new ZipStore(rootzip)),
                new Case("s3 (loopback server)", () -> s3Store(dir)),
                new Case("memory", () -> new MemoryStore("memory:contract", OBJECTS)),
                new Case("http (loopback server)", StoreContractTest::httpStore, false),
                new Case("kerchunk references, local target", () -> referenceStore(false)),
                new Case("kerchunk references, http target", () -> referenceStore(true)));
    }

    private static RangeHttpServer http;

    static synchronized RangeHttpServer httpServer() throws IOException {
        if (http == null) {
            http = RangeHttpServer.start();
            for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                http.put("/http/dir.file/" + e.getKey(), e.getValue());
            }
        }
        return http;
    }

    @AfterAll
    static void stopHttp() {
        if (http != null) {
            http.close();
        }
    }

    /** The same objects on the loopback HTTP server, opened by an http URL with mode=zarr. */
    static Store httpStore() throws IOException {
        return TestStores.open(DatasetUrl.parse(httpServer().url("/http/dir.file") + "#mode=zarr"));
    }

    /**
     * A version 1 reference file for {@link #OBJECTS}: metadata inline (one as base64, one as a JSON
     * object), every other object a range of one blob file (an empty one inline), the blob local
     * (relative URL) or on the loopback HTTP server (absolute URL).
     */
    static Store referenceStore(boolean httpTarget) throws IOException {
        Path dir = tmp.resolve(httpTarget ? "refs-http" : "refs-local");
        Files.createDirectories(dir);
        java.io.ByteArrayOutputStream blob = new java.io.ByteArrayOutputStream();
        blob.write(new byte[] {42, 42, 42}); // refs do not start at 0
        StringBuilder refs = new StringBuilder("{\"version\": 1, \"templates\": {\"b\": \"");
        refs.append(httpTarget ? httpServer().url("/refs/blob.bin") : "blob.bin")
                .append("\"}, \"refs\": {");
        boolean first = true;
        for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
            String k = e.getKey();
            String v;
            if (k.equals(".zgroup")) {
                v = "\"base64:" + java.util.Base64.getEncoder().encodeToString(e.getValue()) + "\"";
            } else if (k.equals(".zattrs")) {
                v = "{}";
            } else if (k.endsWith(".zarray") || k.endsWith(".zgroup") || e.getValue().length == 0) {
                v = new String(e.getValue(), StandardCharsets.UTF_8).replace("\"", "\\\"");
                v = "\"" + v + "\"";
            } else {
                v = "[\"{{b}}\", " + blob.size() + ", " + e.getValue().length + "]";
                blob.write(e.getValue());
            }
            refs.append(first ? "" : ", ").append('"').append(k).append("\": ").append(v);
            first = false;
        }
        refs.append("}}");
        Files.write(dir.resolve("blob.bin"), blob.toByteArray());
        if (httpTarget) {
            httpServer().put("/refs/blob.bin", blob.toByteArray());
        }
        Path json = dir.resolve("refs.json");
        Files.writeString(json, refs.toString());
        return TestStores.open(DatasetUrl.parse(json.toUri() + "#mode=kerchunk"));
    }

    static Path writeDirectory(Path dir) throws IOException {
        for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
            Path p = dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
        return dir;
    }

    /** The same objects in a bucket of the loopback S3 server, opened by an http URL with mode=s3. */
    static Store s3Store(Path dir) throws IOException {
        LocalS3 s3 = LocalS3.get();
        s3.upload(dir, "contract", "prefix/dir.file");
        return TestStores.open(DatasetUrl.parse(s3.signedUrl("contract", "prefix/dir.file", "nczarr,s3")));
    }

    /** A zip of {@link #OBJECTS}, each entry named {@code top + key} ({@code top} = "" for the root layout). */
    static Path writeZip(Path zip, String top) throws IOException {
        try (OutputStream os = Files.newOutputStream(zip);
                ZipOutputStream z = new ZipOutputStream(os)) {
            if (!top.isEmpty()) {
                z.putNextEntry(new ZipEntry(top));
                z.closeEntry();
            }
            for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                z.putNextEntry(new ZipEntry(top + e.getKey()));
                z.write(e.getValue());
                z.closeEntry();
            }
        }
        return zip;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void getReturnsEveryObjectIncludingEmptyOnes(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                assertArrayEquals(e.getValue(), s.get(e.getKey()).orElseThrow(), e.getKey());
            }
            assertEquals(0, s.get("g/empty").orElseThrow().length);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void getHandsOutItsOwnCopy(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            s.get("v/0").orElseThrow()[0] = 99;
            assertArrayEquals(OBJECTS.get("v/0"), s.get("v/0").orElseThrow());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void getIntoCallersBuffersGivesEveryObject(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            // one buffer, larger than any object and dirty: bytes past an object's length must not count
            for (java.nio.ByteBuffer buffer :
                    List.of(java.nio.ByteBuffer.allocate(64), java.nio.ByteBuffer.allocateDirect(64))) {
                List<Integer> asked = new ArrayList<>();
                java.util.function.IntFunction<java.nio.ByteBuffer> buffers = n -> {
                    asked.add(n);
                    buffer.clear();
                    for (int i = 0; i < buffer.capacity(); i++) {
                        buffer.put(i, (byte) 0x7f);
                    }
                    // position and limit as an earlier use left them: the store sets its own
                    return n <= buffer.capacity() ? buffer.limit(9).position(7) : java.nio.ByteBuffer.allocate(n);
                };
                String what = buffer.isDirect() ? "direct" : "heap";
                for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                    asked.clear();
                    java.nio.ByteBuffer b = s.get(e.getKey(), buffers).orElseThrow();
                    assertEquals(0, b.position(), e.getKey());
                    byte[] got = new byte[b.remaining()];
                    b.get(0, got);
                    assertArrayEquals(e.getValue(), got, e.getKey() + ", " + what);
                    assertTrue(asked.size() <= 1, "one buffer per object: " + asked);
                    if (!asked.isEmpty()) {
                        assertEquals(e.getValue().length, asked.get(0), "asked for the object's size");
                        assertTrue(b == buffer, "read into the buffer given");
                    }
                }
                assertTrue(s.get("v/1", buffers).isEmpty());
                assertTrue(s.get("v", buffers).isEmpty(), "a folder is not an object");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void missingIsEmptyNotAnError(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertTrue(s.get("v/1").isEmpty());
            assertTrue(s.get("nosuch/.zarray").isEmpty());
            assertTrue(s.get("v").isEmpty(), "a folder is not an object");
            assertTrue(s.getRange("v/9", 0, 4).isEmpty());
            assertTrue(s.getRange("nosuch/v/0", 2, 4).isEmpty());
            if (c.lists()) {
                assertEquals(List.of(), s.list("nosuch"));
                assertEquals(List.of(), s.list("nosuch/deeper/"));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void rangesFromTheStartTheMiddleAndPastTheEnd(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertArrayEquals(new byte[] {1, 2, 3}, s.getRange("v/0", 0, 3).orElseThrow());
            assertArrayEquals(new byte[] {3, 4, 5}, s.getRange("v/0", 2, 3).orElseThrow());
            assertArrayEquals(OBJECTS.get("v/0"), s.getRange("v/0", 0, 8).orElseThrow());
            assertArrayEquals(new byte[] {7, 8}, s.getRange("v/0", 6, 10).orElseThrow(), "clipped at the end");
            assertArrayEquals(new byte[0], s.getRange("v/0", 8, 10).orElseThrow(), "at the end");
            assertArrayEquals(new byte[0], s.getRange("v/0", 100, 4).orElseThrow(), "past the end");
            assertArrayEquals(new byte[0], s.getRange("v/0", 2, 0).orElseThrow(), "zero length");
            assertArrayEquals(new byte[0], s.getRange("g/empty", 0, 4).orElseThrow(), "empty object");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void suffixesOfEveryLength(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertArrayEquals(new byte[] {6, 7, 8}, s.getSuffix("v/0", 3).orElseThrow());
            assertArrayEquals(OBJECTS.get("v/0"), s.getSuffix("v/0", 8).orElseThrow(), "the whole object");
            assertArrayEquals(OBJECTS.get("v/0"), s.getSuffix("v/0", 100).orElseThrow(), "longer than the object");
            assertArrayEquals(new byte[0], s.getSuffix("v/0", 0).orElseThrow(), "zero length");
            assertArrayEquals(new byte[0], s.getSuffix("g/empty", 4).orElseThrow(), "empty object");
            assertTrue(s.getSuffix("v/missing", 4).isEmpty(), "missing object");
            assertThrows(IllegalArgumentException.class, () -> s.getSuffix("v/0", -1));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void negativeRangesAreRefused(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertThrows(IllegalArgumentException.class, () -> s.getRange("v/0", -1, 4));
            assertThrows(IllegalArgumentException.class, () -> s.getRange("v/0", 0, -4));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void listGivesDirectChildrenSorted(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            if (!c.lists()) {
                io.nczarr.error.UnsupportedFeatureException e =
                        assertThrows(io.nczarr.error.UnsupportedFeatureException.class, () -> s.list(""));
                assertTrue(e.getMessage().contains("zarr.consolidate_metadata"), e.getMessage());
                return;
            }
            assertEquals(List.of(".zattrs", ".zgroup", "g", "v"), s.list(""));
            assertEquals(List.of(".zattrs", ".zgroup", "g", "v"), s.list("/"));
            assertEquals(List.of(".zgroup", "empty", "w", "with space"), s.list("g"));
            assertEquals(List.of(".zgroup", "empty", "w", "with space"), s.list("g/"));
            assertEquals(List.of(".zarray", "0"), s.list("g/w"));
            assertEquals(List.of("1"), s.list("g/w/0"));
            assertEquals(List.of(), s.list("v/0"), "an object has no children");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void keysEscapingTheStoreAreRefused(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertThrows(IllegalArgumentException.class, () -> s.get("../etc/passwd"));
            assertThrows(IllegalArgumentException.class, () -> s.get("/etc/passwd"));
            assertThrows(IllegalArgumentException.class, () -> s.get("v/../../x"));
            assertThrows(IllegalArgumentException.class, () -> s.getRange("../x", 0, 1));
            assertThrows(IllegalArgumentException.class, () -> s.list("../"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void concurrentGetsAgree(Case c) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try (Store s = c.factory().open()) {
            List<Callable<Integer>> readers = new ArrayList<>();
            for (int t = 0; t < 6; t++) {
                readers.add(() -> {
                    int checked = 0;
                    for (int round = 0; round < 10; round++) {
                        for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                            assertArrayEquals(e.getValue(), s.get(e.getKey()).orElseThrow(), e.getKey());
                            checked++;
                        }
                        assertArrayEquals(
                                new byte[] {5, 6}, s.getRange("v/0", 4, 2).orElseThrow());
                        assertTrue(s.get("v/1").isEmpty());
                    }
                    return checked;
                });
            }
            for (Future<Integer> f : pool.invokeAll(readers)) {
                assertEquals(10 * OBJECTS.size(), f.get());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void locationNamesTheDatasetWithoutCredentials(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            String location = s.location();
            assertFalse(location.isBlank());
            assertFalse(location.matches(".*://[^/]*@.*"), "user info in " + location);
            assertFalse(location.contains("#") || location.contains("?"), "fragment or query in " + location);
            for (String secret : LocalS3Secrets.all()) {
                assertFalse(location.contains(secret), location);
                assertFalse(s.toString().contains(secret), s.toString());
            }
            assertTrue(s.toString().contains(location), s.toString());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void closeTwiceIsHarmless(Case c) throws IOException {
        Store s = c.factory().open();
        assertTrue(s.get(".zgroup").isPresent());
        s.close();
        s.close();
    }
}
