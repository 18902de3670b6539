package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
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
}
