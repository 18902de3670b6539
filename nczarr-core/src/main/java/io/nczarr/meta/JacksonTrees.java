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
import java.io.IOException;

/** {@link Json}'s trees and error messages from Jackson's streaming parser. */
final class JacksonTrees {
    private JacksonTrees() {}

    /**
     * The parser settings of every metadata object. Trees are built from the streaming parser directly
     * (as {@code ObjectMapper.readTree} builds them: int, long or big-integer nodes by size, doubles, NaN
     * tokens as doubles, the last of duplicate keys): an {@code ObjectMapper} costs 200-300 ms of class
     * loading and set-up on the first open in a process, the parser alone a third of that.
     */
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxNestingDepth(Json.MAX_NESTING_DEPTH)
                    .build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    /** {@link Json#parse}'s Jackson half: the tree or {@code null}, malformed text a {@link MetadataException}. */
    static JsonNode parse(String dataset, String key, byte[] bytes) throws MetadataException {
        try {
            return readTree(bytes);
        } catch (JsonProcessingException e) {
            throw new MetadataException(dataset, key, "malformed JSON: " + describe(e, bytes));
        } catch (IOException e) {
            throw new MetadataException(
                    dataset,
                    key,
                    "malformed JSON: unreadable text (" + e.getClass().getSimpleName() + ")");
        }
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
     * At most {@value Json#EXCERPT_CHARS} bytes around the error (the parser points at the start of what it
     * could not read): half before, the rest from there on. Printable ASCII is kept, anything else shown
     * as {@code ?}.
     */
    static String excerpt(byte[] bytes, long offset) {
        int at = (int) Math.min(bytes.length, Math.max(0, offset));
        int start = Math.max(0, at - Json.EXCERPT_CHARS / 2);
        int end = Math.min(bytes.length, start + Json.EXCERPT_CHARS);
        StringBuilder b = new StringBuilder(end - start);
        for (int i = start; i < end; i++) {
            int c = bytes[i] & 0xff;
            b.append(c >= 0x20 && c < 0x7f && c != '\'' ? (char) c : '?');
        }
        return b.toString();
    }
}
