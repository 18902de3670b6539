package io.nczarr.aggregation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.read.ArraySection;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The core's aggregation reading without any host library: an aggregation document and fragments held in memory
 * (the fragment files exist, empty, for the trust rules), parsed, planned, read in parallel and brought to the
 * aggregation's packing (CF-1.13 section 2.8.2: a fragment packed otherwise, or not at all, is unpacked and
 * repacked). The same case from netCDF4-python files is test-data/aggregation/cf_packed (AggregationTest).
 */
class AggregatedVariableTest {
    @TempDir
    Path dir;

    private static final List<Attr> AGG_ATTRS = List.of(
            new Attr("_FillValue", NcType.SHORT, new short[] {-32767}),
            new Attr("units", NcType.CHAR, "mm"),
            new Attr("scale_factor", NcType.DOUBLE, new double[] {0.01}),
            new Attr("add_offset", NcType.DOUBLE, new double[] {10.0}));

    private static TypedArray shorts(int rows, int cols, int... v) {
        short[] s = new short[v.length];
        for (int i = 0; i < v.length; i++) {
            s[i] = (short) v[i];
        }
        return new TypedArray(NcType.SHORT, new int[] {rows, cols}, s);
    }

    /** tp(time 4, x 3) from two fragments along time, as in test-data/aggregation/packed.py. */
    private AggregatedVariable packed(ExecutorService pool, AtomicInteger opens) throws IOException {
        Files.createFile(dir.resolve("f0.nc"));
        Files.createFile(dir.resolve("f1.nc"));
        Map<String, VariableReader> vars = new HashMap<>();
        vars.put(
                "/fragment_map",
                MemoryVariable.of(
                        "/fragment_map",
                        List.of("/j", "/i"),
                        List.of(new Attr("_FillValue", NcType.INT64, new long[] {-1})),
                        new TypedArray(NcType.INT64, new int[] {2, 2}, new long[] {2, 2, 3, -1})));
        vars.put(
                "/fragment_uris",
                MemoryVariable.of(
                        "/fragment_uris",
                        List.of("/f_time", "/f_x"),
                        List.of(),
                        new TypedArray(NcType.STRING, new int[] {2, 1}, new String[] {"f0.nc", "f1.nc"})));
        vars.put(
                "/fragment_identifiers",
                MemoryVariable.of(
                        "/fragment_identifiers",
                        List.of("/f_time", "/f_x"),
                        List.of(),
                        new TypedArray(NcType.STRING, new int[] {2, 1}, new String[] {"tp", "tp"})));
        List<Attr> aggAttrs = new java.util.ArrayList<>(AGG_ATTRS);
        aggAttrs.add(new Attr("aggregated_dimensions", NcType.CHAR, "time x"));
        aggAttrs.add(new Attr(
                "aggregated_data",
                NcType.CHAR,
                "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"));
        vars.put(
                "/tp",
                MemoryVariable.of("/tp", List.of(), aggAttrs, new TypedArray(NcType.SHORT, new int[0], new short[1])));
        String location = dir.resolve("agg.nc").toString();
        AggregationDocument doc = new AggregationDocument() {
            @Override
            public String location() {
                return location;
            }

            @Override
            public Map<String, VariableReader> variables() {
                return vars;
            }

            @Override
            public long dimensionLength(String groupPath, String name) {
                return name.equals("time") ? 4 : name.equals("x") ? 3 : -1;
            }

            @Override
            public String findGroup(String groupPath, String name) {
                return null;
            }
        };
        AggregationParser parser = new AggregationParser(doc, MemoryLimits.defaults());
        Aggregation a = parser.parse("/tp", vars.get("/tp"));
        assertEquals(
                java.util.Set.of("/fragment_map", "/fragment_uris", "/fragment_identifiers"), parser.hiddenVariables());
        // f0: int16 packed with its own scale 0.02 and fill -1; f1: float32 not packed, fill 1e20
        VariableReader f0 = MemoryVariable.of(
                "/tp",
                List.of("/time", "/x"),
                List.of(
                        new Attr("_FillValue", NcType.SHORT, new short[] {-1}),
                        new Attr("units", NcType.CHAR, "mm"),
                        new Attr("scale_factor", NcType.DOUBLE, new double[] {0.02}),
                        new Attr("add_offset", NcType.DOUBLE, new double[] {0})),
                shorts(2, 3, 600, 610, -1, 555, 700, 1000));
        VariableReader f1 = MemoryVariable.of(
                "/tp",
                List.of("/time", "/x"),
                List.of(
                        new Attr("_FillValue", NcType.FLOAT, new float[] {1e20f}),
                        new Attr("units", NcType.CHAR, "mm")),
                new TypedArray(
                        NcType.FLOAT, new int[] {2, 3}, new float[] {12.34f, 1e20f, 9.5f, -20.25f, 0f, 15.125f}));
        FragmentOpener opener = (r, origin) -> {
            opens.incrementAndGet();
            VariableReader v = r.location().endsWith("f0.nc") ? f0 : f1;
            return new FragmentFile() {
                @Override
                public VariableReader variable(String identifier) {
                    return identifier.equals("tp") ? v : null;
                }

                @Override
                public void close() {}
            };
        };
        FragmentSources sources = new FragmentSources(location, TrustSettings.defaults(), opener);
        FragmentReads reads =
                new FragmentReads(sources, new FragmentCache(sources::open, 4), pool, MemoryLimits.defaults());
        return new AggregatedVariable("/tp", a, NcType.SHORT, AGG_ATTRS, UnitConversions.NONE, reads);
    }

