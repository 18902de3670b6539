package example;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The example application, compiled against the artifacts by their coordinates, opens corpus datasets. */
class OpenWithNetcdfJavaTest {

    static String run(String location) throws Exception {
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        OpenWithNetcdfJava.print(location, new PrintStream(buf, true, StandardCharsets.UTF_8));
        return buf.toString(StandardCharsets.UTF_8);
    }

    @Test
    void opensTheNcZarrSample() throws Exception {
        String out = run(Corpus.byName("sample").path().resolve(".zgroup").toString());
        // CF-enhanced: precip (short, scale_factor 0.01) reads as float, 120 * 0.01 (test-data/sample.cdl)
        assertTrue(out.contains("precip float[4, 3, 5] first=1.1999999"), out); // 120 * 0.01f in float
        assertTrue(out.contains("obs/t2m float[4, 2] first=271.25"), out);
    }

    @Test
    void opensAPureZarrStore() throws Exception {
        String out =
                run(Corpus.byName("zarr_chunk_edges").path().resolve(".zgroup").toString());
        assertTrue(!out.isEmpty(), out);
    }
}
