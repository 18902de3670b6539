package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * The tree of a plain metadata document without Jackson's parser: Jackson's {@code JsonFactory} and
 * parsers are ~60 classes (every parser and generator variant, symbol tables, recyclers) whose loading
 * cost 35-80 ms of CPU at the first open in a process, more than parsing all of a dataset's metadata.
 *
 * <p>It accepts only a strict subset of what {@link Json}'s Jackson parser accepts and gives the same
 * tree for it (node types included: int, long or big-integer nodes by size, doubles, bare {@code NaN},
 * {@code Infinity} and {@code -Infinity} as doubles, the last of duplicate keys, trailing text after the
 * first value ignored). Anything else — a root that is not an object or an array, a byte-order mark,
 * escapes or bytes it does not know, leading zeros or plus signs, deep nesting, long numbers or strings,
 * any syntax error — makes it give up ({@code null}), and the caller parses with Jackson, whose trees
 * and error messages are therefore unchanged.
 */
final class JsonFastTree {
    /** Deeper documents go to Jackson (which enforces {@link Json#MAX_NESTING_DEPTH}). */
    private static final int MAX_DEPTH = 200;
    /** Longer numbers go to Jackson (its limit is 1000 characters). */
    private static final int MAX_NUMBER_CHARS = 64;
    /** Longer strings go to Jackson (its limits: 20,000,000 characters of a value, 50,000 of a name). */
    private static final int MAX_STRING_BYTES = 1 << 20;
    /** Longer names go to Jackson. */
    private static final int MAX_NAME_BYTES = 1 << 15;

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final byte[] b;
    private int i;

    private JsonFastTree(byte[] b) {
        this.b = b;
    }

    /** The tree of {@code bytes}, or {@code null} when Jackson has to decide. */
    static JsonNode tryParse(byte[] bytes) {
        JsonFastTree p = new JsonFastTree(bytes);
        p.skipSpace();
        if (p.i >= bytes.length || (bytes[p.i] != '{' && bytes[p.i] != '[')) {
            return null;
        }
        return p.value(0);
    }

