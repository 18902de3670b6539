package io.nczarr.meta;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

    /**
     * The parser settings of every metadata object. Trees are built from the streaming parser directly
     * (as {@code ObjectMapper.readTree} builds them: int, long or big-integer nodes by size, doubles, NaN
     * tokens as doubles, the last of duplicate keys): an {@code ObjectMapper} costs 200-300 ms of class
     * loading and set-up on the first open in a process, the parser alone a third of that.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(MAX_NESTING_DEPTH)
                    .build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

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
            n = readTree(bytes);
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

    /** The first JSON value of {@code bytes} as a tree; {@code null} when there is none. */
    static JsonNode readTree(byte[] bytes) throws IOException {
        try (JsonParser p = FACTORY.createParser(bytes)) {
            JsonToken t = p.nextToken();
            return t == null ? null : value(p, t);
        }
    }

    /** The value starting at token {@code t}; nesting is bounded by the parser's constraints. */
    private static JsonNode value(JsonParser p, JsonToken t) throws IOException {
        switch (t) {
            case START_OBJECT: {
                ObjectNode o = NODES.objectNode();
                for (JsonToken k = p.nextToken(); k == JsonToken.FIELD_NAME; k = p.nextToken()) {
                    String name = p.currentName();
                    o.set(name, value(p, p.nextToken()));
                }
                return o;
            }
            case START_ARRAY: {
                ArrayNode a = NODES.arrayNode();
                for (JsonToken e = p.nextToken(); e != JsonToken.END_ARRAY; e = p.nextToken()) {
                    a.add(value(p, e));
                }
                return a;
            }
            case VALUE_STRING:
                return NODES.textNode(p.getText());
            case VALUE_NUMBER_INT:
                switch (p.getNumberType()) {
                    case INT:
                        return NODES.numberNode(p.getIntValue());
                    case LONG:
                        return NODES.numberNode(p.getLongValue());
                    default:
                        return NODES.numberNode(p.getBigIntegerValue());
                }
            case VALUE_NUMBER_FLOAT:
                return NODES.numberNode(p.getDoubleValue());
            case VALUE_TRUE:
                return NODES.booleanNode(true);
            case VALUE_FALSE:
                return NODES.booleanNode(false);
            case VALUE_NULL:
                return NODES.nullNode();
            default:
                throw new JsonParseException(p, "unexpected token " + t);
        }
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
