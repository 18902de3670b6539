package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import java.util.Map;

/**
 * Zarr v3 {@code data_type} names → the dtype the codec chain stores and the dtype chunks decode
 * to. Types with no netCDF rule (complex, raw bits, vlen bytes, extensions) are absent.
 */
final class V3DataTypes {
    private V3DataTypes() {}

    /** @param stored what the chain encodes @param decoded what a chunk decodes to */
    record Mapping(NumpyDtype stored, NumpyDtype decoded) {}

    private static final Map<String, String> STORED = Map.ofEntries(
            Map.entry("bool", "|b1"),
            Map.entry("int8", "|i1"),
            Map.entry("uint8", "|u1"),
            Map.entry("int16", "<i2"),
            Map.entry("uint16", "<u2"),
            Map.entry("int32", "<i4"),
            Map.entry("uint32", "<u4"),
            Map.entry("int64", "<i8"),
            Map.entry("uint64", "<u8"),
            Map.entry("float16", "<f2"),
            Map.entry("float32", "<f4"),
            Map.entry("float64", "<f8"),
            Map.entry("string", "|O"));

    /** The type's name for messages: a string, or an extension object's {@code name}. */
    static String name(JsonNode dataType) {
        if (dataType == null) {
            return "null";
        }
        if (dataType.isTextual()) {
            return dataType.textValue();
        }
        JsonNode n = dataType.get("name");
        return n != null && n.isTextual()
                ? n.textValue()
                : dataType.getNodeType().toString().toLowerCase();
    }

    /** The mapping, or {@code null} when the type has none. */
    static Mapping of(JsonNode dataType) {
        String text = dataType != null && dataType.isTextual() ? STORED.get(dataType.textValue()) : null;
        if (text == null) {
            return null;
        }
        NumpyDtype stored = NumpyDtype.parseOrNull(text);
        NumpyDtype decoded = text.equals("<f2") ? NumpyDtype.parseOrNull("<f4") : stored;
        return new Mapping(stored, decoded);
    }
}
