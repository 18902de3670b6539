package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * netCDF-Java 4.5.5 names every object through {@code NetcdfFile.makeValidCdmObjectName}, which turns a
 * space into an underscore (its own HDF5 reader does the same): {@code "my var"} is {@code my_var}.
 * The user guide documents what lookups by either spelling give; this pins it.
 */
class NamesWithSpacesTest {

    @TempDir
    Path dir;

    private Path store() throws IOException {
        Path root = dir.resolve("spaces.zarr");
        Files.createDirectories(root.resolve("my var"));
        Files.writeString(root.resolve(".zgroup"), "{\"zarr_format\":2}");
        Files.writeString(root.resolve(".zattrs"), "{\"an attr\":\"x\"}");
        Files.writeString(
                root.resolve("my var/.zarray"),
                "{\"zarr_format\":2,\"shape\":[2],\"chunks\":[2],\"dtype\":\"<i2\",\"fill_value\":0,"
                        + "\"order\":\"C\",\"compressor\":null,\"filters\":null}");
        Files.writeString(root.resolve("my var/.zattrs"), "{\"_ARRAY_DIMENSIONS\":[\"my dim\"]}");
        Files.write(root.resolve("my var/0"), new byte[] {1, 0, 2, 0});
        return root;
    }

    @Test
    void spacesBecomeUnderscoresAndTheOriginalNameIsNotFound() throws Exception {
        Path root = store();
        String url = "file://" + root + "#mode=zarr,file";
        try (NetcdfFile f = NcZarrFiles.open(url)) {
            Variable v = f.findVariable("my_var");
            assertNotNull(v, "the CDM name has an underscore");
            assertEquals("my_var", v.getShortName());
            assertEquals("my_dim", v.getDimension(0).getShortName());
            assertArrayEquals(new short[] {1, 2}, (short[]) v.read().copyTo1DJavaArray());
            assertNull(f.findVariable("my var"), "the Zarr name finds nothing: lookups take CDM names");
            assertNull(f.findVariable("my\\ var"));
            assertNotNull(f.findGlobalAttribute("an_attr"), "attribute names follow the same rule");
            // the model keeps the original name, for a host that needs it
            assertEquals(
                    "my var", NcZarrFiles.model(f).root().variables().get(0).name());
        }
    }
}
