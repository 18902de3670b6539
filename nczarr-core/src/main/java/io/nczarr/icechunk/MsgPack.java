package io.nczarr.icechunk;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The MessagePack values of spec-1 commit metadata (icechunk 1.x serialises each property's JSON value with
 * rmp-serde) as JSON text, bounds-checked: every length is checked against the bytes left, nesting is at most
 * {@value #MAX_DEPTH} deep, and anything malformed (a truncated value, an extension type, bytes left over,
 * invalid UTF-8) is an {@link IllegalArgumentException} saying what. Binary values become base64 strings.
 */
final class MsgPack {
    static final int MAX_DEPTH = 64;
    private static final JsonNodeFactory F = JsonNodeFactory.instance;

    private final ByteBuffer in;

    private MsgPack(byte[] b) {
        this.in = ByteBuffer.wrap(b);
    }

    /** One whole MessagePack value as compact JSON text. */
    static String toJson(byte[] value) {
        MsgPack p = new MsgPack(value);
        JsonNode n = p.value(0);
        if (p.in.hasRemaining()) {
            throw new IllegalArgumentException(p.in.remaining() + " bytes after the MessagePack value");
        }
        return n.toString();
    }

    private JsonNode value(int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException("MessagePack value nested more than " + MAX_DEPTH + " deep");
        }
        int t = u8();
        if (t <= 0x7f) {
            return F.numberNode(t);
        }
        if (t >= 0xe0) {
            return F.numberNode((byte) t);
        }
        if (t <= 0x8f) { // 0x80..0x8f
            return map(t & 0x0f, depth);
        }
        if (t <= 0x9f) { // 0x90..0x9f
            return array(t & 0x0f, depth);
        }
        if (t <= 0xbf) { // 0xa0..0xbf
            return F.textNode(str(t & 0x1f));
        }
        switch (t) {
            case 0xc0:
                return F.nullNode();
            case 0xc2:
                return F.booleanNode(false);
            case 0xc3:
                return F.booleanNode(true);
            case 0xc4:
                return F.textNode(Base64.getEncoder().encodeToString(bytes(u8())));
            case 0xc5:
                return F.textNode(Base64.getEncoder().encodeToString(bytes(u16())));
            case 0xc6:
                return F.textNode(Base64.getEncoder().encodeToString(bytes(u32())));
            case 0xca:
                need(4);
                return F.numberNode(in.getFloat());
            case 0xcb:
                need(8);
                return F.numberNode(in.getDouble());
            case 0xcc:
                return F.numberNode(u8());
            case 0xcd:
                return F.numberNode(u16());
            case 0xce:
                return F.numberNode(u32());
            case 0xcf: {
                need(8);
                long v = in.getLong();
                return v >= 0 ? F.numberNode(v) : F.numberNode(new BigInteger(Long.toUnsignedString(v)));
            }
            case 0xd0:
                need(1);
                return F.numberNode(in.get());
            case 0xd1:
                need(2);
                return F.numberNode(in.getShort());
            case 0xd2:
                need(4);
                return F.numberNode(in.getInt());
            case 0xd3:
                need(8);
                return F.numberNode(in.getLong());
            case 0xd9:
                return F.textNode(str(u8()));
            case 0xda:
                return F.textNode(str(u16()));
            case 0xdb:
                return F.textNode(str(u32()));
            case 0xdc:
                return array(u16(), depth);
            case 0xdd:
                return array(u32(), depth);
            case 0xde:
                return map(u16(), depth);
            case 0xdf:
                return map(u32(), depth);
            default:
                throw new IllegalArgumentException(String.format(
                        "MessagePack type 0x%02x (an extension or reserved type) at byte %d", t, in.position() - 1));
        }
    }

    private ArrayNode array(long n, int depth) {
        need(n); // each element takes at least one byte
        ArrayNode a = F.arrayNode();
        for (long i = 0; i < n; i++) {
            a.add(value(depth + 1));
        }
        return a;
    }

    private ObjectNode map(long n, int depth) {
        need(2 * n);
        ObjectNode o = F.objectNode();
        for (long i = 0; i < n; i++) {
            JsonNode k = value(depth + 1);
            o.set(k.isTextual() ? k.textValue() : k.toString(), value(depth + 1));
        }
        return o;
    }

    private String str(long n) {
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes(n)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("a MessagePack string is not UTF-8");
        }
    }

    private byte[] bytes(long n) {
        need(n);
        byte[] b = new byte[(int) n];
        in.get(b);
        return b;
    }

    private void need(long n) {
        if (n > in.remaining()) {
            throw new IllegalArgumentException("truncated MessagePack value: " + n + " bytes needed at byte "
                    + in.position() + ", " + in.remaining() + " left");
        }
    }

    private int u8() {
        need(1);
        return in.get() & 0xff;
    }

    private int u16() {
        need(2);
        return in.getShort() & 0xffff;
    }

    private long u32() {
        need(4);
        return in.getInt() & 0xffffffffL;
    }
}
