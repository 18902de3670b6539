package io.nczarr.url;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Paths;
import java.util.EnumSet;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DatasetUrlTest {

    @Test
    void fileUrlWithModes() {
        DatasetUrl u = DatasetUrl.parse("file:///data/x.file#mode=nczarr,file");
        assertEquals("file", u.scheme());
        assertEquals(Paths.get("/data/x.file"), u.localPath());
        assertEquals(EnumSet.of(Mode.NCZARR, Mode.FILE), u.modes());
        assertEquals(DatasetUrl.Format.NCZARR, u.format());
        assertEquals(Optional.of(DatasetUrl.StoreKind.DIRECTORY), u.declaredStoreKind());
    }

    @Test
    void zarrImpliesNczarrAndXarrayImpliesZarr() {
        DatasetUrl u = DatasetUrl.parse("file:///data/x.zip#mode=xarray,zip");
        assertTrue(u.modes().containsAll(EnumSet.of(Mode.XARRAY, Mode.ZARR, Mode.NCZARR, Mode.ZIP)));
        assertEquals(DatasetUrl.Format.ZARR, u.format());
        assertEquals(Optional.of(DatasetUrl.StoreKind.ZIP), u.declaredStoreKind());
        assertTrue(u.useXarrayDimensions());
        assertFalse(DatasetUrl.parse("file:///x#mode=noxarray,file").useXarrayDimensions());
    }

    @Test
    void fragmentKeysAreCaseInsensitiveAndKept() {
        DatasetUrl u = DatasetUrl.parse("s3://bucket/key/ds.zarr#mode=nczarr&AWS.Profile=test&aws.region=eu-west-1");
        assertEquals("s3", u.scheme());
        assertEquals("test", u.parameter("aws.profile"));
        assertEquals("eu-west-1", u.parameter("AWS.REGION"));
        assertEquals(Optional.of(DatasetUrl.StoreKind.S3), u.declaredStoreKind());
        assertEquals("bucket", u.uri().getHost());
    }

    @Test
    void httpsWithS3Mode() {
        DatasetUrl u = DatasetUrl.parse("https://s3.us-east-1.amazonaws.com/bucket/key#mode=zarr,s3");
        assertEquals(Optional.of(DatasetUrl.StoreKind.S3), u.declaredStoreKind());
        assertEquals("/bucket/key", u.uri().getPath());
    }

    @Test
    void bareBytesFragment() {
        DatasetUrl u = DatasetUrl.parse("https://example.org/thredds/fileServer/x.nc#bytes");
        assertEquals(Optional.of(DatasetUrl.StoreKind.BYTES), u.declaredStoreKind());
    }

    @Test
    void unknownFlagIsAClearError() {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse("file:///x#mode=nczarr,bogus"));
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
    void plainPathsLeaveTheKindToTheStoreLayer() {
        // directory or zip is decided by what is on disk (Stores.kindOf), never while parsing
        for (String loc : new String[] {"/data/store.zarr", "/data/x.zip", "file:///data/x.zip#mode=nczarr"}) {
            DatasetUrl u = DatasetUrl.parse(loc);
            assertEquals(Optional.empty(), u.declaredStoreKind(), loc);
            assertEquals(DatasetUrl.Format.AUTO.equals(u.format()), !loc.contains("mode"), loc);
        }
    }

    @Test
    void percentEncodedFilePath() {
        DatasetUrl u = DatasetUrl.parse("file:///data/with%20space/x.zarr#mode=zarr");
        assertEquals(Paths.get("/data/with space/x.zarr"), u.localPath());
    }

    @Test
    void toStringHidesCredentialsAndOriginalKeepsThem() {
        DatasetUrl u = DatasetUrl.parse("http://user:SECRET@host/bucket/ds#mode=zarr,s3");
        assertEquals("http://host/bucket/ds#mode=zarr,s3", u.toString());
        assertEquals("http://user:SECRET@host/bucket/ds#mode=zarr,s3", u.original(), "what the user gave");
        assertEquals(
                "s3://bucket/ds?token=REDACTED",
                DatasetUrl.parse("s3://bucket/ds?token=SECRET").toString());
        assertEquals(
                "/d/x#mode=zarr,file&aws.secret_access_key=REDACTED",
                DatasetUrl.parse("/d/x#mode=zarr,file&aws.secret_access_key=SECRET")
                        .toString());
    }

    @Test
    void parseErrorsDoNotQuoteSecrets() {
        String[] bad = {
            "ftp://user:SECRET@host/x",
            "https://host/x?token=SECRET#mode=nczarr,bogus",
            "https://host/x?X-Amz-Signature=SECRET#mode=zip,s3",
            "https://host/x?sig=SECRET bad|char",
            "https://host/x#mode=zarr,s3&aws.secret_access_key=SECRET%zz",
            "https://u:SECRET@host/x#=v",
        };
        for (String loc : bad) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DatasetUrl.parse(loc));
            for (Throwable t = e; t != null; t = t.getCause()) {
                assertFalse(String.valueOf(t.getMessage()).contains("SECRET"), t.toString());
            }
        }
    }
}
