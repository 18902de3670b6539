package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.NcZarrException;
import io.nczarr.url.DatasetUrl;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/** The binding's last line of defence: what a RuntimeException from below becomes. */
class GuardTest {

    @Test
    void aRuntimeExceptionInReadDataIsTheProjectsExceptionNamingDatasetAndVariable() throws Exception {
        FuzzSeeds.Seed seed = FuzzSeeds.byName("nczarr_groups");
        String location = "memory:guard";
        try (NetcdfFile nc = FuzzProbe.open(location, new TreeMap<>(seed.objects()), seed.format(), seed.xarray())) {
            Variable x = nc.findVariable("x");
            x.setSPobject("not a chunk reader"); // a bug's stand-in: readData's cast fails
            NcZarrException e =
                    assertThrows(NcZarrException.class, () -> nc.getIosp().readData(x, new Section(x.getShape())));
            assertEquals(location, e.dataset());
            assertEquals("x", e.variable());
            assertInstanceOf(ClassCastException.class, e.getCause());
            assertTrue(e.detail().startsWith(Guard.UNEXPECTED), e.detail());
        }
    }

    @Test
    void aDatasetNameBeforeTheStoreIsOpenCarriesNoCredentials() {
        String name =
                Guard.name(DatasetUrl.parse("https://user:secret@host.example/bucket/x.zarr?token=abc#mode=zarr,s3"));
        assertFalse(name.contains("secret") || name.contains("user") || name.contains("abc"), name);
        assertTrue(name.contains("host.example/bucket/x.zarr"), name);
        assertTrue(Guard.name(DatasetUrl.parse("/data/x.zarr#mode=zarr,file")).startsWith("/data/x.zarr"));
    }
}
