package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.dataset.NetcdfDataset;

/** Issue 25, item 7: quicklook's output errors, colour range, diverging palette, axes and north up. */
class QuicklookOptionsTest {

    @TempDir
    Path tmp;

    @Test
    void anUnwritableOutputIsOneLineNamingTheFile() throws Exception {
        String url = Corpus.byName("sample").url();
        Path noDir = tmp.resolve("no/such/dir/t.png");
        for (Path out : new Path[] {noDir, tmp}) {
            MainTest.Run r = MainTest.run("quicklook", url, "temp", "-o", out.toString());
            assertEquals(1, r.rc(), r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("nczarr quicklook: " + out + ": cannot write the PNG"), r.err());
            assertFalse(r.err().contains("\tat ") || r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void rangeAndDivergingPalette() throws Exception {
        String url = Corpus.byName("sample").url();
        Path png = tmp.resolve("t.png");
        MainTest.Run r = MainTest.run(
                "quicklook",
                url,
                "temp",
                "--index",
                "time=1",
                "--range",
                "280,320",
                "--palette",
                "diverging",
                "-o",
                png.toString());
        assertEquals(0, r.rc(), r.err());
        BufferedImage img = ImageIO.read(png.toFile());
        // temp at (lat=0, lon index 2) = 302 (QuicklookTest): image row 1
        assertEquals(QuicklookStyle.Palette.DIVERGING.colour((302 - 280) / 40.0), QuicklookTest.pixel(img, 1, 2, 40));
        // without --range the diverging scale is symmetric about 0, with it viridis spans the range given
        QuicklookStyle.Style d = new QuicklookStyle.Style(null, null, QuicklookStyle.Palette.DIVERGING);
        assertArrayEquals(new double[] {-5, 5}, d.ends(-2, 5));
        assertEquals(0xfff7f7f7, QuicklookStyle.Palette.DIVERGING.colour(0.5));
        MainTest.Run v = MainTest.run(
                "quicklook", url, "temp", "--index", "time=1", "--range", "285.5,310", "-o", png.toString());
        assertEquals(0, v.rc(), v.err());
        assertEquals(
                Quicklook.colour((302 - 285.5) / (310 - 285.5)),
                QuicklookTest.pixel(ImageIO.read(png.toFile()), 1, 2, 40));
        for (String bad : new String[] {"1", "a,b", "5,1", "1,2,3"}) {
            MainTest.Run u = MainTest.run("quicklook", url, "temp", "--range", bad);
            assertEquals(2, u.rc(), bad);
            assertTrue(u.err().contains("--range"), u.err());
        }
        assertEquals(
                2, MainTest.run("quicklook", url, "temp", "--palette", "jet").rc());
    }

    /** A pure Zarr v2 store: v(lat, lon) = 1, 2, 3 by row, lat in the given order, lon 10, 20. */
    Path grid(String name, double[] lat) throws Exception {
        Path root = Files.createDirectories(tmp.resolve(name + ".zarr"));
        Files.writeString(root.resolve(".zgroup"), "{\"zarr_format\": 2}");
        array(root, "lat", "[\"lat\"]", new int[] {3}, lat, "degrees_north");
        array(root, "lon", "[\"lon\"]", new int[] {2}, new double[] {10, 20}, "degrees_east");
        array(root, "v", "[\"lat\", \"lon\"]", new int[] {3, 2}, new double[] {1, 1, 2, 2, 3, 3}, "K");
        return root;
    }

    static void array(Path root, String name, String dims, int[] shape, double[] data, String units) throws Exception {
        Path a = Files.createDirectories(root.resolve(name));
        String s = java.util.Arrays.toString(shape);
        Files.writeString(
                a.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": " + s + ", \"chunks\": " + s
                        + ", \"dtype\": \"<f8\", \"compressor\": null, \"filters\": null, \"fill_value\": \"NaN\","
                        + " \"order\": \"C\"}");
        Files.writeString(
                a.resolve(".zattrs"),
                "{\"_ARRAY_DIMENSIONS\": " + dims + ", \"units\": \"" + units + "\"}",
                StandardCharsets.UTF_8);
        ByteBuffer b = ByteBuffer.allocate(8 * data.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double d : data) {
            b.putDouble(d);
        }
        Files.write(a.resolve(shape.length == 1 ? "0" : "0.0"), b.array());
    }

    @Test
    void northIsUpWhateverTheLatitudeOrderAndAxesAreLabelled() throws Exception {
        // decreasing latitude (30, 0, -30: ERA5's order): v=1 is at lat 30 and must be the top row
        // increasing latitude (-30, 0, 30): v=3 is at lat 30 and must be the top row
        for (double[] lat : new double[][] {{30, 0, -30}, {-30, 0, 30}}) {
            Path store = grid("g" + (int) lat[0], lat);
            try (NetcdfDataset ds = NcZarrFiles.openDataset(store.toString(), true)) {
                Quicklook.Plot p = Quicklook.draw(Quicklook.find(ds, "v"), Map.of(), "g", QuicklookStyle.Style.DEFAULT);
                double top = lat[0] > 0 ? 1 : 3;
                double bottom = 4 - top;
                assertEquals(Quicklook.colour((top - 1) / 2), QuicklookTest.pixel(p.image(), 0, 0, p.cell()));
                assertEquals(Quicklook.colour((bottom - 1) / 2), QuicklookTest.pixel(p.image(), 2, 1, p.cell()));
                // tick labels are the coordinate values
                assertArrayEquals(lat, QuicklookStyle.coordinate(Quicklook.find(ds, "v"), 0));
                assertEquals("30", QuicklookStyle.tickLabel(lat, lat[0] > 0 ? 0 : 2));
                // the y axis labels left of the plot: something dark drawn in the margin
                assertTrue(
                        darkPixels(p.image(), 0, Quicklook.LEFT - 2, Quicklook.TOP, Quicklook.TOP + 3 * p.cell()) > 10);
                // and the x axis labels below it
                int below = Quicklook.TOP + 3 * p.cell() + 2;
                assertTrue(
                        darkPixels(p.image(), Quicklook.LEFT, Quicklook.LEFT + 2 * p.cell(), below, below + 14) > 10);
            }
        }
        assertArrayEquals(new int[] {0, 2, 4}, QuicklookStyle.ticks(5, 3));
        assertArrayEquals(new int[] {0}, QuicklookStyle.ticks(1, 5));
        assertNotEquals(Quicklook.colour(0), Quicklook.colour(1));
    }

    static int darkPixels(BufferedImage img, int x0, int x1, int y0, int y1) {
        int n = 0;
        for (int y = y0; y < y1; y++) {
            for (int x = x0; x < x1; x++) {
                int rgb = img.getRGB(x, y);
                if ((rgb >>> 24) == 0xff && ((rgb >> 16) & 0xff) < 128) {
                    n++;
                }
            }
        }
        return n;
    }
}
