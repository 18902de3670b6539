package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.TestFiles;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;

/**
 * {@code #mode=bytes} and {@code #bytes} through the user's entry points ({@code NcZarrFiles.open},
 * {@code openDataset}, the file-cache factories): netCDF-3 and netCDF-4 files on a loopback HTTP
 * server read by cdm's own readers. The byte-range machinery itself is tested in s3-raf.
 */
class BytesModeTest {
    private static RangeHttpServer server;
    private static Path dir;

    @BeforeAll
    static void start() throws IOException {
        dir = TestFiles.bytesDir();
        server = RangeHttpServer.start();
        for (String f : List.of("classic.nc", "offset64.nc", "nc4.nc")) {
            server.put("/thredds/fileServer/test/" + f, dir.resolve(f));
        }
    }

    @AfterAll
    static void stop() {
        server.close();
    }

    private static String url(String file) {
        return server.url("/thredds/fileServer/test/" + file);
    }

    @Test
    void openReadsEveryVariableLikeALocalOpen() throws IOException {
        for (String f : List.of("classic.nc", "offset64.nc", "nc4.nc")) {
            for (String fragment : List.of("#mode=bytes", "#bytes")) {
                String loc = url(f) + fragment;
                try (NetcdfFile remote = NcZarrFiles.open(loc);
                        NetcdfFile local = NetcdfFile.open(dir.resolve(f).toString())) {
                    assertEquals(loc, remote.getLocation());
                    assertEquals(local.getFileTypeId(), remote.getFileTypeId(), loc);
                    for (Variable lv : local.getVariables()) {
                        Variable rv = remote.findVariable(lv.getFullNameEscaped());
                        assertNotNull(rv, loc + " " + lv.getFullName());
                        Array a = lv.read();
                        Array b = rv.read();
                        assertEquals(a.toString(), b.toString(), loc + " " + lv.getFullName());
                    }
                }
            }
        }
    }

    @Test
    void openDatasetAppliesCfEnhancements() throws IOException {
        try (NetcdfDataset remote = NcZarrFiles.openDataset(url("classic.nc") + "#bytes", true);
                NetcdfDataset local =
                        NetcdfDataset.openDataset(dir.resolve("classic.nc").toString())) {
            VariableDS rt = (VariableDS) remote.findVariable("temp");
            assertTrue(rt.hasScaleOffset());
            assertEquals(local.findVariable("temp").read().toString(), rt.read().toString());
            assertEquals(274.15, rt.read().getDouble(0), 1e-4);
            assertTrue(Double.isNaN(rt.read().getDouble(19)), "_FillValue becomes NaN");
        }
    }

    @Test
    void fileCacheFactoryOpensBytesUrls() throws IOException {
        try (NetcdfFile nc =
                NetcdfDataset.acquireFile(NcZarrFiles.fileFactory(), null, url("nc4.nc") + "#bytes", -1, null, null)) {
            assertEquals(-42, nc.findVariable("scalar_i").readScalarInt());
            assertNotNull(nc.findVariable("obs/deeper/value"));
        }
    }

    @Test
    void localPathWithBytesModeOpensDirectly() throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(dir.resolve("nc4.nc").toUri() + "#mode=bytes")) {
            assertEquals(-42, nc.findVariable("scalar_i").readScalarInt());
        }
    }

    @Test
    void missingObjectIsFileNotFoundNamingTheUrl() {
        FileNotFoundException e =
                assertThrows(FileNotFoundException.class, () -> NcZarrFiles.open(url("missing.nc") + "#mode=bytes"));
        assertTrue(e.getMessage().contains(url("missing.nc")), e.getMessage());
    }

    /** mode=bytes on an S3 object through the user's entry point, signed and anonymous. */
    @Test
    void s3ObjectsOpenThroughNcZarrFiles() throws IOException {
        io.nczarr.testkit.s3.LocalS3 s3 = io.nczarr.testkit.s3.LocalS3.get();
        s3.server.createBucket("bytes");
        s3.server.put("bytes", "dir/nc4.nc", java.nio.file.Files.readAllBytes(dir.resolve("nc4.nc")));
        String signed = s3.signed.endpoint() + "/bytes/dir/nc4.nc#mode=bytes,s3&aws.profile="
                + io.nczarr.testkit.s3.LocalS3.PROFILE;
        String anonymous = s3.anonymous.endpoint() + "/bytes/dir/nc4.nc#mode=bytes&aws.profile=none";
        for (String loc : List.of(signed, anonymous)) {
            try (NetcdfFile remote = NcZarrFiles.open(loc);
                    NetcdfFile local = NetcdfFile.open(dir.resolve("nc4.nc").toString())) {
                assertEquals(local.getFileTypeId(), remote.getFileTypeId(), loc);
                for (Variable lv : local.getVariables()) {
                    Variable rv = remote.findVariable(lv.getFullNameEscaped());
                    assertNotNull(rv, loc + " " + lv.getFullName());
                    assertEquals(lv.read().toString(), rv.read().toString(), loc + " " + lv.getFullName());
                }
            }
        }
    }
}
