package io.nczarr.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.url.DatasetUrl;
import io.nczarr.url.DatasetUrl.StoreKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which store a URL opens, and how opening a dataset that is not there fails. */
class StoresTest {

    @TempDir
    Path tmp;

    private static StoreKind kind(Object location) {
        return Stores.kindOf(DatasetUrl.parse(location.toString()));
    }

    @Test
    void plainPathsAreRecognisedByContent() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("store.zarr"));
        assertEquals(StoreKind.DIRECTORY, kind(dir));
        Path zip = Files.write(tmp.resolve("noext"), new byte[] {'P', 'K', 3, 4, 0, 0});
        assertEquals(StoreKind.ZIP, kind(zip));
        assertEquals(StoreKind.ZIP, kind(zip.toUri()), "file: URL without a flag");
        assertEquals(StoreKind.ZIP, kind(tmp.resolve("later.zip")), "named .zip before it exists");
        assertEquals(
                StoreKind.DIRECTORY,
                kind(Files.createDirectory(tmp.resolve("folder.zip"))),
                "a directory named .zip is a directory");
        assertEquals(StoreKind.DIRECTORY, kind(tmp.resolve("nosuch")));
        assertEquals(StoreKind.DIRECTORY, kind(Files.write(tmp.resolve("text"), new byte[] {'{', '}'})));
    }

    @Test
    void flagsAndSchemesWinOverContent() throws IOException {
        Path dir = Files.createDirectory(tmp.resolve("d"));
        assertEquals(StoreKind.ZIP, kind(dir.toUri() + "#mode=nczarr,zip"));
        Path zip = Files.write(tmp.resolve("z.zip"), new byte[] {'P', 'K', 3, 4});
        assertEquals(StoreKind.DIRECTORY, kind(zip.toUri() + "#mode=nczarr,file"));
        assertEquals(StoreKind.S3, kind("s3://bucket/ds.zarr"));
        assertEquals(StoreKind.HTTP, kind("http://host/bucket/x.zip#mode=zarr"), "http(s) + zarr: a plain HTTP server");
        assertEquals(StoreKind.S3, kind("http://host/bucket/x.zarr#mode=zarr,s3"));
        assertEquals(StoreKind.S3, kind("http://host/bucket/x.zarr#mode=zarr&aws.profile=p"), "aws keys mean S3");
        assertEquals(StoreKind.S3, kind("https://b.s3.us-west-2.amazonaws.com/x.zarr#mode=zarr"), "AWS host");
        assertEquals(
                StoreKind.HTTP,
                kind("http://b.s3-website-us-east-1.amazonaws.com/x.zarr#mode=zarr"),
                "website endpoint");
        assertEquals(StoreKind.HTTP, kind("https://b.s3.amazonaws.com/x.zarr#mode=zarr,http"), "forced");
        assertEquals(StoreKind.REFERENCE, kind("s3://bucket/refs.json#mode=kerchunk"));
        assertEquals(StoreKind.REFERENCE, kind(zip.toUri() + "#mode=zarr,kerchunk"));
        assertEquals(StoreKind.BYTES, kind(zip.toUri() + "#mode=bytes"));
    }

    @Test
    void openPicksTheStoreTheKindNames() throws IOException {
        Path dir = StoreContractTest.writeDirectory(tmp.resolve("ds.file"));
        Path zip = StoreContractTest.writeZip(tmp.resolve("noextension"), "");
        try (Store d = TestStores.open(DatasetUrl.parse(dir.toString()));
                Store z = TestStores.open(DatasetUrl.parse(zip.toString()));
                Store viaZgroup =
                        TestStores.open(DatasetUrl.parse(dir.resolve(".zgroup").toString()))) {
            assertInstanceOf(DirectoryStore.class, d);
            assertInstanceOf(ZipStore.class, z);
            assertInstanceOf(DirectoryStore.class, viaZgroup, "a path to the root .zgroup opens its folder");
            assertEquals(d.location(), viaZgroup.location());
        }
    }

    @Test
    void missingDatasetsAreStoreFailuresNamingThePath() {
        Path missing = tmp.resolve("no/such/dataset.zarr");
        StoreException e =
                assertThrows(StoreException.class, () -> TestStores.open(DatasetUrl.parse(missing.toString())));
        assertTrue(
                e.getMessage().contains(missing.toString()) && e.getMessage().contains("no such dataset"),
                e.getMessage());
        assertFalse(e.isRetryable());
        StoreException z = assertThrows(
                StoreException.class,
                () -> TestStores.open(DatasetUrl.parse(tmp.resolve("gone.zip").toString())));
        assertTrue(z.getMessage().contains("no such zip file"), z.getMessage());
    }

    @Test
    void aFileWhereADirectoryIsExpectedIsRefused() throws IOException {
        Path f = Files.write(tmp.resolve("plain"), new byte[] {1});
        StoreException e = assertThrows(
                StoreException.class, () -> TestStores.open(DatasetUrl.parse(f.toUri() + "#mode=nczarr,file")));
        assertTrue(e.getMessage().contains("is not a directory"), e.getMessage());
    }

    @Test
    void bytesModeIsNotAStore() {
        UnsupportedFeatureException e = assertThrows(
                UnsupportedFeatureException.class,
                () -> TestStores.open(DatasetUrl.parse("https://example.org/x.nc#mode=bytes")));
        assertTrue(e.getMessage().contains("mode=bytes"), e.getMessage());
    }
}
