package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.aggregation.FragmentGrid;
import io.nczarr.error.LimitExceededException;
import io.nczarr.error.MetadataException;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.store.MemoryLimits;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.NetcdfFile;
import ucar.nc2.NetcdfFileWriter;
import ucar.nc2.Variable;

/**
 * Aggregations whose size is checked before anything proportional is made (issue 21, finding 7): a CF map
 * of 2000 x 2000 fragments is refused before the URIs are loaded, and reading a variable of many fragments
 * counts its plan in the read budget.
 */
@Timeout(60)
class AggregationBoundsTest {
    @TempDir
    Path tmp;

    @Test
    void aMapOfFourMillionFragmentsIsRefusedBeforeItsUrisAreRead() throws Exception {
        int n = 2000;
        Path p = tmp.resolve("big-map.nc");
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
        Dimension x = w.addDimension(null, "x", n);
        Dimension y = w.addDimension(null, "y", n);
        Dimension j = w.addDimension(null, "j", 2);
        Dimension i = w.addDimension(null, "i", n);
        Dimension len = w.addDimension(null, "strlen", 1);
        Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, i));
        w.addVariable(null, "fragment_uris", DataType.CHAR, List.of(x, y, len));
        w.addVariable(null, "fragment_identifiers", DataType.CHAR, List.of(len));
        Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
        v.addAttribute(new Attribute("aggregated_dimensions", "x y"));
        v.addAttribute(new Attribute(
                "aggregated_data", "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"));
        w.create();
        int[] ones = new int[2 * n];
        Arrays.fill(ones, 1);
        w.write(m, Array.factory(DataType.INT, new int[] {2, n}, ones));
        w.close();
        MetadataException e = assertThrows(
                MetadataException.class, () -> NcZarrFiles.open(p.toString()).close());
        assertTrue(e.getMessage().contains("more than " + FragmentGrid.MAX_FRAGMENTS + " fragments"), e.getMessage());
        assertEquals("v", e.variable(), e.getMessage());
    }

    @Test
    void readingManyFragmentsWholeCountsThePlanInTheReadBudget() throws Exception {
        int n = 200_000;
        Path p = tmp.resolve("many.nc");
        NetcdfFileWriter w = NetcdfFileWriter.createNew(NetcdfFileWriter.Version.netcdf3, p.toString());
        w.addGroupAttribute(null, new Attribute("Conventions", "CF-1.13"));
        w.addDimension(null, "x", n);
        Dimension j = w.addDimension(null, "j", 1);
        Dimension f = w.addDimension(null, "f", n);
        Variable m = w.addVariable(null, "fragment_map", DataType.INT, List.of(j, f));
        Variable u = w.addVariable(null, "fragment_values", DataType.INT, List.of(f));
        Variable v = w.addVariable(null, "v", DataType.INT, new ArrayList<Dimension>());
        v.addAttribute(new Attribute("aggregated_dimensions", "x"));
        v.addAttribute(new Attribute("aggregated_data", "map: fragment_map unique_values: fragment_values"));
        w.create();
        int[] ones = new int[n];
        Arrays.fill(ones, 1);
        int[] values = new int[n];
        for (int k = 0; k < n; k++) {
            values[k] = k;
        }
        w.write(m, Array.factory(DataType.INT, new int[] {1, n}, ones));
        w.write(u, Array.factory(values));
        w.close();
        // 800 KB of values, but 200,000 fragment pieces to plan: over an 8 MiB read budget
        MemoryLimits limits = new MemoryLimits(64L << 20, 32L << 20, 16L << 20, 8L << 20);
        try (NcZarrOptions options = NcZarrOptions.builder().limits(limits).build();
                NetcdfFile nc = NcZarrFiles.open(p.toString(), options)) {
            Variable agg = nc.findVariable("v");
            assertEquals("5 6 7", agg.read("5:7").toString().trim());
            LimitExceededException e = assertThrows(LimitExceededException.class, agg::read);
            assertEquals(MemoryLimits.MAX_READ_BYTES, e.property());
            assertTrue(e.getMessage().contains("200000 fragment pieces"), e.getMessage());
        }
    }
}
