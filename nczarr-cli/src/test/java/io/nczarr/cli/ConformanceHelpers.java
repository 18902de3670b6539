package io.nczarr.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.nio.file.Path;
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
}
