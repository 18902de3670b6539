package io.nczarr.meta;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
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

    /** The most of the text a malformed-JSON message shows. */
    static final int EXCERPT_CHARS = 32;

    /**
     * Parses JSON text; malformed text is a {@link MetadataException} naming the key, the position and at
     * most {@value #EXCERPT_CHARS} printable characters there. Not the parser's own message, nor the
     * parser's exception as the cause: they quote the text (up to hundreds of characters), and the bytes
     * may be anything, not metadata.
     */
    public static JsonNode parse(String dataset, String key, byte[] bytes) throws MetadataException {
        JsonNode n;
        try {
            n = MAPPER.readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new MetadataException(dataset, key, "malformed JSON: " + describe(e, bytes));
        } catch (IOException e) {
            throw new MetadataException(
                    dataset,
                    key,
                    "malformed JSON: unreadable text (" + e.getClass().getSimpleName() + ")");
        }
        if (n == null || n.isMissingNode()) {
            throw new MetadataException(dataset, key, "malformed JSON: the object is empty (no JSON value)");
        }
        return n;
    }

    /** What is wrong and where: "syntax error at line 1, column 6, near '{"a": tru}'". */
    static String describe(JsonProcessingException e, byte[] bytes) {
        JsonLocation at = e.getLocation();
        long offset = at == null ? -1 : at.getByteOffset() >= 0 ? at.getByteOffset() : at.getCharOffset();
        StringBuilder b = new StringBuilder(what(e, offset >= bytes.length));
        if (at != null && at.getLineNr() > 0) {
            b.append(" at line ").append(at.getLineNr()).append(", column ").append(at.getColumnNr());
        }
        if (offset >= 0) {
            b.append(", near '").append(excerpt(bytes, offset)).append('\'');
        }
        return b.toString();
    }

    /** The kind of failure, from the exception type and position: never from its message, which quotes the text. */
    private static String what(JsonProcessingException e, boolean atTheEnd) {
        if (e instanceof JsonEOFException || atTheEnd) {
            return "unexpected end of input";
        }
        if (e instanceof StreamConstraintsException) {
            return "exceeds the parser's limits (nesting depth, number or text length)";
        }
        if (e instanceof InputCoercionException) {
            return "number out of range";
        }
        String original = e.getOriginalMessage();
        if (original != null && original.startsWith("Invalid UTF-8")) {
            return "not valid UTF-8 text"; // the classification only: the parser's message quotes the bytes
        }
        return "syntax error";
    }

    /**
     * At most {@value #EXCERPT_CHARS} bytes around the error (the parser points at the start of what it
     * could not read): half before, the rest from there on. Printable ASCII is kept, anything else shown
     * as {@code ?}.
     */
    static String excerpt(byte[] bytes, long offset) {
        int at = (int) Math.min(bytes.length, Math.max(0, offset));
        int start = Math.max(0, at - EXCERPT_CHARS / 2);
        int end = Math.min(bytes.length, start + EXCERPT_CHARS);
        StringBuilder b = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            int c = bytes[i] & 0xff;
            b.append(c >= 0x20 && c < 0x7f && c != '\'' ? (char) c : '?');
        }
        return b.toString();
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
