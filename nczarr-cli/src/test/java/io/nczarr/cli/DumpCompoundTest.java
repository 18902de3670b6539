package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25, item 6: compound (structured dtypes, complex numbers) and opaque (variable-length bytes) variables
 * of test-data/dtypes/records.zarr in {@code dump} as ncdump prints such netCDF-4 types, checked through
 * ncgen and ncdump.
 */
class DumpCompoundTest {

    @TempDir
    Path tmp;

    static String dump() {
        MainTest.Run r = MainTest.run("dump", Corpus.byName("records").url());
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    @Test
    void typesSectionAndValues() {
        String cdl = dump();
        assertFalse(cdl.contains("not shown"), cdl);
        assertTrue(cdl.contains("types:\n  ubyte(*) blob_t ;\n  compound c128_be_t {\n    double real ;\n"), cdl);
        assertTrue(
                cdl.contains("  compound rec_t {\n    int a ;\n    double b(2) ;\n    char s(3) ;\n    rec_n_t n ;\n"
                        + "    rec_z_t z ;\n    ubyte k ;\n  }; // rec_t\ndimensions:"),
                cdl);
        assertTrue(cdl.contains("\tgrid_t grid(y, x) ;\n"), cdl);
        assertTrue(cdl.contains(" blob = {97}, {}, {0, 255, 120, 121, 122} ;\n"), cdl);
        assertTrue(cdl.contains(" c64 = {1, 2}, {NaNf, 0}, {Infinityf, -0.}, {3.5, -1}, {1, -1} ;\n"), cdl);
        assertTrue(cdl.contains(" rec = {1, {1.5, NaN}, {\"abc\"}, {0, -32768}, {0, 1}, 1},\n"), cdl);
        // -h: the types, no data
        MainTest.Run h = MainTest.run("dump", "-h", Corpus.byName("records").url());
        assertTrue(h.out().contains("compound grid_t {") && !h.out().contains("data:"), h.out());
    }

    @Test
    void ncgenReadsItAndNcdumpPrintsTheSameValues() throws Exception {
        String ncgen = CdlRoundTripTest.ncgen();
        String ncdump = DumpAsNcdumpTest.ncdump();
        Assumptions.assumeTrue(ncgen != null && ncdump != null, "ncgen/ncdump not on PATH (netcdf-bin)");
        // CDL keywords used as names stop ncgen (ncdump's own output too): the complex members "real"/"imag"
        // and the attribute "long" are renamed or dropped first
        String cdl =
                dump().replace(" real ;", " re ;").replace(" imag ;", " im ;").replaceAll("(?m)^\t\t:.*\n", "");
        Path in = tmp.resolve("records.cdl");
        Path nc = tmp.resolve("records.nc");
        Files.writeString(in, cdl, StandardCharsets.UTF_8);
        assertEquals("", run(List.of(ncgen, "-4", "-o", nc.toString(), in.toString())), cdl);
        String back = run(List.of(ncdump, nc.toString()));
        // the same data lines (ncdump spells negative zero "-0"; ncgen 4.9 garbles nested compounds, so rec is
        // compared only as far as its first values)
        for (String line : List.of(
                " blob = {97}, {}, {0, 255, 120, 121, 122} ;",
                " c64 = {1, 2}, {NaNf, 0}, {Infinityf, -0}, {3.5, -1}, {1, -1} ;",
                "  {1, 2}, {3, 4},",
                "  {5, 6}, {7, 8} ;",
                "  {1e+300, 1}, {-0, -2.5}, {0, 0},",
                " rec = {1, {1.5, NaN}, {\"abc\"}")) {
            assertTrue(back.contains(line), line + "\n" + back);
        }
        assertTrue(back.contains("compound grid_t {\n    float u ;\n    float v ;\n  }; // grid_t"), back);
        assertTrue(back.contains("ubyte(*) blob_t ;"), back);
    }

    private static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        return out;
    }
}
