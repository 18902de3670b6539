package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.s3.LocalS3;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The same contract for every store: directory, zip in netcdf-c layout, zip in root layout, S3. */
class StoreContractTest {

    @TempDir
    static Path tmp;

    /** The objects every store under test holds. */
    static final Map<String, byte[]> OBJECTS = new TreeMap<>(Map.of(
            ".zgroup", bytes("{\"zarr_format\":2}"),
            ".zattrs", bytes("{}"),
            "v/.zarray", bytes("{\"shape\":[4]}"),
            "v/0", new byte[] {1, 2, 3, 4, 5, 6, 7, 8},
            "g/.zgroup", bytes("{\"zarr_format\":2}"),
            "g/w/.zarray", bytes("{}"),
            "g/w/0/1", new byte[] {9}));

    interface Factory {
        Store open() throws IOException;
    }

    record Case(String name, Factory factory) {
        @Override
        public String toString() {
            return name;
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static Stream<Case> stores() throws IOException {
        Path dir = tmp.resolve("dir.file");
        for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
            Path p = dir.resolve(e.getKey());
            Files.createDirectories(p.getParent());
            Files.write(p, e.getValue());
        }
        Path nczip = writeZip(tmp.resolve("nc.file.zip"), "nc.file/");
        Path rootzip = writeZip(tmp.resolve("root.zip"), "");
        return Stream.of(
                new Case("directory", () -> new DirectoryStore(dir)),
                new Case("zip, netcdf-c layout", () -> new ZipStore(nczip)),
                new Case("zip, root layout", () -> new ZipStore(rootzip)),
                new Case("s3 (loopback server)", () -> s3Store(dir)));
    }

    /** The same objects in a bucket of the loopback S3 server, opened by an http URL with mode=s3. */
    static Store s3Store(Path dir) throws IOException {
        LocalS3 s3 = LocalS3.get();
        s3.upload(dir, "contract", "prefix/dir.file");
        return Stores.open(DatasetUrl.parse(s3.signedUrl("contract", "prefix/dir.file", "nczarr,s3")));
    }

    static Path writeZip(Path zip, String top) throws IOException {
        try (OutputStream os = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(os)) {
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
    void getReturnsEveryObject(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            for (Map.Entry<String, byte[]> e : OBJECTS.entrySet()) {
                assertArrayEquals(e.getValue(), s.get(e.getKey()).orElseThrow(), e.getKey());
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
            assertEquals(List.of(), s.list("nosuch"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void rangesAreClippedAtTheEnd(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertArrayEquals(new byte[] {3, 4, 5}, s.getRange("v/0", 2, 3).orElseThrow());
            assertArrayEquals(new byte[] {7, 8}, s.getRange("v/0", 6, 10).orElseThrow());
            assertArrayEquals(new byte[0], s.getRange("v/0", 8, 10).orElseThrow());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void listGivesDirectChildrenSorted(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertEquals(List.of(".zattrs", ".zgroup", "g", "v"), s.list(""));
            assertEquals(List.of(".zgroup", "w"), s.list("g"));
            assertEquals(List.of(".zgroup", "w"), s.list("g/"));
            assertEquals(List.of("1"), s.list("g/w/0"));
            assertEquals(List.of(".zarray", "0"), s.list("g/w"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("stores")
    void keysEscapingTheStoreAreRefused(Case c) throws IOException {
        try (Store s = c.factory().open()) {
            assertThrows(IllegalArgumentException.class, () -> s.get("../etc/passwd"));
            assertThrows(IllegalArgumentException.class, () -> s.get("/etc/passwd"));
            assertThrows(IllegalArgumentException.class, () -> s.get("v/../../x"));
        }
    }

    @Test
    void zipWithTraversalEntriesIsRefused() throws IOException {
        Path zip = tmp.resolve("evil.zip");
        try (OutputStream os = Files.newOutputStream(zip); ZipOutputStream z = new ZipOutputStream(os)) {
            z.putNextEntry(new ZipEntry(".zgroup"));
            z.write(bytes("{}"));
            z.putNextEntry(new ZipEntry("../evil/.zarray"));
            z.write(bytes("{}"));
        }
        IOException e = assertThrows(IOException.class, () -> new ZipStore(zip));
        assertTrue(e.getMessage().contains("../evil/.zarray"), e.getMessage());
    }

    @Test
    void objectSizeLimitIsEnforced() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("limit"));
        Files.write(dir.resolve("big"), new byte[100]);
        try (Store s = new DirectoryStore(dir, 10)) {
            IOException e = assertThrows(IOException.class, () -> s.get("big"));
            assertTrue(e.getMessage().contains("big"), e.getMessage());
        }
    }
}
