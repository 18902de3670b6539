package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import ucar.ma2.Array;
import ucar.ma2.IndexIterator;
import ucar.nc2.dataset.NetcdfDataset;
import ucar.nc2.dataset.VariableDS;

/**
 * NetcdfDataset's CF enhancement on xarray-written data gives what xarray's decode_cf gives
 * (scale_factor, add_offset, _FillValue), as test-data/xarray-decoded/generate.py recorded it.
 */
class EnhancementTest {

    @ParameterizedTest
    @ValueSource(strings = {"xr_cf", "xr_encodings"})
    void enhancedValuesEqualXarrayDecodeCf(String name) throws Exception {
        Path expectedFile = Corpus.testDataDir().resolve("xarray-decoded/" + name + ".decoded.json");
        JsonNode expected = new ObjectMapper().readTree(expectedFile.toFile()).get("variables");
        try (NetcdfDataset ds = NcZarrFiles.openDataset(Corpus.byName(name).url(), true)) {
            Iterator<Map.Entry<String, JsonNode>> it = expected.properties().iterator();
            int checked = 0;
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                VariableDS v = (VariableDS) ds.findVariable(e.getKey());
                assertNotNull(v, name + ": no variable " + e.getKey());
                JsonNode values = e.getValue().get("values");
                Array a = v.read();
                assertEquals(values.size(), a.getSize(), e.getKey() + " size");
                IndexIterator ii = a.getIndexIterator();
                for (int i = 0; i < values.size(); i++) {
                    double ours = ii.getDoubleNext();
                    // integer variables keep their fill values in CDM; isMissing() is its masking
                    boolean missing = Double.isNaN(ours) || v.isMissing(ours);
                    JsonNode x = values.get(i);
                    String where = name + " " + e.getKey() + "[" + i + "]";
                    if (x.isTextual()) {
                        assertTrue(missing, where + ": xarray masks it, ours is " + ours);
                    } else {
                        double want = x.doubleValue();
                        assertTrue(!missing, where + ": ours is missing, xarray has " + want);
                        assertEquals(want, ours, Math.max(1e-6, Math.abs(want) * 1e-6), where);
                    }
                }
                checked++;
            }
            assertTrue(checked > 0);
        }
    }
}
