package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.MAMath;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.constants.AxisType;
import ucar.nc2.dataset.CoordinateAxis;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;

/** Every way a netCDF-Java 4.5.5 user can reach our datasets (docs/user-guide.md lists them). */
class EntryPointsTest {

    static final Corpus.Entry SAMPLE = Corpus.byName("sample");
    static final Corpus.Entry SAMPLE_ZIP = Corpus.byName("sample_zip");

    private static float firstTemp(NetcdfFile nc) throws IOException {
        return nc.findVariable("temp").read().getFloat(0);
    }

    @Test
    void ncZarrFilesOpensUrlsAndPlainPaths() throws IOException {
        float expected;
        try (NetcdfFile nc = NcZarrFiles.open(SAMPLE.url())) {
            assertEquals("NCZarr", nc.getFileTypeId());
            expected = firstTemp(nc);
        }
        for (String loc : List.of(
                SAMPLE.path().toString(),
                SAMPLE_ZIP.path().toString(),
                SAMPLE_ZIP.url(),
                SAMPLE.path().toUri().toString())) {
            try (NetcdfFile nc = NcZarrFiles.open(loc)) {
                assertEquals(expected, firstTemp(nc), loc);
            }
        }
    }

    @Test
    void netcdfFileOpenOnARootZarrJsonReachesThePlugin() throws IOException {
        Path zarrJson = Corpus.v3Dir().resolve("groups.zarr").resolve("zarr.json");
        try (NetcdfFile nc = NetcdfFile.open(zarrJson.toString())) {
            assertEquals("NCZarr", nc.getFileTypeId());
            assertFalse(nc.getVariables().isEmpty());
        }
    }

    @Test
    void netcdfFileOpenOnRootZgroupReachesThePlugin() throws IOException {
        Path zgroup = SAMPLE.path().resolve(".zgroup");
        try (NetcdfFile nc = NetcdfFile.open(zgroup.toString())) {
            assertEquals("NCZarr", nc.getFileTypeId());
            assertNotNull(nc.findVariable("obs/name"));
        }
    }

    /**
     * cdm 4.5.5's NetcdfFile.open treats every "*.zip" as a compressed single file: it extracts the
     * FIRST entry to "x" beside the archive and never shows the archive to a plugin. So this entry
     * point cannot work in 4.5.5 (docs/user-guide.md); it must at least fail, never give wrong data.
     */
    @Test
    void netcdfFileOpenOnZipIsInterceptedByCdm(@TempDir Path tmp) throws IOException {
        Path copy = Files.copy(SAMPLE_ZIP.path(), tmp.resolve("sample.zip"));
        assertThrows(IOException.class, () -> NetcdfFile.open(copy.toString()).close());
    }

    @Test
    void netcdfDatasetOpenDatasetEnhances() throws IOException {
        String loc = SAMPLE.path().resolve(".zgroup").toUri().toString();
        try (NetcdfDataset ds = NetcdfDataset.openDataset(loc)) {
            checkEnhanced(ds);
        }
        try (NetcdfDataset ds = NcZarrFiles.openDataset(SAMPLE.url(), true)) {
            checkEnhanced(ds);
        }
    }

    private static void checkEnhanced(NetcdfDataset ds) throws IOException {
        List<AxisType> axes = new ArrayList<>();
        for (CoordinateAxis a : ds.getCoordinateAxes()) {
            axes.add(a.getAxisType());
        }
        assertTrue(axes.containsAll(List.of(AxisType.Time, AxisType.Lat, AxisType.Lon)), axes.toString());
        VariableDS precip = (VariableDS) ds.findVariable("precip");
        // scale_factor 0.01 applied: enhanced values are floats, packed ones shorts
        assertEquals(ucar.ma2.DataType.FLOAT, precip.getDataType());
        VariableDS temp = (VariableDS) ds.findVariable("temp");
        assertTrue(temp.hasMissing());
    }

    @Test
    void netcdfFileCacheWithOurFileFactory() throws IOException {
        NetcdfDataset.initNetcdfFileCache(1, 10, 60);
        try {
            NetcdfFile first = NetcdfDataset.acquireFile(NcZarrFiles.fileFactory(), null, SAMPLE.url(), -1, null, null);
            float v = firstTemp(first);
            first.close(); // back to the cache, still open
            NetcdfFile again = NetcdfDataset.acquireFile(NcZarrFiles.fileFactory(), null, SAMPLE.url(), -1, null, null);
            assertTrue(first == again, "the cached file is handed out again");
            assertEquals(v, firstTemp(again));
            again.close();
            try (NetcdfDataset ds = NetcdfDataset.acquireDataset(
                    NcZarrFiles.datasetFactory(),
                    SAMPLE_ZIP.url(),
                    NetcdfDataset.getDefaultEnhanceMode(),
                    -1,
                    null,
                    null)) {
                checkEnhanced(ds);
            }
        } finally {
            NetcdfDataset.shutdown();
        }
    }

    @Test
    void openErrorsNameTheDataset() {
        IOException e = assertThrows(IOException.class, () -> NcZarrFiles.open("/no/such/dataset.zarr"));
        assertTrue(e.getMessage().contains("/no/such/dataset.zarr"), e.getMessage());
        IOException badMode = assertThrows(
                IOException.class, () -> NcZarrFiles.open(SAMPLE.path().toUri() + "#mode=nczar"));
        assertTrue(badMode.getMessage().contains("nczar"), badMode.getMessage());
        // the corpus entry outside assertThrows: without the corpus this part is skipped, not failed
        String notZarrUrl = Corpus.byName("ref_notzarr_dir").url();
        IOException notZarr = assertThrows(IOException.class, () -> NcZarrFiles.open(notZarrUrl));
        assertTrue(notZarr.getMessage().contains("not a Zarr"), notZarr.getMessage());
    }

    @Test
    void concurrentReadersOfOneFileAgree() throws Exception {
        try (NetcdfFile nc = NcZarrFiles.open(SAMPLE.url())) {
            Variable temp = nc.findVariable("temp");
            Array whole = temp.read();
            int[] shape = temp.getShape();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            try {
                List<Future<Boolean>> results = new ArrayList<>();
                for (int t = 0; t < 40; t++) {
                    final int time = t % shape[0];
                    results.add(pool.submit(() -> {
                        Section s = new Section(new int[] {time, 0, 0}, new int[] {1, shape[1], shape[2]});
                        return MAMath.isEqual(whole.section(s.getOrigin(), s.getShape()), temp.read(s));
                    }));
                }
                for (Future<Boolean> f : results) {
                    assertTrue(f.get());
                }
            } finally {
                pool.shutdown();
            }
        }
    }
}
