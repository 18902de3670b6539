package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.awt.image.BufferedImage;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 22, findings 3 and 4, end to end on the netcdf-c 4.10.1 and xarray v3 stores: dump prints
 * {@code _} for unsigned fills and for netCDF default fills (no {@code _FillValue}), as ncdump does,
 * and never for valid zeros of a v3 store; quicklook leaves the default fill transparent.
 */
class AutumnFillDisplayTest {

    @TempDir
    Path tmp;

    static String dump(String name) {
        MainTest.Run r = MainTest.run("dump", Corpus.byName(name).url());
        assertEquals(0, r.rc(), r.err());
        return r.out();
    }

    @Test
    void dumpPrintsUnsignedAndDefaultFillsAsUnderscore() {
        String out = dump("autumn_nczarr_410");
        assertTrue(out.contains(" u2 = 1, _, 3, 65534, _, 0 ;"), out);
        assertTrue(out.contains(" u1 = 0, _, 255, 199, _, 1 ;"), out);
        assertTrue(out.contains(" u4 = _, 1, 4294967295, _, 7, 0 ;"), out);
        assertTrue(out.contains(" dflt = 5, -5, _, _, _, _ ;"), out);
        assertTrue(out.contains(" dfloat = _, _, _, 0.5, 2.5, _ ;"), out);
    }

    @Test
    void dumpOfAnXarrayV3StoreShowsItsZeros() {
        String out = dump("autumn_xarray_v3_fill");
        assertTrue(out.contains("0, 1, 0,"), out);
        assertTrue(out.contains(" time = 0, 1 ;"), out);
        assertTrue(!out.contains("mask:_FillValue") && !out.contains("count:_FillValue"), out);
    }

    @Test
    void quicklookLeavesTheDefaultFillOfAnUnsignedVariableTransparent() throws Exception {
        Path png = tmp.resolve("gv.png");
        MainTest.Run r =
                MainTest.run("quicklook", Corpus.byName("autumn_nczarr_410").url(), "g/gv", "-o", png.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("min 1 max 9"), r.out());
        BufferedImage img = ImageIO.read(png.toFile());
        int cell = Math.max(1, Math.min(40, 400 / 6));
        int alpha = QuicklookTest.pixel(img, 1, 0, cell) >>> 24;
        assertEquals(0, alpha, "65535 (ushort default fill) is transparent");
        assertEquals(0xff, QuicklookTest.pixel(img, 1, 1, cell) >>> 24);
    }
}
