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
 * {@code nczarr quicklook}: size, colours at known data points, fill transparency, CF scaling. The values are
 * those of test-data/sample.cdl (the CDL ncgen made the sample from): temp at time=1 is
 * <pre>
 *   lat=-30: 289.5, 290.25, 291, _, 288.5
 *   lat=0:   300.5, 301.25, 302, 301.5, 300.75
 *   lat=30:  286.25, 285.5, 287, 288, 286.75
 * </pre>
 * so the minimum 285.5 is at (lat=30, lon index 1), the maximum 302 at (lat=0, lon index 2), the fill at
 * (lat=-30, lon index 3). lat increases, so lat=30 is the top row.
 */
class QuicklookTest {

    @TempDir
    Path tmp;

    /** The centre pixel of cell (image row r from the top, column i). */
    static int pixel(BufferedImage img, int r, int i, int cell) {
        return img.getRGB(Quicklook.LEFT + i * cell + cell / 2, Quicklook.TOP + r * cell + cell / 2);
    }

    @Test
    void temperatureSliceColoursAndTransparentFill() throws Exception {
        Path png = tmp.resolve("temp.png");
        MainTest.Run r = MainTest.run(
                "quicklook", Corpus.byName("sample").url(), "temp", "--index", "time=1", "-o", png.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("min 285.5 max 302"), r.out());
        BufferedImage img = ImageIO.read(png.toFile());
        // 3 x 5 cells of 40 px (400 / 5), a 120 px colour bar, title and legend rows
        int cell = 40;
        assertEquals(Quicklook.TOP + 3 * cell + Quicklook.BOTTOM, img.getHeight());
        assertTrue(r.out().contains("1 transparent (fill, missing or NaN)"), r.out());
        assertTrue(img.getWidth() >= Quicklook.LEFT + 5 * cell + 12 + Quicklook.BAR + 90, "width " + img.getWidth());
        // maximum = top of the scale (viridis yellow), minimum = bottom (viridis purple)
        assertEquals(0xfffde725, pixel(img, 1, 2, cell));
        assertEquals(0xff440154, pixel(img, 0, 1, cell));
        assertEquals(Quicklook.colour((300.5 - 285.5) / (302 - 285.5)), pixel(img, 1, 0, cell));
        // the fill value: fully transparent; its neighbours are not
        assertEquals(0, pixel(img, 2, 3, cell) >>> 24);
        assertEquals(0xff, pixel(img, 2, 2, cell) >>> 24);
        assertEquals(0xff, pixel(img, 2, 4, cell) >>> 24);
    }

    @Test
    void packedValuesAreScaled() throws Exception {
        // precip is short with scale_factor 0.01: the legend shows mm/day, not counts (max 801 -> 8.01 at time 0)
        Path png = tmp.resolve("precip.png");
        MainTest.Run r = MainTest.run("quicklook", Corpus.byName("sample").url(), "precip", "-o", png.toString());
        assertEquals(0, r.rc(), r.err());
        assertTrue(r.out().contains("min 0 max 8.01"), r.out());
    }

    @Test
    void badRequestsFailWithOneLine() {
        String url = Corpus.byName("sample").url();
        MainTest.Run oneD =
                MainTest.run("quicklook", url, "lat", "-o", tmp.resolve("x.png").toString());
        assertEquals(1, oneD.rc());
        assertTrue(oneD.err().contains("quicklook needs at least 2"), oneD.err());
        MainTest.Run outside = MainTest.run("quicklook", url, "temp", "--index", "time=9");
        assertEquals(1, outside.rc());
        assertTrue(outside.err().contains("outside 0..3"), outside.err());
        MainTest.Run unknown = MainTest.run("quicklook", url, "nope");
        assertEquals(1, unknown.rc());
        assertTrue(unknown.err().contains("no variable 'nope'"), unknown.err());
    }
}
