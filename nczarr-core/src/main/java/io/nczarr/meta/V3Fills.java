package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.codec.V3Fill;
import io.nczarr.error.CodecException;
import io.nczarr.error.MetadataException;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;

/**
 * Zarr v3 fill rules (SCHEMA.md, changed 2026-11-25): the {@code fill_value} is what never-written
 * chunks read as and marks nothing missing; {@code _FillValue} comes only from the attribute
 * (xarray writes it there when it means one, base64 included), except a {@code NaT} fill of a
 * datetime64/timedelta64 array, which is its {@code _FillValue} (NumPy's missing time).
 */
final class V3Fills {
    private V3Fills() {}

    /**
     * The {@code _FillValue} of a pure Zarr v3 array, or {@code null}.
     *
     * @param fill what missing chunks read as ({@link #fill})
     */
    static Attr pureAttribute(
            String dataset, String nodeKey, ObjectNode attrs, Object fill, V3DataTypes.Mapping types, ElementType et)
            throws MetadataException {
        if (!et.ncType().isNumeric() || et.layout() == ElementType.Layout.RECORD) {
            return null;
        }
        JsonNode explicit = attrs == null ? null : attrs.get("_FillValue");
        if (explicit != null && !explicit.isNull()) {
            return attribute(dataset, nodeKey, explicit, et.ncType());
        }
        if (types.time() != null && fill instanceof Long l && l == TimeUnits.NAT) {
            return new Attr("_FillValue", et.ncType(), new long[] {TimeUnits.NAT});
        }
        return null;
    }

    /** The {@code _FillValue} attribute: xarray's base64 (little-endian bytes) or a plain value. */
    static Attr attribute(String dataset, String nodeKey, JsonNode raw, NcType type) throws MetadataException {
        return VariableBuilder.fillAttribute(dataset, nodeKey, raw, type);
    }

    /**
     * The fill of raw bytes: zarr-extensions {@code r<N>} writes a list of byte values, zarr-python's {@code
     * raw_bytes} base64 of the bytes; none means zeros.
     */
    static byte[] rawFill(String dataset, String nodeKey, JsonNode fv, int length) throws MetadataException {
        byte[] b = new byte[length];
        if (fv == null || fv.isNull()) {
            return b;
        }
        boolean ok;
        if (fv.isArray()) {
            ok = fv.size() == length;
            for (int i = 0; ok && i < length; i++) {
                JsonNode v = fv.get(i);
                ok = v.isIntegralNumber() && v.canConvertToInt() && v.intValue() >= 0 && v.intValue() <= 255;
                b[i] = ok ? (byte) v.intValue() : 0;
            }
        } else if (fv.isTextual()) {
            byte[] d;
            try {
                d = java.util.Base64.getDecoder().decode(fv.textValue());
            } catch (IllegalArgumentException e) {
                d = null;
            }
            ok = d != null && d.length == length;
            b = ok ? d : b;
        } else {
            ok = fv.isIntegralNumber() && fv.asLong() == 0;
        }
        if (!ok) {
            throw new MetadataException(
                    dataset,
                    nodeKey,
                    "fill_value " + fv + " is not " + length + " raw bytes (a list of byte values" + " or base64)");
        }
        return b;
    }

    static Object charFill(JsonNode fv) {
        return fv != null && fv.isIntegralNumber() ? (Object) (byte) fv.intValue() : null;
    }

    /** What missing chunks read as: a boxed value of the variable's type, a string, or {@code null}. */
    static Object fill(String dataset, String nodeKey, JsonNode fv, V3DataTypes.Mapping types, ElementType et)
            throws MetadataException {
        if (types.time() != null
                && (fv == null
                        || fv.isNull()
                        || fv.isTextual() && fv.textValue().equals("NaT"))) {
            return TimeUnits.NAT;
        }
        if (et.layout() == ElementType.Layout.FIXED_OPAQUE) {
            return rawFill(dataset, nodeKey, fv, et.itemSize());
        }
        if (fv == null || fv.isNull()) {
            return null;
        }
        NcType t = et.ncType();
        try {
            if (et.layout() == ElementType.Layout.VLEN_BYTES) {
                return null; // missing chunks read as empty byte strings
            }
            if (et.layout() == ElementType.Layout.RECORD && types.compound() != null) {
                return V3Structs.fill(fv, types.compound());
            }
            if (et.layout() == ElementType.Layout.RECORD) {
                return FillValues.record(fv, et.compound(), types.stored().str());
            }
            if (t == NcType.CHAR || et.layout() == ElementType.Layout.FIXED_BYTES) {
                // null_terminated_bytes: zarr-python writes the fill as base64 of its bytes
                byte[] b = fv.isTextual() ? java.util.Base64.getDecoder().decode(fv.textValue()) : new byte[0];
                if (t == NcType.CHAR) {
                    return b.length == 0 ? (byte) 0 : b[0];
                }
                int n = 0;
                while (n < b.length && b[n] != 0) {
                    n++;
                }
                return new String(b, 0, n, java.nio.charset.StandardCharsets.UTF_8);
            }
            if (t == NcType.STRING) {
                return fv.isTextual() ? fv.textValue() : "";
            }
            if (t.isFloatingPoint() && V3DataTypes.isBFloat16(types) && V3Fill.isHex(fv)) {
                return Float.intBitsToFloat((int) V3Fill.hexBits(fv.textValue(), 2) << 16);
            }
            if (t.isFloatingPoint()) {
                double d = V3Fill.floatValue(fv, types.stored());
                return t == NcType.FLOAT ? (Object) (float) d : (Object) d;
            }
            if (V3Fill.isHex(fv)) {
                long bits = V3Fill.hexBits(fv.textValue(), types.stored().itemsize());
                return JsonValues.scalar(t, JsonNodeFactory.instance.numberNode(bits));
            }
            return JsonValues.scalar(t, fv);
        } catch (CodecException | IllegalArgumentException e) {
            throw new MetadataException(
                    dataset,
                    nodeKey,
                    "fill_value " + fv + " is not a valid " + types.stored().str() + " value");
        }
    }
}
