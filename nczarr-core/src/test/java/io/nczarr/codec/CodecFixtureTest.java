package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The numcodecs fixtures of shared/corpus/codecs/INDEX.json, plus the extra fixtures of
 * src/test/resources/codec-extra (made by its make_fixtures.py with numcodecs/liblzma/HDF5):
 * every encoded file must decode to decoded_nbytes bytes with sha256 decoded_sha256.
 */
class CodecFixtureTest {

    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();

    static Stream<Arguments> cases() throws IOException {
        return fromIndex(TestSupport.corpusDir().resolve("codecs"));
    }

    static Stream<Arguments> extraCases() throws IOException, URISyntaxException {
        return fromIndex(Path.of(CodecFixtureTest.class
                        .getResource("/codec-extra/INDEX.json")
                        .toURI())
                .getParent());
    }

    private static Stream<Arguments> fromIndex(Path dir) throws IOException {
        Path index = dir.resolve("INDEX.json");
        if (!Files.exists(index)) {
            return Stream.of(Arguments.of("corpus missing: " + index, null, dir));
        }
        JsonNode root = new ObjectMapper().readTree(index.toFile());
        List<Arguments> out = new ArrayList<>();
        for (JsonNode c : root.get("cases")) {
            String name = c.get("encoded").asText() + " " + c.get("config") + " "
                    + c.get("array_dtype").asText();
            out.add(Arguments.of(name, c, dir));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("extraCases")
    void decodesExtraFixture(String name, JsonNode c, Path dir) throws IOException {
        decodesFixture(name, c, dir);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decodesFixture(String name, JsonNode c, Path dir) throws IOException {
        org.junit.jupiter.api.Assumptions.assumeTrue(c != null, name);
        JsonNode config = c.get("config");
        Codec codec = REGISTRY.create(new CodecConfig(
                config.get("id").asText(), config, c.get("array_dtype").asText()));
        byte[] encoded = Files.readAllBytes(dir.resolve(c.get("encoded").asText()));
        assertEquals(c.get("encoded_nbytes").asInt(), encoded.length, "encoded size");
        int expected = c.get("decoded_nbytes").asInt();
        byte[] decoded = codec.decode(encoded, expected);
        assertEquals(expected, decoded.length, "decoded size");
        assertEquals(c.get("decoded_sha256").asText(), TestSupport.sha256(decoded), "decoded sha256");
        // the reader's path: into a reused, larger buffer holding garbage from an earlier chunk
        byte[] reused = new byte[expected + 37];
        java.util.Arrays.fill(reused, (byte) 0x5a);
        byte[] into = codec.decodeInto(encoded, reused, expected);
        byte[] result = into == reused ? java.util.Arrays.copyOf(reused, expected) : into;
        assertEquals(c.get("decoded_sha256").asText(), TestSupport.sha256(result), "decodeInto sha256");
    }

    @Test
    void everyFixtureCodecIsBuiltIn() throws IOException {
        Path index = TestSupport.requireCorpus("codecs").resolve("INDEX.json");
        JsonNode root = new ObjectMapper().readTree(index.toFile());
        for (JsonNode c : root.get("cases")) {
            assertTrue(
                    REGISTRY.supports(c.get("config").get("id").asText()),
                    c.get("codec").asText());
        }
    }
}
