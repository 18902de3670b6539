package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Structure columns against a manifest (SparkConformanceTest): every leaf member {@code "/v.a.b"} of a structure
 * {@code "/v"}, collected from the Spark rows in C order (records, then the enclosing sub-arrays, then its own), is
 * serialized as the schema's canonical {@code sha256} says and compared with the manifest's, with its count and
 * Spark type (a char member's last axis is its text: a string column, NUL-padded again to that length).
 */
final class SparkRecords {
    private SparkRecords() {}

    /** The manifest's leaf members of the structure {@code path}, by full name. */
    static Map<String, JsonNode> members(JsonNode variables, String path) {
        Map<String, JsonNode> out = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : variables.properties()) {
            if (e.getKey().startsWith(path + ".")) {
                out.put(e.getKey(), e.getValue());
            }
        }
        return out;
    }

    /** Compares every leaf member of the structure column {@code col} of {@code rows} (in C order). */
    static void compare(List<Row> rows, int col, StructType schema, JsonNode variables, String path, String label) {
        Map<String, JsonNode> members = members(variables, path);
        assertTrue(!members.isEmpty(), label + ": the manifest lists no member of " + path);
        for (Map.Entry<String, JsonNode> m : members.entrySet()) {
            List<String> names = List.of(m.getKey().substring(path.length() + 1).split("\\."));
            JsonNode want = m.getValue();
            String type = want.path("type").asText();
            List<Object> values = new ArrayList<>();
            DataType leaf = null;
            for (Row r : rows) {
                leaf = collect(r, col, schema.fields()[col].dataType(), names, 0, values);
            }
            String at = label + " " + m.getKey();
            assertEquals(type.equals("char") ? DataTypes.StringType : SparkConformanceTest.sparkType(type), leaf, at);
            JsonNode shape = want.path("shape");
            int text = type.equals("char") ? shape.get(shape.size() - 1).asInt() : 1;
            assertEquals(want.path("data").path("count").asLong(), (long) values.size() * text, at + " count");
            assertEquals(want.path("data").path("sha256").asText(), sha256(values, type, text), at + " sha256");
        }
    }

    /** Appends the values of member {@code names[k..]} inside {@code value} (a field of {@code type}); its leaf type. */
    private static DataType collect(
            Object holder, int field, DataType type, List<String> names, int k, List<Object> out) {
        Row row = (Row) holder;
        if (type instanceof ArrayType a) {
            DataType leaf = a.elementType();
            for (Object e : row.getList(field)) {
                leaf = element(e, a.elementType(), names, k, out);
            }
            return leaf;
        }
        return element(row.get(field), type, names, k, out);
    }

    private static DataType element(Object value, DataType type, List<String> names, int k, List<Object> out) {
        if (type instanceof StructType s) {
            int i = s.fieldIndex(names.get(k));
            return collect(value, i, s.fields()[i].dataType(), names, k + 1, out);
        }
        if (type instanceof ArrayType a) {
            DataType leaf = a.elementType();
            for (Object e : scala.jdk.javaapi.CollectionConverters.asJava((scala.collection.Seq<?>) value)) {
                leaf = element(e, a.elementType(), names, k, out);
            }
            return leaf;
        }
        out.add(value);
        return type;
    }

    /** The schema's canonical serialization of values of a netCDF type, hashed. */
    static String sha256(List<Object> values, String type, int text) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        for (Object v : values) {
            ByteBuffer bb = ByteBuffer.allocate(8);
            switch (type) {
                case "char" -> {
                    byte[] s = ((String) v).getBytes(StandardCharsets.UTF_8);
                    b.write(s, 0, s.length);
                    b.write(new byte[text - s.length], 0, text - s.length);
                    continue;
                }
                case "byte", "ubyte" -> bb.put((byte) ((Number) v).longValue());
                case "short", "ushort" -> bb.putShort((short) ((Number) v).longValue());
                case "int", "uint" -> bb.putInt((int) ((Number) v).longValue());
                case "int64" -> bb.putLong(((Number) v).longValue());
                case "uint64" -> bb.putLong(((BigDecimal) v).toBigInteger().longValue());
                case "float" -> bb.putInt(Float.floatToIntBits((Float) v));
                case "double" -> bb.putLong(Double.doubleToLongBits((Double) v));
                default -> throw new AssertionError("no canonical form for " + type);
            }
            b.write(bb.array(), 0, bb.position());
        }
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b.toByteArray()));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
