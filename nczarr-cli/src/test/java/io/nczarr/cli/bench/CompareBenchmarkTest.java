package io.nczarr.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.DataType;

/**
 * The digest bench/compare.sh compares across readers must be the one the anchors compute:
 * expected values from numpy ({@code hashlib.sha256(np.array(..., '<f4').tobytes())}).
 */
class CompareBenchmarkTest {

    @Test
    void floatDigestIsNumpyLittleEndianCOrder() throws Exception {
        // np.array([[1.5, -2.0], [3.25, np.float32(1e-3)]], '<f4')
        Array a = Array.factory(DataType.FLOAT, new int[] {2, 2}, new float[] {1.5f, -2.0f, 3.25f, 1e-3f});
        assertEquals("78b47e7c7cf6e58d549d28c366eaeb234145cd871fb193f00606e1a2bc9ef036", OursReads.sha256(a));
    }

    @Test
    void doubleDigestIsNumpyLittleEndian() throws Exception {
        // np.array([0.1, -7.0, 1e300], '<f8')
        Array a = Array.factory(DataType.DOUBLE, new int[] {3}, new double[] {0.1, -7.0, 1e300});
        assertEquals("1709671b10fa53363ba8eb9baaeffe06f8a5c6fc9ac9a84c1c65e65fb8463458", OursReads.sha256(a));
    }

    @Test
    void otherTypesAreRefused() {
        Array a = Array.factory(DataType.INT, new int[] {1}, new int[] {1});
        assertThrows(IllegalArgumentException.class, () -> OursReads.sha256(a));
    }

    /** The fresh-process children run with the launcher's defaults: each of them must still be in ./nczarr. */
    @Test
    void freshProcessOptionsAreTheLaunchers() throws Exception {
        Path launcher = Path.of("..", "nczarr");
        if (!Files.isRegularFile(launcher)) {
            launcher = Path.of("nczarr");
        }
        String script = Files.readString(launcher);
        for (String opt : FreshProcesses.launcherDefaults()) {
            if (!opt.startsWith("-XX:SharedArchiveFile=")) {
                assertTrue(script.contains(opt), opt + " is no longer in " + launcher);
            }
        }
        assertTrue(FreshProcesses.launcherDefaults().containsAll(FreshProcesses.LAUNCHER_HEAP));
    }

    /** A child's PHASES / RSS lines split its time; the last other line is its digest. */
    @Test
    void freshProcessPhasesAreParsed() throws Exception {
        FreshProcesses.Fresh f = FreshProcesses.best(
                List.of(
                        "sh",
                        "-c",
                        "echo VERSION x 1; echo PHASES 1000 3000 7000 15000; echo RSS 2048; echo CPU 150; echo abc"),
                Map.of(),
                2,
                30);
        assertEquals(2e-6, f.imports(), 1e-12);
        assertEquals(4e-6, f.open(), 1e-12);
        assertEquals(8e-6, f.read(), 1e-12);
        assertEquals(2048, f.rssKib());
        assertEquals(1.5, f.cpu(), 1e-12);
        assertEquals("abc", f.sha256());
        assertTrue(f.wall() > 0);
    }

    @Test
    void aFailingChildIsReportedNotTimed() throws Exception {
        FreshProcesses.Fresh f = FreshProcesses.best(List.of("sh", "-c", "exit 3"), Map.of(), 1, 30);
        assertEquals("exit-3", f.sha256());
        assertTrue(Double.isNaN(f.toData()));
    }
}
