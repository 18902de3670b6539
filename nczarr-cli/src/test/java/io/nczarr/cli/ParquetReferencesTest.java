package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;

/**
 * Issue 23: kerchunk Parquet references (test-data/parquet-refs: fastparquet and pyarrow writers, codecs
 * zstd/snappy/gzip/none, data pages v1 and v2, dictionary and PLAIN paths, inline chunks, missing chunks, several
 * record files per variable) agree with the manifests fsspec's ReferenceFileSystem gives ({@code *.expected.json}),
 * read locally (with and without {@code #mode=kerchunk}), over loopback HTTP and over loopback S3.
 */
class ParquetReferencesTest {
    static RangeHttpServer http;

    @TempDir
    Path tmp;

    static Path dir() {
        return Corpus.testDataDir().resolve("parquet-refs");
    }

    @BeforeAll
    static void serve() throws IOException {
        http = RangeHttpServer.start();
        http.putTree("/p", dir());
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    static Stream<String> folders() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".parq")).sorted().toList().stream();
        }
    }

    static Corpus.Entry entry(String folder) {
        String src = folder.substring(0, folder.indexOf('.'));
        return new Corpus.Entry(
                src, dir().resolve(folder), "#mode=kerchunk", dir().resolve(src + ".expected.json"), null, "parquet");
    }

    void assertConforms(String folder, String url, String label) throws Exception {
        ObjectNode m;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            m = Manifest.of(nc, entry(folder).name());
        }
        assertAgrees(m, Manifest.MAPPER.readTree(entry(folder).expected().toFile()), folder + " (" + label + ")");
    }

    /**
     * Every expected variable: type, shape, attributes and the whole data summary; dimensions too, except those
     * kerchunk names with a group path ("obs/station"): SCHEMA.md defines them in that group, the pure-Zarr reader
     * (shared with JSON references) makes an anonymous root dimension of them. Root attributes too.
     */
    static void assertAgrees(ObjectNode actual, JsonNode expected, String label) {
        JsonNode av = actual.get("variables");
        for (Map.Entry<String, JsonNode> e : expected.get("variables").properties()) {
            JsonNode a = av.get(e.getKey());
            assertNotNull(a, label + ": variable " + e.getKey() + " missing in " + av);
            for (String field : new String[] {"type", "shape", "attributes", "data"}) {
                assertTrue(
                        same(e.getValue().get(field), a.get(field)),
                        label + " " + e.getKey() + " " + field + ": expected "
                                + e.getValue().get(field) + ", got " + a.get(field));
            }
            boolean groupDim = false;
            for (JsonNode d : e.getValue().get("dimensions")) {
                groupDim |= d.asText().lastIndexOf('/') > 0;
            }
            if (!groupDim) {
                assertEquals(e.getValue().get("dimensions"), a.get("dimensions"), label + " " + e.getKey());
            }
        }
        assertEquals(expected.get("variables").size(), av.size(), label + ": " + av.properties());
        assertTrue(
                same(
                        expected.get("groups").get("/").get("attributes"),
                        actual.get("groups").get("/").get("attributes")),
                label + " root attributes");
    }

    /** Equal JSON, numbers by value (an int and a long, 12 and 12.0 alike). */
    static boolean same(JsonNode a, JsonNode b) {
        if (a == null || b == null) {
            return a == b;
        }
        if (a.isNumber() && b.isNumber()) {
            return a.asDouble() == b.asDouble();
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                if (!same(e.getValue(), b.get(e.getKey()))) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (int i = 0; i < a.size(); i++) {
                if (!same(a.get(i), b.get(i))) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folders")
    void conformsLocally(String folder) throws Exception {
        assertConforms(folder, dir().resolve(folder).toUri() + "#mode=kerchunk", "local");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folders")
    void aLocalFolderIsFoundWithoutMode(String folder) throws Exception {
        assertConforms(folder, dir().resolve(folder).toString(), "nomode");
    }

    @Test
    void itsZmetadataNamesTheFolderToo() throws Exception {
        assertConforms(
                "nc4.fastparquet.parq",
                dir().resolve("nc4.fastparquet.parq/.zmetadata").toString(),
                "zm");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("folders")
    void conformsOverHttp(String folder) throws Exception {
        assertConforms(folder, http.url("/p/" + folder) + "#mode=kerchunk", "http");
    }

    @Test
    void recordFilesAreReadLazily() throws Exception {
        http.reset();
        try (NetcdfFile nc = NcZarrFiles.open(http.url("/p/nc4.pyarrow-zstd-v2.parq/") + "#mode=kerchunk")) {
            assertEquals(1, http.gets(), "open: .zmetadata only: " + http.ranges());
            nc.findVariable("flat").read(); // one inline chunk: its record file only
            assertEquals(2, http.gets(), http.ranges().toString());
            nc.findVariable("flat").read(); // cached
            assertEquals(2, http.gets(), http.ranges().toString());
            // 3 record files, then the 12 chunk ranges of nc4.nc: neighbours in one record file coalesce into
            // one block each (ParquetBlocks)
            nc.findVariable("temp").read();
            assertEquals(2 + 3 + 3, http.gets(), http.ranges().toString());
        }
    }

    @Test
    void conformsOverS3() throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(dir(), "parquet", "refs");
        for (String folder :
                new String[] {"nc4.fastparquet.parq", "nc4.pyarrow-snappy-v2.parq", "nc3.pyarrow-zstd-v1.parq"}) {
            CountingProxy proxy = s3.signed;
            proxy.reset();
            assertConforms(folder, s3.signedUrl("parquet", "refs/" + folder, "kerchunk,s3"), "s3");
            CountingProxy.Counts c = proxy.counts();
            assertEquals(0, c.list(), c.toString());
            assertEquals(0, c.head(), c.toString());
        }
    }
}
