package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.aggregation.AggregationSettings;
import io.nczarr.error.MetadataException;
import io.nczarr.error.NcZarrException;
import io.nczarr.error.TargetRefusedException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.ArrayChar;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileWriter;
import ucar.nc2.Variable;

/**
 * Bad aggregation files (issue 14 item 5), written as netCDF-3 by netCDF-Java's writer, and the
 * handle count over many open/read/close cycles.
 */
class AggregationBadInputTest {
    @TempDir
    Path tmp;

    /** A fragment {@code name} with {@code int v(x=n)} = 0..n-1 + base. */
    private Path fragment(String name, int n, int base) throws Exception {
        Path p = tmp.resolve(name);
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        Dimension x = w.addDimension(null, "x", n);
        Variable v = w.addVariable(null, "v", DataType.INT, List.of(x));
        w.create();
        int[] vals = new int[n];
        for (int i = 0; i < n; i++) {
            vals[i] = base + i;
        }
        w.write(v, Array.factory(vals));
        w.close();
        return p;
    }

    /** A CF-1.13 aggregation {@code int v} over {@code x}, with the given map row, uris and aggregated_data. */
    private Path aggregation(String name, int x, int[] map, List<String> uris, String aggregatedData) throws Exception {
        Path p = tmp.resolve(name);
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
        Dimension dx = w.addDimension(null, "x", x);
        Dimension j = w.addDimension(null, "j", 1);
        Dimension i = w.addDimension(null, "i", map.length);
        Dimension f = w.addDimension(null, "f_x", uris.size());
        Dimension len = w.addDimension(null, "strlen", 200);
        Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, i));
        Variable u = w.addVariable(null, "fragment_uris", DataType.CHAR, List.of(f, len));
        Variable id = w.addVariable(null, "fragment_identifiers", DataType.CHAR, List.of(len));
        Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
        v.addAttribute(new Attribute("aggregated_dimensions", dx.getShortName()));
        v.addAttribute(new Attribute("aggregated_data", aggregatedData));
        w.create();
        w.write(m, Array.factory(DataType.INT, new int[] {1, map.length}, map));
        ArrayChar.D2 ua = new ArrayChar.D2(uris.size(), 200);
        for (int k = 0; k < uris.size(); k++) {
            ua.setString(k, uris.get(k));
        }
        w.write(u, ua);
        ArrayChar.D1 ida = new ArrayChar.D1(200);
        ida.setString("v");
        w.write(id, ida);
        w.close();
        return p;
    }

    private static final String AD = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers";

    @Test
    void aGoodNetcdf3AggregationReads() throws Exception {
        fragment("a.nc", 2, 10);
        fragment("b.nc", 3, 20);
        Path agg = aggregation("agg.nc", 5, new int[] {2, 3}, List.of("a.nc", "b.nc"), AD);
        try (NetcdfFile nc = NcZarrFiles.open(agg.toString())) {
            assertEquals(
                    "10 11 20 21 22", nc.findVariable("v").read().toString().trim());
        }
    }

    @Test
    void malformedAggregatedDataFailsTheOpen() throws Exception {
        fragment("a.nc", 5, 0);
        for (String bad : List.of(
                "map fragment_map",
                "map: fragment_map uris: fragment_uris",
                "map: uris: x",
                "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers bogus: x")) {
            Path agg = aggregation("bad.nc", 5, new int[] {5}, List.of("a.nc"), bad);
            MetadataException e = assertThrows(
                    MetadataException.class,
                    () -> NcZarrFiles.open(agg.toString()).close());
            assertTrue(
                    e.getMessage().contains("aggregated_data") && e.getMessage().contains("bad.nc"), e.getMessage());
            Files.delete(agg);
        }
    }

    @Test
    void mapRowsThatDoNotSumToTheDimensionFailTheOpen() throws Exception {
        Path agg = aggregation("sum.nc", 5, new int[] {2, 2}, List.of("a.nc", "b.nc"), AD);
        MetadataException e = assertThrows(
                MetadataException.class, () -> NcZarrFiles.open(agg.toString()).close());
        assertTrue(e.getMessage().contains("sums to 4") && e.getMessage().contains("sum.nc"), e.getMessage());
    }

    @Test
    void missingFragmentsAndShapeMismatchesNameFileVariableFragmentAndUri() throws Exception {
        fragment("a.nc", 2, 0);
        Path agg = aggregation("agg.nc", 5, new int[] {2, 3}, List.of("a.nc", "nowhere.nc"), AD);
        try (NetcdfFile nc = NcZarrFiles.open(agg.toString())) {
            assertEquals("0 1", nc.findVariable("v").read("0:1").toString().trim());
            NcZarrException e = assertThrows(
                    NcZarrException.class, () -> nc.findVariable("v").read());
            String m = e.getMessage();
            assertTrue(
                    m.contains("agg.nc") && m.contains("'v'") && m.contains("fragment (1)") && m.contains("nowhere.nc"),
                    m);
        }
        fragment("b.nc", 4, 0);
        Path agg2 = aggregation("agg2.nc", 5, new int[] {2, 3}, List.of("a.nc", "b.nc"), AD);
        try (NetcdfFile nc = NcZarrFiles.open(agg2.toString())) {
            MetadataException e = assertThrows(
                    MetadataException.class, () -> nc.findVariable("v").read());
            assertTrue(
                    e.getMessage().contains("fragment (1) b.nc")
                            && e.getMessage().contains("[4]"),
                    e.getMessage());
        }
    }

    @Test
    void cyclesAndNestedAggregationsAreRefused() throws Exception {
        Path self = aggregation("self.nc", 5, new int[] {5}, List.of("self.nc"), AD);
        try (NetcdfFile nc = NcZarrFiles.open(self.toString())) {
            NcZarrException e = assertThrows(
                    NcZarrException.class, () -> nc.findVariable("v").read());
            assertTrue(e.getMessage().contains("cyclic"), e.getMessage());
        }
        fragment("a.nc", 5, 0);
        aggregation("inner.nc", 5, new int[] {5}, List.of("a.nc"), AD);
        Path outer = aggregation("outer.nc", 5, new int[] {5}, List.of("inner.nc"), AD);
        try (NetcdfFile nc = NcZarrFiles.open(outer.toString())) {
            UnsupportedFeatureException e = assertThrows(
                    UnsupportedFeatureException.class,
                    () -> nc.findVariable("v").read());
            assertTrue(
                    e.getMessage().contains("nested") || e.getMessage().contains("itself an aggregation"),
                    e.getMessage());
        }
    }

    @Test
    void localFragmentsOfARemoteAggregationAreRefusedUnlessAllowed() throws Exception {
        Path a = fragment("a.nc", 5, 0);
        Path agg = aggregation("remote.nc", 5, new int[] {5}, List.of(a.toUri().toString()), AD);
        try (RangeHttpServer http = RangeHttpServer.start()) {
            http.put("/r/remote.nc", agg);
            try (NetcdfFile nc = NcZarrFiles.open(http.url("/r/remote.nc") + "#mode=bytes")) {
                TargetRefusedException e = assertThrows(
                        TargetRefusedException.class, () -> nc.findVariable("v").read());
                assertTrue(
                        e.getMessage().contains("local file") && e.getMessage().contains("allowLocalFragments"),
                        e.getMessage());
            }
            try (NcZarrOptions allow = NcZarrOptions.builder()
                            .aggregation(new AggregationSettings(true, 4, false))
                            .build();
                    NetcdfFile nc = NcZarrFiles.open(http.url("/r/remote.nc") + "#mode=bytes", allow)) {
                assertEquals("0 1 2 3 4", nc.findVariable("v").read().toString().trim());
            }
        }
    }

    /** A fragment whose dimensions are named as the aggregation's but transposed is refused, not transposed. */
    @Test
    void transposedFragmentsAreRefused() throws Exception {
        Path frag = tmp.resolve("t.nc");
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, frag.toString());
        Dimension fy = w.addDimension(null, "y", 2);
        Dimension fx = w.addDimension(null, "x", 2);
        Variable fv = w.addVariable(null, "v", DataType.INT, List.of(fy, fx));
        w.create();
        w.write(fv, Array.factory(DataType.INT, new int[] {2, 2}, new int[] {1, 2, 3, 4}));
        w.close();
        Path p = tmp.resolve("t_agg.nc");
        w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        w.addDimension(null, "x", 2);
        w.addDimension(null, "y", 2);
        Dimension j = w.addDimension(null, "j", 2);
        Dimension i = w.addDimension(null, "i", 1);
        Dimension len = w.addDimension(null, "strlen", 16);
        Variable m = w.addVariable(null, "m", DataType.INT, List.of(j, i));
        Variable u = w.addVariable(null, "u", DataType.CHAR, List.of(len));
        Variable id = w.addVariable(null, "id", DataType.CHAR, List.of(len));
        Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
        v.addAttribute(new Attribute("aggregated_dimensions", "x y"));
        v.addAttribute(new Attribute("aggregated_data", "map: m uris: u identifiers: id"));
        w.create();
        w.write(m, Array.factory(DataType.INT, new int[] {2, 1}, new int[] {2, 2}));
        ArrayChar.D1 ua = new ArrayChar.D1(16);
        ua.setString("t.nc");
        w.write(u, ua);
        ArrayChar.D1 ida = new ArrayChar.D1(16);
        ida.setString("v");
        w.write(id, ida);
        w.close();
        try (NetcdfFile nc = NcZarrFiles.open(p.toString())) {
            UnsupportedFeatureException e = assertThrows(
                    UnsupportedFeatureException.class,
                    () -> nc.findVariable("v").read());
            assertTrue(
                    e.getMessage().contains("another order") && e.getMessage().contains("t.nc"), e.getMessage());
        }
    }

    /** No fragment file stays open: 10,000 open/read/close cycles, the process' descriptors counted. */
    @Test
    void noLeakedHandlesOverManyCycles() throws Exception {
        fragment("a.nc", 2, 0);
        fragment("b.nc", 3, 0);
        Path agg = aggregation("agg.nc", 5, new int[] {2, 3}, List.of("a.nc", "b.nc"), AD);
        try (NcZarrOptions small = NcZarrOptions.builder()
                .aggregation(new AggregationSettings(false, 1, false))
                .build()) {
            for (int i = 0; i < 200; i++) {
                cycle(agg, small);
            }
            long before = openDescriptors();
            for (int i = 0; i < 10_000; i++) {
                cycle(agg, small);
            }
            long after = openDescriptors();
            assertTrue(after <= before + 5, "descriptors " + before + " -> " + after);
        }
    }

    private static void cycle(Path agg, NcZarrOptions options) throws IOException {
        NetcdfFile nc = NcZarrFiles.open(agg.toString(), options);
        try {
            assertEquals(5, nc.findVariable("v").read().getSize());
            long[] c = (long[]) nc.sendIospMessage(AggregationIosp.MESSAGE_FRAGMENT_COUNTS);
            assertEquals(2, c[0]);
            assertTrue(c[2] <= 1, "at most maxOpenFragments idle fragments open: " + c[2]);
        } finally {
            nc.close();
        }
    }

    private static long openDescriptors() throws IOException {
        Path fd = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fd)) {
            return 0;
        }
        try (var s = Files.list(fd)) {
            return s.count();
        }
    }
}
