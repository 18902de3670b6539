package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;

/**
 * Issue 22 finding 4, the CF enhancement: {@code NetcdfDataset.openDataset} (cdm's own entry point, our IOSP
 * registered) on NCZarr written by netCDF4-python 1.7.5.1 (netcdf-c 4.10.1) masks the values equal to an unsigned
 * {@code _FillValue} ({@code 65535US}, {@code 200UB}, {@code 4000000000U}) as netCDF4-python does
 * (test-data/autumn-2026/make_fills.py), and treats values equal to a type's default fill, with no {@code
 * _FillValue}, as netCDF-Java 4.5.5 treats them in the netCDF-4 twin through its own HDF5 reader: not missing
 * (netCDF4-python and ncdump would mask them; cdm 4.5.5's enhancement does not, and we match cdm).
 */
class UnsignedFillEnhanceTest {
    private static final String[] UNSIGNED = {"u1", "u2", "u4"};
    private static final String[] DEFAULTS = {"dflt", "dfloat", "du2"};

    private static Path dir() {
        return Corpus.autumnDir();
    }

    private static NetcdfDataset ours() throws Exception {
        NcZarrFiles.registerIosp();
        return NetcdfDataset.openDataset(
                dir().resolve("unsigned_fills.file").resolve(".zgroup").toUri().toString());
    }

    @Test
    void unsignedFillsAreMissingAsNetcdf4PythonMasksThem() throws Exception {
        JsonNode expected = new ObjectMapper()
                .readTree(dir().resolve("unsigned_fills.expected.json").toFile())
                .get("variables");
        try (NetcdfDataset ds = ours()) {
            for (String name : UNSIGNED) {
                VariableDS v = (VariableDS) ds.findVariable(name);
                assertTrue(v.isUnsigned() && v.hasMissing(), name);
                Array a = v.read();
                JsonNode want = expected.get(name);
                for (int i = 0; i < a.getSize(); i++) {
                    double d = a.getDouble(i);
                    String where = name + "[" + i + "] = " + d;
                    if (want.get(i).isNull()) {
                        assertTrue(v.isMissing(d), where + ": netCDF4-python masks it");
                    } else {
                        assertFalse(v.isMissing(d), where);
                        assertEquals(want.get(i).asDouble(), d, where);
                    }
                }
            }
            assertTrue(((VariableDS) ds.findVariable("u2")).isMissing(65535));
            assertFalse(((VariableDS) ds.findVariable("u2")).isMissing(-1));
            assertTrue(((VariableDS) ds.findVariable("u1")).isMissing(200));
            assertTrue(((VariableDS) ds.findVariable("u4")).isMissing(4_000_000_000d));
        }
    }

    @Test
    void defaultFillsAreMaskedExactlyWhereNetcdfJavasOwnHdf5ReaderMasksThem() throws Exception {
        try (NetcdfDataset twin = NetcdfDataset.openDataset(
                        dir().resolve("unsigned_fills.nc").toString());
                NetcdfDataset ds = ours()) {
            for (String name : DEFAULTS) {
                VariableDS t = (VariableDS) twin.findVariable(name);
                VariableDS o = (VariableDS) ds.findVariable(name);
                assertEquals(t.hasMissing(), o.hasMissing(), name + " hasMissing");
                Array ta = t.read();
                Array oa = o.read();
                for (int i = 0; i < ta.getSize(); i++) {
                    assertEquals(ta.getDouble(i), oa.getDouble(i), name + "[" + i + "]");
                    assertEquals(t.isMissing(ta.getDouble(i)), o.isMissing(oa.getDouble(i)), name + "[" + i + "]");
                }
            }
            // cdm 4.5.5's enhancement leaves default fills alone (its own reader: no _FillValue, no missing)
            assertFalse(((VariableDS) ds.findVariable("dflt")).isMissing(-32767));
            assertFalse(((VariableDS) ds.findVariable("du2")).isMissing(65535));
        }
    }

    @Test
    void theFillStillPrintsInTheVariablesOwnType() throws Exception {
        try (NetcdfDataset ds = ours()) {
            // cdm sees int 65535; dump and json print 65535US (CdlWriter, Manifest)
            assertEquals(
                    65535,
                    ds.findVariable("u2")
                            .findAttribute("_FillValue")
                            .getNumericValue()
                            .intValue());
            assertEquals(
                    4_000_000_000L,
                    ds.findVariable("u4")
                            .findAttribute("_FillValue")
                            .getNumericValue()
                            .longValue());
        }
    }
}
