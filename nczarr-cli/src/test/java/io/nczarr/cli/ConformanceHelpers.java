package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import ucar.nc2.NetcdfFile;

/**
 * What the command line's own HTTP, S3 and reference tests share with the conformance runs (module
 * nczarr-conformance: KerchunkConformanceTest, S3CorpusConformanceTest): test-data/kerchunk, its expected
 * manifests, and a manifest of a URL.
 */
final class ConformanceHelpers {
    private ConformanceHelpers() {}

    static Path kerchunkDir() {
        return Corpus.testDataDir().resolve("kerchunk");
    }

    static JsonNode kerchunkExpected(String source) throws IOException {
        return Manifest.MAPPER.readTree(
                kerchunkDir().resolve(source + ".expected.json").toFile());
    }

    /** The manifest of a URL, or {@code {"error": ...}} when it cannot be opened or read. */
    static ObjectNode manifest(String url, String name) {
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            return Manifest.of(nc, name);
        } catch (IOException | RuntimeException ex) {
            ObjectNode err = Manifest.MAPPER.createObjectNode();
            err.put("error", String.valueOf(ex.getMessage()));
            return err;
        }
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
