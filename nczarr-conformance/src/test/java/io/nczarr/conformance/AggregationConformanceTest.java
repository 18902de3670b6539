package io.nczarr.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * test-data/aggregation (issue 14): each aggregation file opened through NcZarrFiles against the
 * manifest netCDF4-python made of its plain twin (written by cfdm / netCDF4-python, see generate.py).
 */
class AggregationConformanceTest {
    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> aggregations() throws IOException {
        Path dir = Corpus.testDataDir().resolve("aggregation");
        JsonNode index = new ObjectMapper().readTree(dir.resolve("INDEX.json").toFile());
        List<Corpus.Entry> out = new ArrayList<>();
        for (JsonNode d : index.get("datasets")) {
            out.add(new Corpus.Entry(
                    d.get("name").asText(),
                    dir.resolve(d.get("path").asText()),
                    d.get("fragment").asText(),
                    dir.resolve(d.get("expected").asText()),
                    dir.resolve(d.get("twin").asText()),
                    d.get("category").asText()));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("aggregations")
    void conforms(Corpus.Entry e) throws Exception {
        ManifestCompare.assertConforms(e, CorpusConformanceTest.manifest(e), tmp, "local");
    }
}
