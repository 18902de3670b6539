package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;

/**
 * Issue 13 end to end: Zarr/NCZarr stores on a plain HTTP server (loopback), the URL rule's sniffing, a local
 * netCDF path, and kerchunk references read locally, over HTTP and over S3 with their requests counted.
 */
class HttpAndReferencesTest {
    static RangeHttpServer http;

    @TempDir
    Path tmp;

    @BeforeAll
    static void serve() throws IOException {
        http = RangeHttpServer.start();
        for (String name : new String[] {"nczarr_groups", "zarr_groups_consolidated", "zarr_dtypes"}) {
            Corpus.Entry e = Corpus.byName(name);
            http.putTree("/corpus/" + name, e.path());
        }
        for (Corpus.Entry e : Corpus.v3Datasets()) {
            if (e.name().equals("v3_groups_consolidated") || e.name().equals("v3_groups")) {
                http.putTree("/v3/" + e.name().substring(3), e.path());
            }
        }
        http.putTree("/k", ConformanceHelpers.kerchunkDir());
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    @BeforeEach
    void reset() {
        http.reset();
    }

    static ObjectNode manifest(String url, String name) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            return Manifest.of(nc, name);
        }
    }

    static Corpus.Entry v3(String name) {
        return Corpus.v3Datasets().stream()
                .filter(e -> e.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    @Test
    void nczarrOverHttpListsNothing() throws Exception {
        Corpus.Entry e = Corpus.byName("nczarr_groups");
        ManifestCompare.assertConforms(
                e, manifest(http.url("/corpus/nczarr_groups") + "#mode=nczarr", e.name()), tmp, "http");
        assertFalse(http.ranges().isEmpty());
    }

    @Test
    void zarrV2WithZmetadataOverHttp() throws Exception {
        Corpus.Entry e = Corpus.byName("zarr_groups_consolidated");
        ManifestCompare.assertConforms(
                e, manifest(http.url("/corpus/zarr_groups_consolidated") + "#mode=zarr", e.name()), tmp, "http");
    }

    @Test
    void zarrV3WithConsolidatedMetadataOverHttp() throws Exception {
        Corpus.Entry e = v3("v3_groups_consolidated");
        ManifestCompare.assertConforms(
                e, manifest(http.url("/v3/groups_consolidated") + "#mode=zarr", e.name()), tmp, "http");
    }

    @Test
    void pureZarrWithoutConsolidatedMetadataSaysHowToFixIt() {
        for (String url :
                new String[] {http.url("/corpus/zarr_dtypes") + "#mode=zarr", http.url("/v3/groups") + "#mode=zarr"}) {
            IOException x =
                    assertThrows(IOException.class, () -> NcZarrFiles.open(url).close());
            String m = x.getMessage();
            assertTrue(m.contains("zarr.consolidate_metadata") && m.contains("cannot list"), m);
            assertTrue(m.contains(http.url("/")), m);
        }
    }

    @Test
    void shardedZarrV3OverHttpReadsByRanges() throws Exception {
        Corpus.Entry e = v3("v3_sharding");
        Path copy = consolidatedV3Copy(e.path(), tmp.resolve("sharding.zarr"));
        http.putTree("/v3c/sharding", copy);
        http.resetCounters();
        ManifestCompare.assertConforms(e, manifest(http.url("/v3c/sharding") + "#mode=zarr", e.name()), tmp, "http");
        // one element: the shard's index by a suffix range, then only its inner chunk by a range
        try (NetcdfFile nc = NcZarrFiles.open(http.url("/v3c/sharding") + "#mode=zarr")) {
            ucar.nc2.Variable end = nc.findVariable("end");
            end.setCaching(false); // cdm would read a small variable whole
            http.resetCounters();
            end.read("0:0,0:0");
        }
        assertTrue(
                http.ranges().stream().anyMatch(r -> r.startsWith("bytes=-")),
                "shard index by suffix: " + http.ranges());
        assertTrue(
                http.ranges().stream().anyMatch(r -> r.startsWith("bytes=") && !r.startsWith("bytes=-")),
                "inner chunk by range: " + http.ranges());
    }

    /**
     * A copy of a v3 store whose root zarr.json carries every other node inline ({@code consolidated_metadata},
     * as zarr.consolidate_metadata writes it): the metadata is zarr-python's, only gathered.
     */
    static Path consolidatedV3Copy(Path src, Path dst) throws IOException {
        com.fasterxml.jackson.databind.ObjectMapper om = Manifest.MAPPER;
        ObjectNode meta = om.createObjectNode();
        try (java.util.stream.Stream<Path> files = Files.walk(src)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Path rel = src.relativize(p);
                Path out = dst.resolve(rel.toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(out);
                    continue;
                }
                Files.copy(p, out);
                if (p.getFileName().toString().equals("zarr.json") && rel.getParent() != null) {
                    meta.set(rel.getParent().toString().replace('\\', '/'), om.readTree(p.toFile()));
                }
            }
        }
        ObjectNode root = (ObjectNode) om.readTree(dst.resolve("zarr.json").toFile());
        ObjectNode cm = root.putObject("consolidated_metadata");
        cm.put("kind", "inline");
        cm.put("must_understand", false);
        cm.set("metadata", meta);
        om.writeValue(dst.resolve("zarr.json").toFile(), root);
        return dst;
    }

    @Test
    void sniffingAnHttpUrlWithoutModeTakesOneSmallGet() throws IOException {
        // a netCDF-4 file: cdm's own reader over byte ranges
        try (NetcdfFile nc = NcZarrFiles.open(http.url("/k/nc4.nc"))) {
            assertNotNull(nc.findVariable("temp"));
            assertArrayEquals(
                    new int[] {6, 10, 12}, nc.findVariable("temp").read().getShape());
            assertNull(NcZarrFiles.model(nc), "netCDF-Java's own reader");
        }
        http.resetCounters();
        // a kerchunk reference file
        try (NetcdfFile nc = NcZarrFiles.open(http.url("/k/nc3.v1.json"))) {
            assertNotNull(nc.findVariable("rec"));
        }
        assertEquals("bytes=0-4095", http.ranges().get(0), "the sniff: " + http.ranges());
        // the JSON of a Zarr node: the store of its folder
        try (NetcdfFile nc = NcZarrFiles.open(http.url("/corpus/nczarr_groups/.zgroup"))) {
            assertFalse(nc.getVariables().isEmpty());
        }
        // anything else: the forms
        IOException x = assertThrows(
                IOException.class,
                () -> NcZarrFiles.open(http.url("/nothing/here")).close());
        assertTrue(x.getMessage().contains("#mode=bytes") && x.getMessage().contains("#mode=zarr"), x.getMessage());
    }

    @Test
    void aLocalNetcdfPathOpensWithNetcdfJava() throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(
                ConformanceHelpers.kerchunkDir().resolve("nc4.nc").toString())) {
            assertNotNull(nc.findVariable("temp"));
            assertNull(NcZarrFiles.model(nc), "netCDF-Java's own reader");
        }
        try (NetcdfFile nc = NcZarrFiles.open(
                ConformanceHelpers.kerchunkDir().resolve("nc3.nc").toString())) {
            assertNotNull(nc.findVariable("rec2d"));
        }
    }

    @Test
    void referencesOverHttpCoalesceChunkReads() throws IOException {
        String url = http.url("/k/nc4.v1.json") + "#mode=kerchunk";
        ObjectNode m;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            m = Manifest.of(nc, "nc4");
        }
        ManifestCompare.assertVariablesAgree(m, ConformanceHelpers.kerchunkExpected("nc4"), "http");
        long chunks = countChunkRefs("nc4.v1.json");
        long gets = http.gets();
        assertTrue(gets < chunks / 2, gets + " GETs for " + chunks + " chunk references: " + http.ranges());
        assertEquals(0, http.heads(), "no HEAD per target");
    }

    @Test
    void referencesOverS3UseTheS3Code() throws IOException {
        LocalS3 s3 = LocalS3.get();
        Path dir = tmp.resolve("k");
        Files.createDirectories(dir);
        Files.copy(ConformanceHelpers.kerchunkDir().resolve("nc4.nc"), dir.resolve("nc4.nc"));
        Files.copy(ConformanceHelpers.kerchunkDir().resolve("nc4.v1.json"), dir.resolve("nc4.v1.json"));
        s3.upload(dir, "kerchunk", "refs");
        CountingProxy proxy = s3.signed;
        proxy.reset();
        String url = s3.signedUrl("kerchunk", "refs/nc4.v1.json", "kerchunk,s3");
        ObjectNode m;
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            m = Manifest.of(nc, "nc4");
        }
        ManifestCompare.assertVariablesAgree(m, ConformanceHelpers.kerchunkExpected("nc4"), "s3");
        CountingProxy.Counts c = proxy.counts();
        assertTrue(c.get() < countChunkRefs("nc4.v1.json") / 2, c.toString());
        assertEquals(0, c.head(), c.toString());
        assertEquals(0, c.list(), c.toString());
    }

    @Test
    void aReferencedCodecThisReaderLacksFailsOnlyItsVariable() throws IOException {
        Files.write(tmp.resolve("blob.bin"), new byte[] {0, 0, (byte) 0x80, 0x3f, 0, 0, 0, 0x40});
        String arr = "{\\\"shape\\\": [2], \\\"chunks\\\": [2], \\\"dtype\\\": \\\"<f4\\\", \\\"fill_value\\\": null,"
                + " \\\"order\\\": \\\"C\\\", \\\"filters\\\": null, \\\"zarr_format\\\": 2, \\\"compressor\\\": %s}";
        String refs = "{\"version\": 1, \"refs\": {\".zgroup\": \"{\\\"zarr_format\\\": 2}\","
                + " \"grib/.zarray\": \"" + String.format(arr, "{\\\"id\\\": \\\"grib\\\"}") + "\","
                + " \"grib/0\": [\"blob.bin\", 0, 8],"
                + " \"plain/.zarray\": \"" + String.format(arr, "null") + "\","
                + " \"plain/0\": [\"blob.bin\", 0, 8]}}";
        Path json = Files.writeString(tmp.resolve("codec.json"), refs);
        try (NetcdfFile nc = NcZarrFiles.open(json.toUri() + "#mode=kerchunk")) {
            assertEquals(2.0f, nc.findVariable("plain").read().getFloat(1));
            IOException x = assertThrows(
                    IOException.class, () -> nc.findVariable("grib").read());
            assertTrue(x.getMessage().contains("grib"), x.getMessage());
        }
    }

    static long countChunkRefs(String name) throws IOException {
        String json = Files.readString(ConformanceHelpers.kerchunkDir().resolve(name), StandardCharsets.UTF_8);
        return json.split("\"\\{\\{u}}\"", -1).length - 1L;
    }
}
