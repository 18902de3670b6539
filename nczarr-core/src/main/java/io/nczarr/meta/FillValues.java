package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** What a missing chunk reads as, and the typed {@code _FillValue} attribute. */
final class FillValues {
    private FillValues() {}

    /**
     * Parses a Zarr {@code fill_value} for an element type: a boxed value of the variable's type,
     * a String for string variables, or {@code null} for JSON null / absent (zeros).
     *
     * @throws IllegalArgumentException with a message naming the value and dtype
     */
    static Object parse(JsonNode fv, ElementType et, NumpyDtype dtype) {
        if (fv == null || fv.isNull()) {
            return null;
        }
        NcType t = et.ncType();
        try {
            if (t.isNumeric()) {
                if (fv.isTextual() && JsonValues.specialFloat(fv.textValue()) != null && !t.isFloatingPoint()) {
                    throw new IllegalArgumentException("not finite");
                }
                return JsonValues.scalar(t, fv);
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("fill_value " + fv + " is not a valid " + dtype + " fill value");
        }
        if (t == NcType.CHAR) {
            if (fv.isTextual()) {
                byte[] b = fv.textValue().getBytes(StandardCharsets.UTF_8);
                return b.length == 0 ? (byte) 0 : b[0];
            }
            if (fv.isIntegralNumber()) {
                return (byte) fv.intValue();
            }
            throw new IllegalArgumentException("fill_value " + fv + " is not a valid " + dtype + " fill value");
        }
        // strings
        if (!fv.isTextual()) {
            return "";
        }
        String s = fv.textValue();
        if (et.layout() == ElementType.Layout.FIXED_BYTES) {
            // zarr-python writes bytes fill values base64-encoded
            try {
                byte[] b = Base64.getDecoder().decode(s);
                int n = 0;
                while (n < b.length && b[n] != 0) {
                    n++;
                }
                return new String(b, 0, n, StandardCharsets.UTF_8);
            } catch (IllegalArgumentException notBase64) {
                return s;
            }
        }
        return s;
    }

    /**
     * A {@code _FillValue} written as base64 of little-endian bytes (VirtualiZarr's v2 {@code .zattrs},
     * xarray's v3 attribute): 8 bytes on a float array are a float64, 4 a float32; on
     * an integer array 1, 2, 4 or 8 bytes are an integer of the array's signedness. The value is
     * then converted to the variable's type.
     *
     * @throws IllegalArgumentException when the text is not base64 or the byte count fits no rule
     */
    static Object base64Value(String text, NcType t) {
        byte[] b;
        try {
            b = Base64.getDecoder().decode(text.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "'" + (text.length() > 40 ? text.substring(0, 40) + "..." : text) + "' is not base64");
        }
        ByteBuffer bb = ByteBuffer.wrap(b).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        if (t.isFloatingPoint()) {
            double d;
            switch (b.length) {
                case 8 -> d = bb.getDouble();
                case 4 -> d = bb.getFloat();
                default ->
                    throw new IllegalArgumentException(
                            "base64 of " + b.length + " bytes is not a float32 or float64 value");
            }
            return t == NcType.FLOAT ? (Object) (float) d : (Object) d;
        }
        long bits;
        switch (b.length) {
            case 1 -> bits = t.isUnsigned() ? b[0] & 0xFFL : b[0];
            case 2 -> bits = t.isUnsigned() ? bb.getShort() & 0xFFFFL : bb.getShort();
            case 4 -> bits = t.isUnsigned() ? bb.getInt() & 0xFFFFFFFFL : bb.getInt();
            case 8 -> bits = bb.getLong();
            default ->
                throw new IllegalArgumentException(
                        "base64 of " + b.length + " bytes is not an integer of 1, 2, 4 or 8 bytes");
        }
        com.fasterxml.jackson.databind.JsonNode n = t == NcType.UINT64 && bits < 0
                ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(
                        new java.math.BigInteger(Long.toUnsignedString(bits)))
                : com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(bits);
        return JsonValues.scalar(t, n);
    }

    /** A one-element {@code _FillValue} attribute value converted to the variable's type. */
    static Object attributeValue(JsonNode v, NcType t) {
        JsonNode one = v.isArray() && v.size() == 1 ? v.get(0) : v;
        if (t.isNumeric()) {
            return JsonValues.scalar(t, one);
        }
        if (t == NcType.CHAR) {
            if (one.isTextual()) {
                byte[] b = one.textValue().getBytes(StandardCharsets.UTF_8);
                return b.length == 0 ? (byte) 0 : b[0];
            }
            return (byte) JsonValues.toIntegerBits(one, NcType.BYTE);
        }
        return one.asText();
    }

    /**
     * The fill of a record type as one packed record ({@code null} = zeros), as zarr-python 2 and 3
     * encode and require it: a complex fill is {@code [real, imag]} (numbers, {@code "NaN"},
     * {@code "Infinity"}, {@code "-Infinity"}, or in v3 hex bit patterns), a structured fill is
     * base64 of the packed record. Anything else (a lone number such as {@code 0}) is refused as
     * zarr-python refuses it.
     *
     * @param dtype the dtype as written, for messages
     * @throws IllegalArgumentException naming the value and the dtype
     */
    static byte[] record(JsonNode fv, CompoundType type, String dtype) {
        if (fv == null || fv.isNull()) {
            return null;
        }
        boolean complex = type.members().size() == 2
                && type.members().get(0).name().equals("real")
                && type.members().get(1).name().equals("imag")
                && type.members().get(0).type() != null
                && type.members().get(0).type().kind() == 'f';
        if (complex) {
            if (!fv.isArray() || fv.size() != 2) {
                throw new IllegalArgumentException("fill_value " + excerpt(fv) + " is not a valid fill value of dtype '"
                        + dtype + "' ([real, imag] expected)");
            }
            NumpyDtype part = type.members().get(0).type();
            ByteBuffer b = ByteBuffer.allocate(type.itemsize()).order(part.order());
            try {
                putFloat(b, part.itemsize(), fv.get(0));
                putFloat(b, part.itemsize(), fv.get(1));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("fill_value " + excerpt(fv) + " is not a valid fill value of dtype '"
                        + dtype + "' ([real, imag] expected)");
            }
            return b.array();
        }
        if (fv.isTextual()) {
            byte[] b;
            try {
                b = Base64.getDecoder().decode(fv.textValue());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "fill_value " + excerpt(fv) + " is not base64 of one record of the" + " structured dtype");
            }
            if (b.length != type.itemsize()) {
                throw new IllegalArgumentException("fill_value " + excerpt(fv) + " holds " + b.length + " bytes, one"
                        + " record of the structured dtype has " + type.itemsize());
            }
            return b;
        }
        throw new IllegalArgumentException(
                "fill_value " + excerpt(fv) + " is not base64 of one record of the structured" + " dtype");
    }

    private static void putFloat(ByteBuffer b, int size, JsonNode v) {
        if (v.isTextual() && v.textValue().startsWith("0x")) {
            long bits = Long.parseUnsignedLong(v.textValue().substring(2), 16);
            if (size == 4) {
                b.putInt((int) bits);
            } else {
                b.putLong(bits);
            }
            return;
        }
        double d = JsonValues.toDouble(v);
        if (size == 4) {
            b.putFloat((float) d);
        } else {
            b.putDouble(d);
        }
    }

    private static String excerpt(JsonNode n) {
        String s = n.toString();
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