    private void skipSpace() {
        while (i < b.length) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return;
            }
            i++;
        }
    }

    /** The value at {@code i} (after white space), or {@code null} to give up. */
    private JsonNode value(int depth) {
        skipSpace();
        if (i >= b.length) {
            return null;
        }
        switch (b[i]) {
            case '{':
                return depth >= MAX_DEPTH ? null : object(depth + 1);
            case '[':
                return depth >= MAX_DEPTH ? null : array(depth + 1);
            case '"': {
                String s = string();
                return s == null ? null : NODES.textNode(s);
            }
            case 't':
                return literal("true") ? NODES.booleanNode(true) : null;
            case 'f':
                return literal("false") ? NODES.booleanNode(false) : null;
            case 'n':
                return literal("null") ? NODES.nullNode() : null;
            case 'N':
                return literal("NaN") ? NODES.numberNode(Double.NaN) : null;
            case 'I':
                return literal("Infinity") ? NODES.numberNode(Double.POSITIVE_INFINITY) : null;
            default:
                return number();
        }
    }

    private JsonNode object(int depth) {
        ObjectNode o = NODES.objectNode();
        i++; // '{'
        skipSpace();
        if (i < b.length && b[i] == '}') {
            i++;
            return o;
        }
        while (true) {
            skipSpace();
            if (i >= b.length || b[i] != '"') {
                return null;
            }
            int at = i;
            String name = string();
            if (name == null || i - at > MAX_NAME_BYTES) {
                return null;
            }
            skipSpace();
            if (i >= b.length || b[i] != ':') {
                return null;
            }
            i++;
            JsonNode v = value(depth);
            if (v == null) {
                return null;
            }
            o.set(name, v);
            skipSpace();
            if (i >= b.length) {
                return null;
            }
            byte c = b[i++];
            if (c == '}') {
                return o;
            }
            if (c != ',') {
                return null;
            }
        }
    }

    private JsonNode array(int depth) {
        ArrayNode a = NODES.arrayNode();
        i++; // '['
        skipSpace();
        if (i < b.length && b[i] == ']') {
            i++;
            return a;
        }
        while (true) {
            JsonNode v = value(depth);
            if (v == null) {
                return null;
            }
            a.add(v);
            skipSpace();
            if (i >= b.length) {
                return null;
            }
            byte c = b[i++];
            if (c == ']') {
                return a;
            }
            if (c != ',') {
                return null;
            }
        }
    }

    /** {@code word} at {@code i}, followed by a delimiter this parser knows. */
    private boolean literal(String word) {
        int n = word.length();
        if (i + n > b.length) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (b[i + k] != word.charAt(k)) {
                return false;
            }
        }
        i += n;
        return delimiterFollows();
    }

    private boolean delimiterFollows() {
        if (i >= b.length) {
            return false;
        }
        byte c = b[i];
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t';
    }

    /** A string at {@code i} (the opening quote): plain UTF-8 and the JSON escapes; {@code null} to give up. */
    private String string() {
        int start = ++i;
        boolean plain = true;
        while (true) {
            if (i >= b.length || i - start > MAX_STRING_BYTES) {
                return null;
            }
            int c = b[i] & 0xff;
            if (c == '"') {
                break;
            }
            if (c < 0x20) {
                return null;
            }
            if (c == '\\' || c >= 0x80) {
                plain = false;
                if (c == '\\') {
                    i++; // never ends the string: the escaped character is checked below
                }
            }
            i++;
        }
        int end = i++;
        return plain ? new String(b, start, end - start, StandardCharsets.ISO_8859_1) : decode(start, end);
    }

    /** Escapes and UTF-8 of {@code b[start, end)}; {@code null} for anything but the JSON escapes and valid UTF-8. */
    private String decode(int start, int end) {
        StringBuilder s = new StringBuilder(end - start);
        int run = start;
        for (int k = start; k < end; k++) {
            if (b[k] != '\\') {
                continue;
            }
            if (!utf8(s, run, k)) {
                return null;
            }
            k++;
            switch (b[k]) {
                case '"':
                case '\\':
                case '/':
                    s.append((char) b[k]);
                    break;
                case 'b':
                    s.append('\b');
                    break;
                case 'f':
                    s.append('\f');
                    break;
                case 'n':
                    s.append('\n');
                    break;
                case 'r':
                    s.append('\r');
                    break;
                case 't':
                    s.append('\t');
                    break;
                case 'u': {
                    if (k + 4 >= end) {
                        return null;
                    }
                    int v = 0;
                    for (int h = 1; h <= 4; h++) {
                        int d = Character.digit(b[k + h], 16);
                        if (d < 0) {
                            return null;
                        }
                        v = (v << 4) | d;
                    }
                    s.append((char) v); // Jackson keeps unpaired surrogates as they are, so does this
                    k += 4;
                    break;
                }
                default:
                    return null;
            }
            run = k + 1;
        }
        return utf8(s, run, end) ? s.toString() : null;
    }

    /** Appends {@code b[from, to)} decoded as strict UTF-8; {@code false} when it is not valid. */
    private boolean utf8(StringBuilder s, int from, int to) {
        if (from == to) {
            return true;
        }
        try {
            s.append(StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(b, from, to - from)));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    /**
     * A number as Jackson reads it: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?} and
     * {@code -Infinity}; an integer is an int, long or big-integer node by its value, anything with a
     * fraction or exponent a double.
     */
    private JsonNode number() {
        int start = i;
        if (b[i] == '-') {
            i++;
            if (i < b.length && b[i] == 'I') {
                return literal("Infinity") ? NODES.numberNode(Double.NEGATIVE_INFINITY) : null;
            }
        }
        int intStart = i;
        int digits = digits();
        if (digits == 0 || (digits > 1 && b[intStart] == '0')) {
            return null;
        }
        boolean integral = true;
        if (i < b.length && b[i] == '.') {
            i++;
            if (digits() == 0) {
                return null;
            }
            integral = false;
        }
        if (i < b.length && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < b.length && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            if (digits() == 0) {
                return null;
            }
            integral = false;
        }
        if (i - start > MAX_NUMBER_CHARS || !delimiterFollows()) {
            return null;
        }
        String text = new String(b, start, i - start, StandardCharsets.ISO_8859_1);
        if (!integral) {
            return NODES.numberNode(Double.parseDouble(text));
        }
        if (digits <= 18) {
            long v = Long.parseLong(text);
            return v == (int) v ? NODES.numberNode((int) v) : NODES.numberNode(v);
        }
        BigInteger v = new BigInteger(text);
        return v.bitLength() <= 63 ? NODES.numberNode(v.longValue()) : NODES.numberNode(v);
    }

    private int digits() {
        int from = i;
        while (i < b.length && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i - from;
    }
}
