package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;

/**
 * Issue 22 finding 4, the CF enhancement: {@code NetcdfDataset.openDataset} (cdm's own entry point, our IOSP
 * registered) on NCZarr written by netCDF4-python 1.7.5.1 (netcdf-c 4.10.1) masks the values equal to an unsigned
 * {@code _FillValue} ({@code 65535US}, {@code 200UB}, {@code 4000000000U}) as netCDF4-python does
 * (test-data/autumn-2026/make_fills.py), and masks values equal to a type's default fill where there is no {@code
 * _FillValue} as netCDF4-python does too ({@link DefaultFills}); the raw file and other files are unchanged.
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
        assertMasksAsNetcdf4Python(UNSIGNED);
        try (NetcdfDataset ds = ours()) {
            for (String name : UNSIGNED) {
                VariableDS v = (VariableDS) ds.findVariable(name);
                assertTrue(v.isUnsigned() && v.hasMissing(), name);
            }
            assertTrue(((VariableDS) ds.findVariable("u2")).isMissing(65535));
            assertFalse(((VariableDS) ds.findVariable("u2")).isMissing(-1));
            assertTrue(((VariableDS) ds.findVariable("u1")).isMissing(200));
            assertTrue(((VariableDS) ds.findVariable("u4")).isMissing(4_000_000_000d));
        }
    }

    private static void assertMasksAsNetcdf4Python(String... names) throws Exception {
        try (NetcdfDataset ds = ours()) {
            assertMasks(ds, names);
        }
    }

    private static void assertMasks(NetcdfDataset ds, String... names) throws Exception {
        JsonNode expected = new ObjectMapper()
                .readTree(dir().resolve("unsigned_fills.expected.json").toFile())
                .get("variables");
        for (String name : names) {
            VariableDS v = (VariableDS) ds.findVariable(name);
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
    }

    @Test
    void defaultFillsAreMissingAsNetcdf4PythonMasksThem() throws Exception {
        assertMasksAsNetcdf4Python(DEFAULTS);
        try (NetcdfDataset ds = ours()) {
            assertTrue(((VariableDS) ds.findVariable("dflt")).isMissing(-32767));
            assertTrue(((VariableDS) ds.findVariable("du2")).isMissing(65535));
            assertFalse(((VariableDS) ds.findVariable("du2")).isMissing(-1));
        }
    }

    @Test
    void theRawFileGetsNoFillAttribute() throws Exception {
        NcZarrFiles.registerConventions();
        try (NetcdfFile f =
                        NcZarrFiles.open(dir().resolve("unsigned_fills.file").toString());
                NetcdfDataset plain = new NetcdfDataset(f, false)) {
            for (String name : DEFAULTS) {
                assertNull(f.findVariable(name).findAttribute("_FillValue"), name);
                assertNull(plain.findVariable(name).findAttribute("_FillValue"), name);
            }
        }
    }

    @Test
    void otherFilesKeepCdmsOwnBehaviour() throws Exception {
        // the netCDF-4 twin read by cdm's HDF5 reader: our CF convention is plain CF-1 there
        NcZarrFiles.registerConventions();
        try (NetcdfDataset twin =
                NetcdfDataset.openDataset(dir().resolve("unsigned_fills.nc").toString())) {
            VariableDS t = (VariableDS) twin.findVariable("dflt");
            assertNull(t.findAttribute("_FillValue"));
            assertFalse(t.isMissing(-32767));
        }
    }

    @Test
    void cfDatasetsGetDefaultFillsThroughCfConvention(@TempDir Path tmp) throws Exception {
        // unsigned_fills.file has no Conventions (cdm picks our ServiceLoader convention); a CF-1.8 copy goes
        // through the CF convention registered by name
        Path cf = tmp.resolve("cf.file");
        try (Stream<Path> files = Files.walk(dir().resolve("unsigned_fills.file"))) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.copy(
                        p,
                        cf.resolve(dir().resolve("unsigned_fills.file")
                                .relativize(p)
                                .toString()));
            }
        }
        Path zattrs = cf.resolve(".zattrs");
        Files.writeString(zattrs, Files.readString(zattrs).replaceFirst("\\{", "{\"Conventions\": \"CF-1.8\", "));
        try (NetcdfDataset ds = NcZarrFiles.openDataset(cf.toString(), true)) {
            assertEquals("CF-1.8", ds.findGlobalAttribute("Conventions").getStringValue());
            assertTrue(
                    ds.findGlobalAttribute("_CoordSysBuilder").getStringValue().endsWith("DefaultFillCFConvention"));
            assertMasks(ds, DEFAULTS);
            assertMasks(ds, UNSIGNED);
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
