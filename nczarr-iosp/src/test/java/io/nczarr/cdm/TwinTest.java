package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import io.nczarr.testkit.Corpus;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * NCZarr store read by our IOSP versus its netCDF-4 twin read by netCDF-Java's own HDF5 reader:
 * same groups, dimensions, variables, attributes and values.
 */
class TwinTest {

    /** netcdf-c 4.9.0 prints floats in metadata with %g (6 digits), so the store holds less precision. */
    private static final double METADATA_REL_TOL = 1e-5;

    /** Not part of the netCDF data model, or added by one reader only. */
    private static final List<String> IGNORED_ATTRIBUTES = List.of(
            "_NCProperties",
            "_ChunkSizes",
            "_Netcdf4Dimid",
            "_Netcdf4Coordinates",
            "_IsNetcdf4",
            "_SuperblockVersion",
            "_nc3_strict");

    static Stream<Corpus.Entry> twins() {
        return Corpus.withTwins().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("twins")
    void sameAsHdf5Twin(Corpus.Entry e) throws Exception {
        assumeFalse(
                e.name().equals("nczarr_bigendian_raw490"),
                "store deliberately holds netcdf-c 4.9.0's byte-swapped big-endian data (see corpus INDEX notes)");
        try (NetcdfFile ours = NcZarrFiles.open(e.url());
                NetcdfFile twin = NetcdfFile.open(e.twin().toString())) {
            compareGroup(ours.getRootGroup(), twin.getRootGroup());
        }
    }

    private void compareGroup(Group ours, Group twin) throws Exception {
        String where = "group " + twin.getFullName();
        assertEquals(dims(twin.getDimensions()), dims(ours.getDimensions()), where + " dimensions");
        compareAttributes(where, ours.getAttributes(), twin.getAttributes());
        assertEquals(names(twin.getVariables()), names(ours.getVariables()), where + " variables");
        for (Variable tv : twin.getVariables()) {
            Variable ov = ours.findVariable(tv.getShortName());
            String vw = "variable " + tv.getFullName();
            assertEquals(tv.getDataType(), ov.getDataType(), vw + " type");
            assertEquals(tv.isUnsigned(), ov.isUnsigned(), vw + " unsigned");
            assertEquals(dimPaths(tv.getDimensions()), dimPaths(ov.getDimensions()), vw + " dimensions");
            compareAttributes(vw, ov.getAttributes(), tv.getAttributes());
            compareValues(vw, ov.read(), tv.read(), tv.getDataType(), 0);
        }
        assertEquals(twin.getGroups().size(), ours.getGroups().size(), where + " subgroups");
        for (Group tg : twin.getGroups()) {
            Group og = ours.findGroup(tg.getShortName());
            assertNotNull(og, where + " lacks subgroup " + tg.getShortName());
            compareGroup(og, tg);
        }
    }

    private static Map<String, Integer> dims(List<Dimension> dims) {
        Map<String, Integer> m = new TreeMap<>();
        dims.forEach(d -> m.put(d.getShortName(), d.getLength()));
        return m;
    }

    private static List<String> dimPaths(List<Dimension> dims) {
        List<String> l = new ArrayList<>();
        dims.forEach(d -> l.add(d.getGroup().getFullName() + "/" + d.getShortName()));
        return l;
    }

    private static List<String> names(List<Variable> vars) {
        List<String> l = new ArrayList<>();
        vars.forEach(v -> l.add(v.getShortName()));
        l.sort(null);
        return l;
    }

    private void compareAttributes(String where, List<Attribute> ours, List<Attribute> twin) {
        Map<String, Attribute> o = new TreeMap<>();
        Map<String, Attribute> t = new TreeMap<>();
        ours.stream()
                .filter(a -> !IGNORED_ATTRIBUTES.contains(a.getShortName()))
                .forEach(a -> o.put(a.getShortName(), a));
        twin.stream()
                .filter(a -> !IGNORED_ATTRIBUTES.contains(a.getShortName()))
                .forEach(a -> t.put(a.getShortName(), a));
        Attribute tf = t.get("_FillValue");
        if (tf != null && !o.containsKey("_FillValue") && isUnsignedDefaultFill(tf)) {
            // cdm's HDF5 reader shows HDF5's fill-value message of unsigned variables as _FillValue
            t.remove("_FillValue");
        }
        assertEquals(t.keySet(), o.keySet(), where + " attribute names");
        for (Attribute ta : t.values()) {
            Attribute oa = o.get(ta.getShortName());
            String aw = where + " attribute " + ta.getShortName();
            if (isWidenedUnsignedFill(ta, oa)) {
                continue; // an unsigned variable's _FillValue: one wider signed type, same unsigned value (CdmValues)
            }
            assertEquals(ta.getDataType(), oa.getDataType(), aw + " type");
            assertEquals(ta.getLength(), oa.getLength(), aw + " length");
            if (ta.isString()) {
                for (int i = 0; i < ta.getLength(); i++) {
                    assertEquals(ta.getStringValue(i), oa.getStringValue(i), aw);
                }
            } else {
                compareValues(aw, oa.getValues(), ta.getValues(), ta.getDataType(), METADATA_REL_TOL);
            }
        }
    }

    /** Our _FillValue of an unsigned variable in the next wider type, holding the twin's value read unsigned. */
    private static boolean isWidenedUnsignedFill(Attribute twin, Attribute ours) {
        if (!twin.getShortName().equals("_FillValue") || twin.getLength() != 1 || ours.getLength() != 1) {
            return false;
        }
        long mask;
        DataType wider;
        switch (twin.getDataType()) {
            case BYTE:
                mask = 0xffL;
                wider = DataType.SHORT;
                break;
            case SHORT:
                mask = 0xffffL;
                wider = DataType.INT;
                break;
            case INT:
                mask = 0xffffffffL;
                wider = DataType.LONG;
                break;
            default:
                return false;
        }
        return ours.getDataType() == wider
                && ours.getNumericValue().longValue() == (twin.getNumericValue().longValue() & mask);
    }

    /** netCDF's default fills of ubyte, ushort, uint and uint64, as CDM's signed bit patterns. */
    private static boolean isUnsignedDefaultFill(Attribute a) {
        Number n = a.getNumericValue();
        if (n == null || a.getLength() != 1) {
            return false;
        }
        switch (a.getDataType()) {
            case BYTE:
                return n.byteValue() == (byte) 255;
            case SHORT:
                return n.shortValue() == (short) 65535;
            case INT:
                return n.intValue() == (int) 4294967295L;
            case LONG:
                return n.longValue() == -2L;
            default:
                return false;
        }
    }

    private static void compareValues(String where, Array ours, Array twin, DataType t, double relTol) {
        assertEquals(twin.getSize(), ours.getSize(), where + " size");
        IndexIterator oi = ours.getIndexIterator();
        IndexIterator ti = twin.getIndexIterator();
        long i = 0;
        while (ti.hasNext()) {
            Object tv = ti.getObjectNext();
            Object ov = oi.getObjectNext();
            if (t == DataType.FLOAT || t == DataType.DOUBLE) {
                double a = ((Number) tv).doubleValue();
                double b = ((Number) ov).doubleValue();
                boolean same = Double.compare(a, b) == 0
                        || (Double.isNaN(a) && Double.isNaN(b))
                        || Math.abs(a - b) <= Math.max(relTol * Math.max(Math.abs(a), Math.abs(b)), 0)
                        // the netCDF default fill of the twin is stored as %g text in NCZarr
                        || (Math.abs(a - b) <= 1e-5 * Math.abs(a) && Math.abs(a) > 9.9e36);
                assertTrue(same, where + " element " + i + ": twin " + a + ", ours " + b);
            } else {
                assertEquals(tv, ov, where + " element " + i);
            }
            i++;
        }
    }
}
