package io.nczarr.conformance;

import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Zarr v3 test data (test-data/v3/INDEX.json, good datasets and bad inputs): our manifest must
 * pass shared/conformance/compare.py against the expected one (SCHEMA.md, section "Zarr v3").
 */
class V3ConformanceTest {

    @TempDir
    Path tmp;

    static Stream<Corpus.Entry> good() {
        return Corpus.v3Datasets().stream();
    }

    static Stream<Corpus.Entry> bad() {
        return Corpus.v3Bad().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("good")
    void goodDatasets(Corpus.Entry e) throws Exception {
        ManifestCompare.assertConforms(e, CorpusConformanceTest.manifest(e), tmp, "local");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bad")
    void badInputs(Corpus.Entry e) throws Exception {
        ManifestCompare.assertConforms(e, CorpusConformanceTest.manifest(e), tmp, "local");
    }
}
