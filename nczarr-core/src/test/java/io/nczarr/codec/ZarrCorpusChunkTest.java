package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.dtype.NumpyDtype;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every chunk of shared/corpus/zarr/zarr_compressors.zarr and zarr_filters.zarr decoded through
 * the .zarray's compressor and filters (reversed) must give the bytes zarr 2.13 gives
 * (codec-extra/zarr_chunks.json, written by codec-extra/make_fixtures.py).
 */
class ZarrCorpusChunkTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();

    static Stream<Arguments> chunks() throws IOException {
        JsonNode root;
        try (InputStream in = ZarrCorpusChunkTest.class.getResourceAsStream("/codec-extra/zarr_chunks.json")) {
            root = JSON.readTree(in);
        }
        List<Arguments> out = new ArrayList<>();
        for (JsonNode c : root.get("chunks")) {
            out.add(Arguments.of(
                    c.get("store").asText() + "/" + c.get("array").asText() + "/"
                            + c.get("key").asText(),
                    c));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("chunks")
    void decodesLikeZarr(String name, JsonNode c) throws IOException {
        Path arrayDir = TestSupport.corpusDir()
                .resolve("zarr")
                .resolve(c.get("store").asText())
                .resolve(c.get("array").asText());
        Assumptions.assumeTrue(Files.isDirectory(arrayDir), "corpus not found at " + arrayDir);
        JsonNode zarray = JSON.readTree(arrayDir.resolve(".zarray").toFile());
        String dtype = zarray.get("dtype").asText();
        List<Codec> pipeline = new ArrayList<>();
        JsonNode comp = zarray.get("compressor");
        if (comp != null && !comp.isNull()) {
            pipeline.add(REGISTRY.create(new CodecConfig(comp.get("id").asText(), comp, dtype)));
        }
        JsonNode filters = zarray.get("filters");
        if (filters != null && !filters.isNull()) {
            for (int i = filters.size() - 1; i >= 0; i--) {
                JsonNode f = filters.get(i);
                pipeline.add(REGISTRY.create(new CodecConfig(f.get("id").asText(), f, dtype)));
            }
        }
        long elems = 1;
        for (JsonNode n : zarray.get("chunks")) {
            elems *= n.asLong();
        }
        // every step's output is at most the chunk size in the widest dtype involved (8 bytes
        // for these arrays) – the reader passes the chunk's byte size
        int limit = (int) (elems * Math.max(8, NumpyDtype.parseOrNull(dtype).itemsize()));
        byte[] data = Files.readAllBytes(arrayDir.resolve(c.get("key").asText()));
        for (Codec codec : pipeline) {
            data = codec.decode(data, limit);
        }
        assertEquals(c.get("decoded_nbytes").asInt(), data.length, "decoded size");
        assertEquals(c.get("decoded_sha256").asText(), TestSupport.sha256(data), "decoded sha256");
    }
}
