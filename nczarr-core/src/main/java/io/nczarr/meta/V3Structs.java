package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.nczarr.codec.V3Fill;
import io.nczarr.codec.V3TypeNames;
import io.nczarr.dtype.CompoundType;
import io.nczarr.error.CodecException;
import io.nczarr.model.StructuredDtype;
import java.util.Map;

/**
 * zarr-extensions {@code struct} ({@code {"fields": [{"name", "data_type"}]}}, zarr-python 3.2+) and
 * zarr-python 3.1's legacy {@code structured} ({@code {"fields": [[name, data_type]]}}) → the Zarr v2
 * structured dtype they describe, then a {@link CompoundType} as for v2 (fields packed in order,
 * little endian). Field types: bool, integers, float32/64, complex, {@code null_terminated_bytes},
 * nested structs; others have no rule.
 */
final class V3Structs {
    private V3Structs() {}

    private static final Map<String, String> LEAVES = V3TypeNames.without("float16");

    static boolean isStruct(JsonNode dataType) {
        if (dataType == null || !dataType.isObject()) {
            return false;
        }
        String name = dataType.path("name").asText("");
        return name.equals("struct") || name.equals("structured");
    }

    /**
     * The record type of a {@code struct}/{@code structured} data type.
     *
     * @throws IllegalArgumentException naming the field that has no rule
     */
    static CompoundType compound(JsonNode dataType) {
        return StructuredDtype.parse(descr(dataType, 0));
    }

    private static ArrayNode descr(JsonNode dataType, int depth) {
        if (depth > CompoundType.MAX_DEPTH) {
            throw new IllegalArgumentException("struct nested more than " + CompoundType.MAX_DEPTH + " deep");
        }
        JsonNode fields = dataType.path("configuration").get("fields");
        if (fields == null || !fields.isArray() || fields.isEmpty()) {
            throw new IllegalArgumentException("struct without a list of fields");
        }
        boolean legacy = dataType.path("name").asText("").equals("structured");
        ArrayNode out = JsonNodeFactory.instance.arrayNode();
        for (JsonNode f : fields) {
            JsonNode name = legacy ? f.get(0) : f.get("name");
            JsonNode type = legacy ? f.get(1) : f.get("data_type");
            if (name == null || !name.isTextual() || type == null) {
                throw new IllegalArgumentException("struct field " + f + " has no name or data_type");
            }
            ArrayNode entry = out.addArray().add(name.textValue());
            if (isStruct(type)) {
                entry.add(descr(type, depth + 1));
            } else if (type.isTextual() && LEAVES.containsKey(type.textValue())) {
                entry.add(LEAVES.get(type.textValue()));
            } else if (type.isObject() && type.path("name").asText("").equals("null_terminated_bytes")) {
                int n = type.path("configuration").path("length_bytes").asInt(0);
                if (n <= 0) {
                    throw new IllegalArgumentException("struct field '" + name.textValue() + "': bad length_bytes");
                }
                entry.add("|S" + n);
            } else {
                throw new IllegalArgumentException("struct field '" + name.textValue() + "' of data type "
                        + V3DataTypes.name(type) + " has no netCDF rule");
            }
        }
        return out;
    }

    /**
     * One record of the struct as bytes from zarr-python's object fill value ({@code {"a": 0, "b":
     * {"x": 1.5}}}); a string is base64 of the record (the legacy form); {@code null} for a JSON null.
     */
    static byte[] fill(JsonNode fv, CompoundType type) throws CodecException {
        if (fv == null || fv.isNull()) {
            return null;
        }
        if (fv.isTextual()) {
            byte[] b = java.util.Base64.getDecoder().decode(fv.textValue());
            if (b.length != type.itemsize()) {
                throw new CodecException("fill_value holds " + b.length + " bytes, a record has " + type.itemsize());
            }
            return b;
        }
        byte[] out = new byte[type.itemsize()];
        put(fv, type, out, 0);
        return out;
    }

    private static void put(JsonNode fv, CompoundType type, byte[] out, int base) throws CodecException {
        if (!fv.isObject()) {
            throw new CodecException("fill_value " + fv + " is not an object of the struct's fields");
        }
        for (CompoundType.Member m : type.members()) {
            JsonNode v = fv.get(m.name());
            if (v == null) {
                continue; // padding or an absent field: zero bytes
            }
            if (m.nested() != null
                    && v.isArray()
                    && v.size() == 2
                    && m.nested().members().size() == 2) {
                // complex: [real, imag]
                for (int k = 0; k < 2; k++) {
                    CompoundType.Member part = m.nested().members().get(k);
                    byte[] b = V3Fill.elementBytes(v.get(k), part.type());
                    System.arraycopy(b, 0, out, base + m.offset() + part.offset(), b.length);
                }
            } else if (m.nested() != null) {
                put(v, m.nested(), out, base + m.offset());
            } else if (m.type().kind() == 'S') {
                byte[] b = v.isTextual() ? java.util.Base64.getDecoder().decode(v.textValue()) : new byte[0];
                System.arraycopy(
                        b,
                        0,
                        out,
                        base + m.offset(),
                        Math.min(b.length, m.type().itemsize()));
            } else {
                byte[] b = V3Fill.elementBytes(v, m.type());
                System.arraycopy(b, 0, out, base + m.offset(), b.length);
            }
        }
    }
}
