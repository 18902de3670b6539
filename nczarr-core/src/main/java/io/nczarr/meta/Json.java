package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
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

    /** The most of the text a malformed-JSON message shows. */
    static final int EXCERPT_CHARS = 32;

    /**
     * Parses JSON text; malformed text is a {@link MetadataException} naming the key, the position and at
     * most {@value #EXCERPT_CHARS} printable characters there. Not the parser's own message, nor the
     * parser's exception as the cause: they quote the text (up to hundreds of characters), and the bytes
     * may be anything, not metadata. Read by Jackson's streaming parser ({@link JacksonTrees}).
     */
    public static JsonNode parse(String dataset, String key, byte[] bytes) throws MetadataException {
        JsonNode n = JacksonTrees.parse(dataset, key, bytes);
        if (n == null || n.isMissingNode()) {
            throw new MetadataException(dataset, key, "malformed JSON: the object is empty (no JSON value)");
        }
        return n;
    }

    /** The first JSON value of {@code bytes} as a tree; {@code null} when there is none. */
    static JsonNode readTree(byte[] bytes) throws IOException {
        return JacksonTrees.readTree(bytes);
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
