package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * test-data/aggregation (issue 14): CF-1.13 aggregations written by cfdm and by hand, CFA-0.4/0.5
 * master arrays, each against its plain twin (the same variables written as ordinary netCDF by cfdm /
 * netCDF4-python), locally, over loopback HTTP and on loopback S3 ({@code #mode=bytes}).
 */
class AggregationTest {
    private static RangeHttpServer http;

    static Path dir() {
        return Corpus.testDataDir().resolve("aggregation");
    }

    /** One INDEX.json entry: the aggregation ({@code path} + {@code fragment}) and its plain twin. */
    record Entry(String name, String path, String fragment, String twin) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<Entry> entries() throws IOException {
        JsonNode index = new ObjectMapper().readTree(dir().resolve("INDEX.json").toFile());
        List<Entry> out = new ArrayList<>();
        index.get("datasets")
                .forEach(d -> out.add(new Entry(
                        d.get("name").asText(),
                        d.get("path").asText(),
                        d.get("fragment").asText(),
                        d.get("twin").asText())));
        return out;
    }

    static Stream<Entry> datasets() throws IOException {
        return entries().stream();
    }

    /** The netCDF files (a Zarr store is not read by byte ranges). */
    static Stream<Entry> netcdfDatasets() throws IOException {
        return entries().stream().filter(e -> e.path().endsWith(".nc"));
    }

    @BeforeAll
    static void start() throws IOException {
        http = RangeHttpServer.start();
        try (Stream<Path> files = Files.list(dir())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f)) {
                    http.put("/agg/" + f.getFileName(), f);
                }
            }
        }
    }

    @AfterAll
    static void stop() {
        http.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("datasets")
    void localAggregationEqualsItsPlainTwin(Entry e) throws Exception {
        try (NetcdfFile agg = NcZarrFiles.open(dir().resolve(e.path()).toUri() + e.fragment())) {
            assertEquals("Aggregation", agg.getFileTypeId());
            assertSameAsPlain(e.twin(), agg);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("netcdfDatasets")
    void fragmentsOverHttpByteRanges(Entry e) throws Exception {
        try (NetcdfFile agg = NcZarrFiles.open(http.url("/agg/" + e.path()) + "#mode=bytes")) {
            assertSameAsPlain(e.twin(), agg);
        }
    }

    @Test
    void fragmentsOnS3ByteRanges() throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.server.createBucket("aggregation");
        try (Stream<Path> files = Files.list(dir())) {
            for (Path f : (Iterable<Path>) files::iterator) {
                if (Files.isRegularFile(f)) {
                    s3.server.put("aggregation", "a/" + f.getFileName(), Files.readAllBytes(f));
                }
            }
        }
        for (String name : List.of("cf_grid", "cfa05")) {
            String loc = s3.signed.endpoint() + "/aggregation/a/" + name + ".nc#mode=bytes,s3&aws.profile="
                    + LocalS3.PROFILE;
            s3.signed.reset();
            try (NetcdfFile agg = NcZarrFiles.open(loc)) {
                assertSameAsPlain(name + ".plain.nc", agg);
            }
            assertTrue(s3.signed.counts().get() > 0);
        }
    }

    /** Parallel readers of one aggregation agree (fragment files are read one reader at a time). */
    @Test
    void concurrentReadersAgree() throws Exception {
        try (NetcdfFile agg = NcZarrFiles.open(dir().resolve("cf_grid.nc").toString());
                NetcdfFile plain =
                        NetcdfFile.open(dir().resolve("cf_grid.plain.nc").toString())) {
            String want = plain.findVariable("q").read().toString();
            List<Thread> threads = new ArrayList<>();
            List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int t = 0; t < 8; t++) {
                Thread th = new Thread(() -> {
                    try {
                        for (int i = 0; i < 50; i++) {
                            assertEquals(want, agg.findVariable("q").read().toString());
                        }
                    } catch (Throwable x) {
                        failures.add(x);
                    }
                });
                threads.add(th);
                th.start();
            }
            for (Thread th : threads) {
                th.join();
            }
            assertTrue(failures.isEmpty(), failures.toString());
        }
    }

    /** Only the fragments a section touches are opened, and HTTP requests stay per fragment. */
    @Test
    void aSectionOpensOnlyTheFragmentsItTouches() throws Exception {
        try (NetcdfFile agg = NcZarrFiles.open(http.url("/agg/cf_grid.nc") + "#mode=bytes");
                NetcdfFile plain =
                        NetcdfFile.open(dir().resolve("cf_grid.plain.nc").toString())) {
            Variable q = agg.findVariable("q");
            http.resetCounters();
            assertEquals(
                    plain.findVariable("q").read("0:1,4:7").toString(),
                    q.read("0:1,4:7").toString());
            long[] counts = (long[]) agg.sendIospMessage(AggregationIosp.MESSAGE_FRAGMENT_COUNTS);
            assertEquals(1, counts[0], "one fragment opened");
            List<String> paths = new ArrayList<>(http.ranges());
            assertTrue(http.gets() > 0, paths.toString());
            assertEquals(plain.findVariable("q").read().toString(), q.read().toString());
            counts = (long[]) agg.sendIospMessage(AggregationIosp.MESSAGE_FRAGMENT_COUNTS);
            assertEquals(4, counts[0], "each fragment opened once");
        }
    }

    @Test
    void bookkeepingIsHiddenAndRawModeShowsIt() throws Exception {
        try (NetcdfFile agg = NcZarrFiles.open(dir().resolve("cf_lat.nc").toString())) {
            assertNull(agg.findVariable("fragment_map"));
            assertNull(agg.findVariable("fragment_uris"));
            assertNull(agg.findVariable("fragment_identifiers"));
            assertNull(agg.getRootGroup().findDimension("a_map_j2"));
            Variable q = agg.findVariable("q");
            assertNull(q.findAttribute("aggregated_data"));
            assertNull(q.findAttribute("aggregated_dimensions"));
        }
        try (NetcdfFile agg = NcZarrFiles.open(dir().resolve("cfa05.nc").toString())) {
            assertNull(agg.getRootGroup().findGroup("cfa_tmp"));
            Variable t = agg.findVariable("tmp");
            assertNull(t.findAttribute("cf_role"));
            assertNull(t.findAttribute("cfa_group"));
            assertEquals(4, t.getRank());
        }
        try (io.nczarr.open.NcZarrOptions raw = io.nczarr.open.NcZarrOptions.builder()
                        .aggregation(new io.nczarr.aggregation.AggregationSettings(false, 4, true))
                        .build();
                NetcdfFile file = NcZarrFiles.open(dir().resolve("cf_lat.nc").toString(), raw)) {
            assertNotNull(file.findVariable("fragment_map"));
            assertEquals(0, file.findVariable("q").getRank());
        }
    }

    /** Every plain variable is in the aggregation with the same dimensions, attributes and values. */
    static void assertSameAsPlain(String twin, NetcdfFile agg) throws Exception {
        String name = twin;
        try (NetcdfFile plain = NetcdfFile.open(dir().resolve(twin).toString())) {
            List<String> aggVars = new ArrayList<>();
            agg.getVariables().forEach(v -> aggVars.add(v.getFullName()));
            List<String> plainVars = new ArrayList<>();
            plain.getVariables().forEach(v -> plainVars.add(v.getFullName()));
            assertEquals(
                    plainVars.stream().sorted().toList(),
                    aggVars.stream().sorted().toList(),
                    name);
            for (Variable pv : plain.getVariables()) {
                Variable av = agg.findVariable(pv.getFullNameEscaped());
                String label = name + " " + pv.getFullName();
                assertNotNull(av, label);
                assertEquals(pv.getDataType(), av.getDataType(), label);
                List<String> pd =
                        pv.getDimensions().stream().map(Dimension::getShortName).toList();
                List<String> ad =
                        av.getDimensions().stream().map(Dimension::getShortName).toList();
                assertEquals(pd, ad, label);
                for (Attribute a : pv.getAttributes()) {
                    if (a.getShortName().equals("_ChunkSizes")) {
                        continue; // how the plain twin is stored (SCHEMA: not reported)
                    }
                    assertEquals(a, av.findAttribute(a.getShortName()), label + " " + a.getShortName());
                }
                assertEquals(pv.read().toString(), av.read().toString(), label);
                if (pv.getRank() >= 2) {
                    for (String section : sections(pv.getShape())) {
                        assertEquals(
                                pv.read(section).toString(), av.read(section).toString(), label + " " + section);
                    }
                }
            }
        }
    }

    /** A few sections across fragment boundaries, with strides. */
    static List<String> sections(int[] shape) {
        List<String> out = new ArrayList<>();
        StringBuilder mid = new StringBuilder();
        StringBuilder strided = new StringBuilder();
        StringBuilder corner = new StringBuilder();
        for (int d = 0; d < shape.length; d++) {
            String sep = d == 0 ? "" : ",";
            int n = shape[d];
            mid.append(sep).append(n / 3).append(':').append(Math.max(n / 3, n - 1 - n / 4));
            strided.append(sep).append(0).append(':').append(n - 1).append(':').append(Math.max(1, n / 2));
            corner.append(sep).append(n - 1).append(':').append(n - 1);
        }
        out.add(mid.toString());
        out.add(strided.toString());
        out.add(corner.toString());
        return out;
    }
}
