package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.math.BigInteger;
import java.util.Locale;

/**
 * Zarr v3 {@code fill_value}s: numbers, booleans, {@code "NaN"}, {@code "Infinity"},
 * {@code "-Infinity"} and hex bit patterns ({@code "0x7fc00000"}), as one element's bytes.
 */
public final class V3Fill {
    private V3Fill() {}

    /** Whether {@code v} is a hex bit pattern such as {@code "0x3ff8000000000000"}. */
    public static boolean isHex(JsonNode v) {
        return v != null
                && v.isTextual()
                && v.textValue().toLowerCase(Locale.ROOT).startsWith("0x");
    }

    /** The raw bits of a hex fill value for a type of {@code itemSize} bytes. */
    public static long hexBits(String text, int itemSize) throws CodecException {
        String digits = text.substring(2);
        if (digits.isEmpty() || digits.length() > 2 * itemSize || !digits.matches("[0-9a-fA-F]+")) {
            throw new CodecException("fill_value '" + text + "' is not a " + itemSize + "-byte hex bit pattern");
        }
        return new BigInteger(digits, 16).longValue();
    }

    /** A float fill value (number, special spelling or hex bits) of a float dtype. */
    public static double floatValue(JsonNode v, NumpyDtype dtype) throws CodecException {
        if (isHex(v)) {
            long bits = hexBits(v.textValue(), dtype.itemsize());
            switch (dtype.itemsize()) {
                case 2:
                    return HalfFloat.toFloat((int) bits);
                case 4:
                    return Float.intBitsToFloat((int) bits);
                default:
                    return Double.longBitsToDouble(bits);
            }
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        if (v.isTextual()) {
            switch (v.textValue()) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    break;
            }
        }
        throw new CodecException("fill_value " + v + " is not a valid " + dtype.str() + " value");
    }

    /** One element of {@code dtype} (little endian) holding the fill value; zeros for JSON null. */
    public static byte[] elementBytes(JsonNode v, NumpyDtype dtype) throws CodecException {
        int size = dtype.itemsize();
        byte[] out = new byte[size];
        if (v == null || v.isNull()) {
            return out;
        }
        if (v.isBinary()) {
            // a record's or raw bytes' fill, already decoded by the metadata reader
            byte[] b;
            try {
                b = v.binaryValue();
            } catch (java.io.IOException e) {
                b = null;
            }
            if (b == null || b.length != size) {
                throw new CodecException("fill_value of " + (b == null ? 0 : b.length) + " bytes for " + dtype.str());
            }
            return b.clone();
        }
        long bits;
        if (isHex(v)) {
            bits = hexBits(v.textValue(), size);
        } else if (dtype.kind() == 'f') {
            double d = floatValue(v, dtype);
            bits = size == 2
                    ? HalfFloat.fromDouble(d)
                    : size == 4 ? Float.floatToRawIntBits((float) d) : Double.doubleToRawLongBits(d);
        } else if (v.isBoolean()) {
            bits = v.booleanValue() ? 1 : 0;
        } else if (v.isIntegralNumber()) {
            bits = v.bigIntegerValue().longValue();
        } else {
            throw new CodecException("fill_value " + v + " is not a valid " + dtype.str() + " value");
        }
        for (int i = 0; i < size; i++) {
            out[i] = (byte) (bits >>> (8 * i));
        }
        return out;
    }
}
