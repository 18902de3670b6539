package io.nczarr.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DatasetUrlTest {

    @TempDir
    Path tmp;

    @Test
    void fileUrlWithModes() {
        DatasetUrl u = DatasetUrl.parse("file:///data/x.file#mode=nczarr,file");
        assertEquals("file", u.scheme());
        assertEquals(Paths.get("/data/x.file"), u.localPath());
        assertEquals(EnumSet.of(Mode.NCZARR, Mode.FILE), u.modes());
        assertEquals(DatasetUrl.Format.NCZARR, u.format());
        assertEquals(DatasetUrl.StoreKind.DIRECTORY, u.storeKind());
    }

    @Test
    void zarrImpliesNczarrAndXarrayImpliesZarr() {
        DatasetUrl u = DatasetUrl.parse("file:///data/x.zip#mode=xarray,zip");
        assertTrue(u.modes().containsAll(EnumSet.of(Mode.XARRAY, Mode.ZARR, Mode.NCZARR, Mode.ZIP)));
        assertEquals(DatasetUrl.Format.ZARR, u.format());
        assertEquals(DatasetUrl.StoreKind.ZIP, u.storeKind());
        assertTrue(u.useXarrayDimensions());
        assertFalse(DatasetUrl.parse("file:///x#mode=noxarray,file").useXarrayDimensions());
    }

    @Test
    void fragmentKeysAreCaseInsensitiveAndKept() {
        DatasetUrl u = DatasetUrl.parse("s3://bucket/key/ds.zarr#mode=nczarr&AWS.Profile=test&aws.region=eu-west-1");
        assertEquals("s3", u.scheme());
        assertEquals("test", u.parameter("aws.profile"));
        assertEquals("eu-west-1", u.parameter("AWS.REGION"));
        assertEquals(DatasetUrl.StoreKind.S3, u.storeKind());
        assertEquals("bucket", u.uri().getHost());
    }

    @Test
    void httpsWithS3Mode() {
        DatasetUrl u = DatasetUrl.parse("https://s3.us-east-1.amazonaws.com/bucket/key#mode=zarr,s3");
        assertEquals(DatasetUrl.StoreKind.S3, u.storeKind());
        assertEquals("/bucket/key", u.uri().getPath());
    }

    @Test
    void bareBytesFragment() {
        DatasetUrl u = DatasetUrl.parse("https://example.org/thredds/fileServer/x.nc#bytes");
        assertEquals(DatasetUrl.StoreKind.BYTES, u.storeKind());
    }

    @Test
    void unknownFlagIsAClearError() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DatasetUrl.parse("file:///x#mode=nczarr,bogus"));
        assertTrue(e.getMessage().contains("bogus"), e.getMessage());
    }

    @Test
    void contradictoryFlags() {
        assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("file:///x#mode=zip,file"));
        assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("file:///x#mode=xarray,noxarray"));
    }

    @Test
    void unsupportedScheme() {
        assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("ftp://host/x"));
    }

    @Test
    void plainPathsAreRecognisedByContent() throws Exception {
        Path dir = Files.createDirectory(tmp.resolve("store.zarr"));
        assertEquals(DatasetUrl.StoreKind.DIRECTORY, DatasetUrl.parse(dir.toString()).storeKind());
        assertEquals(DatasetUrl.Format.AUTO, DatasetUrl.parse(dir.toString()).format());
        Path zip = tmp.resolve("noext");
        Files.write(zip, new byte[] {'P', 'K', 3, 4, 0, 0});
        assertEquals(DatasetUrl.StoreKind.ZIP, DatasetUrl.parse(zip.toString()).storeKind());
        assertEquals(DatasetUrl.StoreKind.ZIP, DatasetUrl.parse(tmp.resolve("later.zip").toString()).storeKind());
    }

    @Test
    void percentEncodedFilePath() {
        DatasetUrl u = DatasetUrl.parse("file:///data/with%20space/x.zarr#mode=zarr");
        assertEquals(Paths.get("/data/with space/x.zarr"), u.localPath());
    }
}
