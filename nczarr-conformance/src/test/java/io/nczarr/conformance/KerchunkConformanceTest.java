package io.nczarr.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.cli.Manifest;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.ManifestCompare;
import java.io.IOException;
import java.nio.file.Path;
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
            ManifestCompare.assertVariablesAgree(Manifest.of(nc, source), expected(source), refs);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("references")
    void referenceFilesAreFoundByContent(String refs, String source) throws IOException {
        try (NetcdfFile nc = NcZarrFiles.open(dir().resolve(refs).toString())) {
            ManifestCompare.assertVariablesAgree(Manifest.of(nc, source), expected(source), refs + " (no mode)");
        }
    }

    static JsonNode expected(String source) throws IOException {
        return Manifest.MAPPER.readTree(dir().resolve(source + ".expected.json").toFile());
    }
}