    @Test
    void fragmentsPackedOtherwiseAreUnpackedAndRepacked() throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            AtomicInteger opens = new AtomicInteger();
            AggregatedVariable tp = packed(pool, opens);
            assertArrayEquals(new long[] {4, 3}, tp.shape());
            assertEquals(List.of("/time", "/x"), tp.dimensions());
            TypedArray all = tp.readAll();
            // numpy's oracle in packed.py: rint((unpacked - 10) / 0.01), missing -> -32767 (15.125 -> 512.5 -> 512)
            assertArrayEquals(
                    new short[] {200, 220, -32767, 110, 400, 1000, 234, -32767, -50, -3025, -1000, 512}, all.shorts());
            assertEquals(2, opens.get());
            TypedArray strided = tp.read(new ArraySection(new long[] {1, 0}, new int[] {2, 2}, new int[] {2, 2}));
            assertArrayEquals(new short[] {110, 1000, -3025, 512}, strided.shorts());
            assertEquals(12.0, tp.encoding().unpack(all.getDouble(0)), 1e-12);
            assertTrue(tp.encoding().isMissing(all.getDouble(2)));
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void otherUnitsNeedAUnitsLibrary() throws IOException {
        CanonicalValues c =
                new CanonicalValues(NcType.DOUBLE, List.of(new Attr("units", NcType.CHAR, "K")), UnitConversions.NONE);
        VariableReader degC = MemoryVariable.of(
                "/t",
                List.of("/x"),
                List.of(new Attr("units", NcType.CHAR, "degC")),
                new TypedArray(NcType.DOUBLE, new int[] {1}, new double[] {1}));
        UnsupportedFeatureException e = assertThrows(
                UnsupportedFeatureException.class,
                () -> c.canonical(degC, degC.read(ArraySection.all(new long[] {1}))));
        assertTrue(e.getMessage().contains("degC"), e.getMessage());
        CanonicalValues k = new CanonicalValues(
                NcType.DOUBLE, List.of(new Attr("units", NcType.CHAR, "K")), (from, to) -> v -> v + 273.15);
        assertEquals(
                274.15,
                k.canonical(degC, degC.read(ArraySection.all(new long[] {1}))).doubles()[0],
                1e-9);
    }
}
