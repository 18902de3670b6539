package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.cli.Manifest;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;

/**
 * test-data/kerchunk (issue 13): kerchunk JSON references (v0, v1 with templates, v1 with gen) over netCDF-4 and
 * netCDF-3 files, read locally (relative target URLs); every variable's type, shape and data agree with
 * netCDF4-python reading the source file ({@code *.expected.json}, made by generate.py).
 */
class KerchunkConformanceTest {

    static Path dir() {
        return Corpus.testDataDir().resolve("kerchunk");
    }

    static Stream<Arguments> references() {
        return Stream.of(
                Arguments.of("nc4.v1.json", "nc4"),
                Arguments.of("nc4.v0.json", "nc4"),
                Arguments.of("nc3.v1.json", "nc3"),
                Arguments.of("gen.v1.json", "nc3"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("references")
    void variablesAgreeWithNetcdf4Python(String refs, String source) throws IOException {
        String url = dir().resolve(refs).toUri() + "#mode=kerchunk";
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            assertVariablesAgree(Manifest.of(nc, source), expected(source), refs);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("references")
    void referenceFilesAreFoundByContent(String refs, String source) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(dir().resolve(refs).toString())) {
            assertVariablesAgree(Manifest.of(nc, source), expected(source), refs + " (no mode)");
        }
    }

    static JsonNode expected(String source) throws IOException {
        return Manifest.MAPPER.readTree(dir().resolve(source + ".expected.json").toFile());
    }

    /** Types, shapes and data summaries of every variable the source has. */
    static void assertVariablesAgree(ObjectNode actual, JsonNode expected, String label) {
        JsonNode av = actual.get("variables");
        assertNotNull(av, label + ": " + actual);
        for (Map.Entry<String, JsonNode> e : expected.get("variables").properties()) {
            JsonNode a = av.get(e.getKey());
            assertNotNull(a, label + ": variable " + e.getKey() + " missing in " + av);
            assertEquals(e.getValue().get("type"), a.get("type"), label + " " + e.getKey() + " type");
            assertEquals(e.getValue().get("shape"), a.get("shape"), label + " " + e.getKey() + " shape");
            JsonNode ed = e.getValue().get("data");
            JsonNode ad = a.get("data");
            assertEquals(ed.get("sha256"), ad.get("sha256"), label + " " + e.getKey() + " data: " + ed + " vs " + ad);
            assertEquals(ed.get("count").asLong(), ad.get("count").asLong(), label + " " + e.getKey());
        }
        assertTrue(expected.get("variables").size() > 0);
    }
}
