package io.nczarr.cdm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.cli.Manifest;
import io.nczarr.testing.Corpus;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import ucar.nc2.NetcdfFile;

/**
 * Every dataset of shared/corpus (good and bad) and of test-data: our manifest must pass
 * shared/conformance/compare.py against the expected one, exactly as SCHEMA.md defines.
 */
class CorpusConformanceTest {

    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> shared() {
        return Corpus.datasets().stream();
    }

    static Stream<Corpus.Entry> bad() {
        return Corpus.bad().stream();
    }

    static Stream<Corpus.Entry> own() {
        return Corpus.testData().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("shared")
    void sharedCorpus(Corpus.Entry e) throws Exception {
        check(e);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void badInputs(Corpus.Entry e) throws Exception {
        check(e);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("own")
    void ownTestData(Corpus.Entry e) throws Exception {
        check(e);
    }

    /** The manifest as `./nczarr json` writes it: {"error": ...} when the open fails. */
    static ObjectNode manifest(Corpus.Entry e) {
        try (NetcdfFile nc = NcZarrFiles.open(e.url())) {
            return Manifest.of(nc, e.name());
        } catch (IOException | RuntimeException ex) {
            ObjectNode err = Manifest.MAPPER.createObjectNode();
            err.put("error", String.valueOf(ex.getMessage()));
            return err;
        }
    }

    private void check(Corpus.Entry e) throws Exception {
        Path actual = tmp.resolve(e.name() + ".actual.json");
        Manifest.MAPPER.writerWithDefaultPrettyPrinter().writeValue(actual.toFile(), manifest(e));
        Path compare = Corpus.corpusDir().resolve("../conformance/compare.py").normalize();
        Process p = new ProcessBuilder(List.of("python3", compare.toString(), e.expected().toString(), actual.toString()))
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "compare.py timed out");
        String[] lines = out.strip().split("\n");
        String summary = lines[lines.length - 1];
        assertEquals(0, p.exitValue(), e.name() + ": " + summary + "\n" + out
                + "\nactual manifest: " + Files.readString(actual));
        assertTrue(summary.matches("\\d+ passed, 0 failed"), summary);
    }
}
