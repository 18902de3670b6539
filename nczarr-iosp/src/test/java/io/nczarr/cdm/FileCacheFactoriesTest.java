package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import ucar.ma2.DataType;
import ucar.nc2.NetcdfFile;
import ucar.nc2.dataset.NetcdfDataset;

/**
 * Issue 25, item 2: netCDF-Java's file cache (what THREDDS serves through) with S3 and HTTP Zarr URLs, on
 * loopback servers: {@code NcZarrFiles.acquireFile/acquireDataset}, the factories with cdm's own
 * {@code acquireFile/acquireDataset} (the {@code httpserver:} prefix for remote URLs), and files and datasets
 * of one location kept apart in the cache.
 */
class FileCacheFactoriesTest {
    static RangeHttpServer http;
    static String httpUrl;
    static String s3Url;

    @BeforeAll
    static void start() throws IOException {
        http = RangeHttpServer.start()
                .putTree("/data/sample.file", Corpus.byName("sample").path());
        httpUrl = http.url("/data/sample.file") + "#mode=nczarr";
        LocalS3 s3 = LocalS3.get();
        s3.upload(Corpus.byName("sample").path(), "cache", "runs/sample.file");
        s3Url = s3.signedUrl("cache", "runs/sample.file", "nczarr,s3");
        NetcdfDataset.initNetcdfFileCache(1, 10, 60);
    }

    @AfterAll
    static void stop() {
        NetcdfDataset.shutdown();
        http.close();
    }

    static float firstTemp(NetcdfFile nc) throws IOException {
        return nc.findVariable("temp").read().getFloat(0);
    }

    @Test
    void acquireFileAndDatasetOfTheSameRemoteLocation() throws Exception {
        for (String url : List.of(httpUrl, s3Url)) {
            NetcdfFile file = NcZarrFiles.acquireFile(url);
            float v = firstTemp(file);
            file.close(); // back to the cache
            NetcdfFile again = NcZarrFiles.acquireFile(url);
            assertSame(file, again, url);
            // the same location as a dataset: its own cache entry (no ClassCastException), enhanced
            try (NetcdfDataset ds = NcZarrFiles.acquireDataset(url)) {
                assertNotSame(again, ds);
                assertEquals(DataType.FLOAT, ds.findVariable("precip").getDataType(), url);
                assertEquals(v, firstTemp(ds), url);
            }
            again.close();
        }
    }

    @Test
    void cdmsAcquireWithOurFactoriesOnHttp() throws Exception {
        // cdm asks the server about the URL first: HEAD of the store's folder is 404 on a plain server
        IOException probed = assertThrows(
                IOException.class,
                () -> NetcdfDataset.acquireFile(
                        NcZarrFiles.fileFactory(), NcZarrFiles.fileCacheKey(httpUrl), httpUrl, -1, null, null));
        assertTrue(probed.getMessage().contains("404"), probed.getMessage());
        // the URL naming the store's .zgroup object answers HEAD, and our factory opens the store
        String location = http.url("/data/sample.file/.zgroup") + "#mode=nczarr";
        try (NetcdfFile file = NetcdfDataset.acquireFile(
                NcZarrFiles.fileFactory(), NcZarrFiles.fileCacheKey(location), location, -1, null, null)) {
            assertFalse(file instanceof NetcdfDataset);
            assertEquals(DataType.SHORT, file.findVariable("precip").getDataType());
            // acquireDataset of the same location right after: the key given above keeps them apart
            try (NetcdfDataset ds = NetcdfDataset.acquireDataset(
                    NcZarrFiles.datasetFactory(), location, NetcdfDataset.getDefaultEnhanceMode(), -1, null, null)) {
                assertEquals(DataType.FLOAT, ds.findVariable("precip").getDataType());
            }
        }
    }

    @Test
    void s3SchemeUrlsReachOurOpenerNotCdmsProbe() {
        // nothing listens on port 1: the failure is our S3 store's, naming the dataset, not cdm's
        // "Malformed URL ... .dds"
        String url = "s3://127.0.0.1:1/cache/runs/sample.file#mode=nczarr,s3&aws.profile=none";
        IOException e = assertThrows(IOException.class, () -> NcZarrFiles.acquireFile(url));
        assertFalse(e.getMessage().contains(".dds"), e.getMessage());
        assertTrue(e.getMessage().contains("sample.file"), e.getMessage());
        IOException cdm = assertThrows(
                IOException.class,
                () -> NetcdfDataset.acquireFile(NcZarrFiles.fileFactory(), null, url, -1, null, null));
        assertTrue(cdm.getMessage().contains("dds") || cdm.getMessage().contains("Malformed"), cdm.getMessage());
    }
}
