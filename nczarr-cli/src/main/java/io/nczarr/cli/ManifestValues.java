package io.nczarr.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;

/** The values side of a manifest (SCHEMA.md): numbers as JSON, and a variable's data digest, count, range and head. */
final class ManifestValues {
    private ManifestValues() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final int HEAD = 8;

    /** A value as a manifest number: exact integers (unsigned as such), floats widened exactly. */
    static JsonNode number(Object v, DataType t, boolean unsigned) {
        switch (t) {
            case FLOAT:
                return finite(((Number) v).floatValue());
            case DOUBLE:
                return finite(((Number) v).doubleValue());
            case LONG: {
                long x = ((Number) v).longValue();
                return unsigned && x < 0 ? F.numberNode(new BigInteger(Long.toUnsignedString(x))) : F.numberNode(x);
            }
            default: {
                long x = ((Number) v).longValue();
                if (unsigned) {
                    x &= (1L << (8 * t.getSize())) - 1;
                }
                return F.numberNode(x);
            }
        }
    }

    private static JsonNode finite(double d) {
        if (Double.isNaN(d)) {
            return F.textNode("NaN");
        }
        if (Double.isInfinite(d)) {
            return F.textNode(d > 0 ? "Infinity" : "-Infinity");
        }
        return F.numberNode(d);
    }

    /** sha256 of the canonical big-endian serialization, count, min/max/sum, head. */
    static ObjectNode data(Array a, DataType t, boolean unsigned) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        ObjectNode out = F.objectNode();
        ArrayNode head = F.arrayNode();
        long count = 0;
        boolean numeric = t.isNumeric();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        boolean nan = false;
        ByteBuffer buf = ByteBuffer.allocate(8);
        IndexIterator it = a.getIndexIterator();
        while (it.hasNext()) {
            buf.clear();
            double dv = 0;
            switch (t) {
                case CHAR: {
                    byte b = (byte) it.getCharNext();
                    sha.update(b);
                    if (head.size() < HEAD) {
                        head.add(b & 0xff);
                    }
                    break;
                }
                case STRING: {
                    String s = String.valueOf(it.getObjectNext());
                    sha.update(s.getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                    if (head.size() < HEAD) {
                        head.add(s);
                    }
                    break;
                }
                case FLOAT: {
                    float f = it.getFloatNext();
                    buf.putInt(Float.isNaN(f) ? 0x7fc00000 : Float.floatToRawIntBits(f));
                    dv = f;
                    break;
                }
                case DOUBLE: {
                    double d = it.getDoubleNext();
                    buf.putLong(Double.isNaN(d) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(d));
                    dv = d;
                    break;
                }
                case BYTE: {
                    byte b = it.getByteNext();
                    buf.put(b);
                    dv = unsigned ? b & 0xff : b;
                    break;
                }
                case SHORT: {
                    short s = it.getShortNext();
                    buf.putShort(s);
                    dv = unsigned ? s & 0xffff : s;
                    break;
                }
                case INT: {
                    int i = it.getIntNext();
                    buf.putInt(i);
                    dv = unsigned ? i & 0xffffffffL : i;
                    break;
                }
                case LONG: {
                    long l = it.getLongNext();
                    buf.putLong(l);
                    dv = unsigned && l < 0 ? new BigInteger(Long.toUnsignedString(l)).doubleValue() : l;
                    break;
                }
                case OPAQUE: {
                    // opaque (vlen-bytes), a rule SCHEMA.md does not have yet: each element as its
                    // length (4 bytes, big-endian) and its bytes; no head
                    ByteBuffer o = ((ByteBuffer) it.getObjectNext()).duplicate();
                    byte[] bytes = new byte[o.remaining()];
                    o.get(bytes);
                    sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
                    sha.update(bytes);
                    break;
                }
                default:
                    throw new IllegalArgumentException("unsupported type " + t);
            }
            if (numeric) {
                sha.update(buf.array(), 0, buf.position());
                if (Double.isNaN(dv)) {
                    nan = true;
                }
                min = Math.min(min, dv);
                max = Math.max(max, dv);
                sum += dv;
                if (head.size() < HEAD) {
                    head.add(headNumber(buf, t, unsigned, dv));
                }
            }
            count++;
        }
        out.put("sha256", HexFormat.of().formatHex(sha.digest()));
        out.put("count", count);
        if (numeric) {
            if (count == 0) {
                out.putNull("min");
                out.putNull("max");
                out.put("sum", 0.0);
            } else if (nan) {
                out.put("min", "NaN");
                out.put("max", "NaN");
                out.put("sum", "NaN");
            } else {
                out.set("min", finite(min));
                out.set("max", finite(max));
                out.set("sum", finite(sum));
            }
        }
        out.set("head", head);
        return out;
    }

    private static JsonNode headNumber(ByteBuffer buf, DataType t, boolean unsigned, double dv) {
        switch (t) {
            case FLOAT:
            case DOUBLE:
                return finite(dv);
            case LONG: {
                long l = buf.getLong(0);
                return unsigned && l < 0 ? F.numberNode(new BigInteger(Long.toUnsignedString(l))) : F.numberNode(l);
            }
            default:
                return F.numberNode((long) dv);
        }
    }
}
