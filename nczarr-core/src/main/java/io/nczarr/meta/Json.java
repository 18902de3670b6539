package io.nczarr.meta;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.Optional;

/** JSON as netcdf-c and zarr-python write it (4.9.0 writes bare {@code NaN}/{@code Infinity} tokens). */
public final class Json {
    private Json() {}

    /**
     * Deepest JSON accepted. Real metadata is a few levels deep; a hostile document nested 100,000
     * deep must be a {@link MetadataException}, not a StackOverflowError in whatever walks the tree.
     * Not above Jackson's default write depth (1000), so any subtree read can be written back out
     * ({@code JsonNode.toString()} of a JSON-valued attribute).
     */
    static final int MAX_NESTING_DEPTH = 1000;

    public static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING_DEPTH)
                            .build())
                    .build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    /** Parses JSON text; malformed text is a {@link MetadataException} naming the key. */
    public static JsonNode parse(String dataset, String key, byte[] bytes) throws MetadataException {
        JsonNode n;
        try {
            n = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new MetadataException(dataset, key, "malformed JSON: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            throw new MetadataException(dataset, key, "malformed JSON: " + e.getMessage(), e);
        }
        if (n == null || n.isMissingNode()) {
            throw new MetadataException(dataset, key, "malformed JSON: the object is empty (no JSON value)");
        }
        return n;
    }

    /** Reads a JSON object from the store; empty if the key is missing. */
    public static Optional<ObjectNode> readObject(Store store, String key) throws IOException {
        Optional<byte[]> bytes = store.get(key);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        JsonNode n = parse(store.location(), key, bytes.get());
        if (!n.isObject()) {
            throw new MetadataException(store.location(), key, "expected a JSON object, found " + n.getNodeType());
        }
        return Optional.of((ObjectNode) n);
    }
}
