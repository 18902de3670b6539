package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The streaming tree builder gives exactly the tree {@code ObjectMapper.readTree} gives, node types included. */
class JsonTreeTest {

    private static final ObjectMapper READ_TREE = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(Json.MAX_NESTING_DEPTH)
                            .build())
                    .build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    @Test
    void sameTreesAsReadTree() throws Exception {
        List<String> docs = List.of(
                "{\"zarr_format\":2,\"shape\":[10,20],\"chunks\":[5,5],\"dtype\":\"<f8\",\"fill_value\":\"NaN\"}",
                "{\"a\":1,\"b\":2147483648,\"c\":9223372036854775808,\"d\":-9223372036854775809,\"e\":1e400}",
                "{\"n\":NaN,\"i\":Infinity,\"m\":-Infinity,\"p\":+5,\"f\":0.1,\"z\":-0.0,\"x\":1E-320}",
                "{\"dup\":1,\"k\":[],\"dup\":{\"o\":null},\"t\":true,\"f\":false}",
                "[[1,2],[3],[[[\"deep\"]]],{},\"\\u00e9\\u2603\"]",
                "\"just a string\"",
                "42 trailing");
        for (String d : docs) {
            assertSame(d);
        }
        Random r = new Random(20261122);
        for (int i = 0; i < 500; i++) {
            assertSame(random(r, 0));
        }
        assertNull(Json.readTree("   ".getBytes(StandardCharsets.UTF_8)));
    }

    /** Deep nesting, long names and a leading plus sign read as Jackson reads them. */
    @Test
    void deepLongAndSigned() throws Exception {
        assertSame("[".repeat(300) + "]".repeat(300));
        assertSame("{\"a\":+5}");
        assertSame("{\"" + "n".repeat(40_000) + "\":1}");
    }

    private static void assertSame(String doc) throws Exception {
        byte[] b = doc.getBytes(StandardCharsets.UTF_8);
        JsonNode want = READ_TREE.readTree(b);
        JsonNode got = Json.readTree(b);
        assertEquals(want, got, doc);
        assertEquals(types(want), types(got), doc);
    }

    /** The node classes, depth first: IntNode vs LongNode vs DoubleNode matter to the attribute typing. */
    private static String types(JsonNode n) {
        StringBuilder s = new StringBuilder(n.getClass().getSimpleName());
        n.elements().forEachRemaining(c -> s.append('(').append(types(c)).append(')'));
        return s.toString();
    }

    private static String random(Random r, int depth) {
        int k = depth > 4 ? r.nextInt(5) : r.nextInt(7);
        switch (k) {
            case 0:
                return Long.toString(r.nextLong() >> r.nextInt(64));
            case 1:
                return Double.toString(r.nextGaussian() * Math.pow(10, r.nextInt(40) - 20));
            case 2:
                return "\"s" + r.nextInt(1000) + "\"";
            case 3:
                return r.nextBoolean() ? "true" : "null";
            case 4:
                return r.nextBoolean() ? "12345678901234567890123" : "NaN";
            case 5: {
                StringBuilder s = new StringBuilder("[");
                for (int i = r.nextInt(4); i > 0; i--) {
                    s.append(random(r, depth + 1)).append(i > 1 ? "," : "");
                }
                return s.append(']').toString();
            }
            default: {
                StringBuilder s = new StringBuilder("{");
                for (int i = r.nextInt(4); i > 0; i--) {
                    s.append("\"k").append(r.nextInt(3)).append("\":").append(random(r, depth + 1));
                    s.append(i > 1 ? "," : "");
                }
                return s.append('}').toString();
            }
        }
    }
}
