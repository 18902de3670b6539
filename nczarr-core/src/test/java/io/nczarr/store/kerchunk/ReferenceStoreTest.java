package io.nczarr.store.kerchunk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.LimitExceededException;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.s3.AwsEnvironment;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.StoreResources;
import io.nczarr.store.TestStores;
import io.nczarr.store.kerchunk.ReferenceFiles.Ref;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kerchunk reference parsing (v0, v1, templates, gen) and every bad input the issue names. */
class ReferenceStoreTest {
    @TempDir
    Path tmp;

    static RangeHttpServer http;

    @BeforeAll
    static void start() throws IOException {
        http = RangeHttpServer.start();
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    static final URI BASE = URI.create("file:///data/refs/r.json");

    static Map<String, Ref> parse(String json) throws ReferenceFiles.Malformed {
        return ReferenceFiles.parse(json.getBytes(StandardCharsets.UTF_8), BASE);
    }

    private Path blob() throws IOException {
        byte[] b = new byte[100];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) i;
        }
        return Files.write(tmp.resolve("blob.bin"), b);
    }

    private ReferenceStore open(String json) throws IOException {
        return open(json, TestStores.RESOURCES);
    }

    private ReferenceStore open(String json, StoreResources resources) throws IOException {
        Path refs = Files.writeString(tmp.resolve("refs.json"), json);
        return ReferenceStore.open(DatasetUrl.parse(refs.toUri() + "#mode=kerchunk"), resources);
    }

    @Test
    void versionZeroAndOneValues() throws Exception {
        Map<String, Ref> v0 = parse("{\".zgroup\": \"{\\\"zarr_format\\\": 2}\", \"a/0\": [\"x.nc\", 10, 5],"
                + " \"a/1\": [\"s3://b/k.nc\"], \"b/0\": \"base64:AAEC\", \".zattrs\": {\"t\": 1}}");
        assertArrayEquals(
                "{\"zarr_format\": 2}".getBytes(StandardCharsets.UTF_8), ((Ref.Inline) v0.get(".zgroup")).bytes());
        assertEquals(new Ref.Range(URI.create("file:///data/refs/x.nc"), "x.nc", 10, 5), v0.get("a/0"));
        assertEquals(new Ref.Range(URI.create("s3://b/k.nc"), "s3://b/k.nc", 0, -1), v0.get("a/1"));
        assertArrayEquals(new byte[] {0, 1, 2}, ((Ref.Inline) v0.get("b/0")).bytes());
        assertEquals("{\"t\":1}", new String(((Ref.Inline) v0.get(".zattrs")).bytes(), StandardCharsets.UTF_8));

        Map<String, Ref> v1 = parse("{\"version\": 1, \"templates\": {\"u\": \"https://h/d/f.nc\"},"
                + " \"refs\": {\"a/0\": [\"{{u}}\", 1, 2], \"a/1\": [\"../other.nc\", 3, 4]}}");
        assertEquals(URI.create("https://h/d/f.nc"), ((Ref.Range) v1.get("a/0")).target());
        assertEquals(URI.create("file:///data/other.nc"), ((Ref.Range) v1.get("a/1")).target());
    }

    @Test
    void genExpandsTheCartesianProductInOrder() throws Exception {
        Map<String, Ref> r = parse("{\"version\": 1, \"templates\": {\"u\": \"f\"}, \"refs\": {},"
                + " \"gen\": [{\"key\": \"v/{{i}}.{{j}}\", \"url\": \"{{u}}_{{c}}.nc\","
                + " \"offset\": \"{{(i * 2 + j) * 100 + 8 // 3}}\", \"length\": \"100\","
                + " \"dimensions\": {\"i\": {\"start\": 1, \"stop\": 3}, \"j\": [0, 1], \"c\": [\"x\"]}}]}");
        assertEquals(List.of("v/1.0", "v/1.1", "v/2.0", "v/2.1"), List.copyOf(r.keySet()));
        Ref.Range last = (Ref.Range) r.get("v/2.1");
        assertEquals(URI.create("file:///data/refs/f_x.nc"), last.target());
        assertEquals(502, last.offset());
        assertEquals(100, last.length());
    }

    @Test
    void malformedDocumentsFailTheOpenNamingTheReferenceFile() {
        for (String bad : new String[] {
            "{not json",
            "[1, 2]",
            "{\"version\": 2, \"refs\": {}}",
            "{\"version\": 1}",
            "{\"version\": 1, \"refs\": {\"../x\": \"a\"}}",
            "{\"version\": 1, \"refs\": {}, \"gen\": [{\"key\": \"k{{i}}\", \"url\": \"u\", \"dimensions\": {\"i\": {\"stop\": 99999999999}}}]}",
            "{\"version\": 1, \"refs\": {}, \"gen\": [{\"key\": \"k{{i}}\", \"url\": \"u\", \"offset\": \"{{i.__class__}}\","
                    + " \"length\": \"1\", \"dimensions\": {\"i\": [1]}}]}",
            "{\"version\": 1, \"refs\": {}, \"gen\": [{\"key\": \"k{{i}}\", \"url\": \"u\", \"offset\": \"{{i * 9223372036854775807}}\","
                    + " \"length\": \"1\", \"dimensions\": {\"i\": [2]}}]}"
        }) {
            StoreException e = assertThrows(StoreException.class, () -> open(bad), bad);
            assertTrue(
                    e.getMessage().contains("refs.json") && e.getMessage().contains("malformed reference file"),
                    e.getMessage());
        }
    }

    @Test
    void badValuesFailOnlyTheirReadNamingFileKeyAndTarget() throws IOException {
        blob();
        try (ReferenceStore s = open("{\"version\": 1, \"refs\": {\".zgroup\": \"{}\","
                + " \"neg/0\": [\"blob.bin\", -1, 4], \"over/0\": [\"blob.bin\", 9223372036854775807, 2],"
                + " \"past/0\": [\"blob.bin\", 90, 20], \"gone/0\": [\"nosuch.bin\", 0, 4],"
                + " \"shape/0\": [\"blob.bin\", 1], \"ok/0\": [\"blob.bin\", 10, 3]}}")) {
            assertArrayEquals(new byte[] {10, 11, 12}, s.get("ok/0").orElseThrow());
            for (String key : new String[] {"neg/0", "over/0", "past/0", "gone/0", "shape/0"}) {
                StoreException e = assertThrows(StoreException.class, () -> s.get(key), key);
                String m = e.getMessage();
                assertTrue(m.contains("refs.json") && m.contains(key), m);
                assertEquals(key, e.key());
                if (!key.equals("shape/0")) {
                    assertTrue(m.contains(key.equals("gone/0") ? "nosuch.bin" : "blob.bin"), m);
                }
            }
            assertTrue(assertThrows(StoreException.class, () -> s.get("past/0"))
                    .getMessage()
                    .contains("past the end"));
        }
    }

    @Test
    void aLengthOverTheBudgetIsRefusedBeforeAllocating() throws IOException {
        blob();
        StoreResources small = new StoreResources(
                TestStores.S3_CLIENTS,
                AwsEnvironment.system(),
                MemoryLimits.defaults().withMaxObjectBytes(1024),
                false,
                () -> TestStores.HTTP_CLIENT);
        try (ReferenceStore s = open("{\"version\": 1, \"refs\": {\"big/0\": [\"blob.bin\", 0, 2000000000]}}", small)) {
            LimitExceededException e = assertThrows(LimitExceededException.class, () -> s.get("big/0"));
            assertTrue(e.getMessage().contains("big/0"), e.getMessage());
        }
    }

    @Test
    void httpTargetsMissingOrForbiddenAreErrorsNamingTheTarget() throws IOException {
        http.reset();
        http.put("/t/blob.bin", new byte[64]);
        String u = http.url("/t/");
        try (ReferenceStore s = open("{\"version\": 1, \"refs\": {\"a/0\": [\"" + u + "blob.bin\", 0, 8],"
                + " \"a/1\": [\"" + u + "missing.bin\", 0, 8], \"a/2\": [\"" + u + "blob.bin\", 60, 8]}}")) {
            assertEquals(8, s.get("a/0").orElseThrow().length);
            StoreException missing = assertThrows(StoreException.class, () -> s.get("a/1"));
            assertTrue(
                    missing.getMessage().contains(u + "missing.bin")
                            && missing.getMessage().contains("does not exist"),
                    missing.getMessage());
            StoreException past = assertThrows(StoreException.class, () -> s.get("a/2"));
            assertTrue(past.getMessage().contains("past the end"), past.getMessage());
            http.forceStatus(403);
            StoreException denied = assertThrows(StoreException.class, () -> s.get("a/0"));
            assertTrue(
                    denied.getMessage().contains("403") && denied.getMessage().contains(u + "blob.bin"),
                    denied.getMessage());
            assertFalse(denied.isRetryable());
        } finally {
            http.reset();
        }
    }

    @Test
    void neighbouringRemoteChunksAreFetchedTogether() throws IOException {
        http.reset();
        byte[] data = new byte[40_000];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }
        http.put("/c/data.bin", data);
        StringBuilder refs = new StringBuilder(
                "{\"version\": 1, \"templates\": {\"u\": \"" + http.url("/c/data.bin") + "\"}, \"refs\": {");
        for (int i = 0; i < 40; i++) {
            refs.append(i == 0 ? "" : ", ")
                    .append("\"v/")
                    .append(i)
                    .append("\": [\"{{u}}\", ")
                    .append(i * 1000)
                    .append(", 1000]");
        }
        refs.append("}}");
        try (ReferenceStore s = open(refs.toString())) {
            http.resetCounters();
            for (int i = 39; i >= 0; i--) {
                byte[] got = s.get("v/" + i).orElseThrow();
                assertEquals(data[i * 1000 + 999], got[999]);
                assertEquals(data[i * 1000], got[0]);
            }
            assertEquals(1, http.gets(), "one request for 40 adjacent chunks: " + http.ranges());
            assertEquals(0, http.heads());
            assertEquals(List.of("0", "1", "10"), s.list("v").subList(0, 3));
        }
    }

    @Test
    void parquetReferencesAreNotParsedAsJsonReferences() throws IOException {
        Path parq = Files.createDirectories(tmp.resolve("refs.parq"));
        Files.writeString(parq.resolve(".zmetadata"), "{\"metadata\": {}, \"record_size\": 10000}");
        UnsupportedFeatureException e = assertThrows(
                UnsupportedFeatureException.class,
                () -> ReferenceStore.open(DatasetUrl.parse(parq.toUri() + "#mode=kerchunk"), TestStores.RESOURCES));
        // Stores routes such folders to ParquetReferences; the JSON reader names the way there
        assertTrue(e.getMessage().contains("Parquet") && e.getMessage().contains(".zmetadata"), e.getMessage());
    }

    @Test
    void referenceFilesAreRecognisedByContent() {
        assertTrue(ReferenceFiles.looksLikeReferences(b("{\"version\": 1, \"refs\": {}}")));
        assertTrue(ReferenceFiles.looksLikeReferences(b("  {\".zgroup\": \"{}\"}")));
        assertFalse(ReferenceFiles.looksLikeReferences(b("{\"zarr_format\": 2}")));
        assertFalse(ReferenceFiles.looksLikeReferences(
                b("{\"metadata\": {\".zgroup\": {}}, \"zarr_consolidated_format\": 1}")));
        assertFalse(ReferenceFiles.looksLikeReferences(b("CDF\1")));
    }

    @Test
    void theStoreKindOfAReferenceUrl() {
        assertInstanceOf(DatasetUrl.class, DatasetUrl.parse("s3://b/r.json#mode=kerchunk"));
        assertEquals(
                DatasetUrl.StoreKind.S3,
                DatasetUrl.parse("s3://b/r.json#mode=kerchunk").referenceLocationKind());
        assertEquals(
                DatasetUrl.StoreKind.HTTP,
                DatasetUrl.parse("https://h/r.json#mode=kerchunk").referenceLocationKind());
        assertEquals(
                DatasetUrl.StoreKind.DIRECTORY,
                DatasetUrl.parse("/r.json#mode=kerchunk").referenceLocationKind());
        assertEquals(
                DatasetUrl.Format.ZARR,
                DatasetUrl.parse("/r.json#mode=kerchunk").format());
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
