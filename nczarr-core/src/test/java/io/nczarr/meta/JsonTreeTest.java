package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
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

    /** Documents {@link JsonFastTree} reads itself give the same trees as Jackson's parser. */
    @Test
    void fastTreesAsReadTree() throws Exception {
        List<String> docs = List.of(
                "{\"zarr_format\":2,\"shape\":[10,20],\"chunks\":[5,5],\"dtype\":\"<f8\",\"fill_value\":\"NaN\"}",
                "{\"a\":1,\"b\":2147483648,\"c\":9223372036854775808,\"d\":-9223372036854775809,\"e\":1e400}",
                "{\"i\":2147483647,\"j\":-2147483648,\"k\":-2147483649,\"l\":9223372036854775807,"
                        + "\"m\":-9223372036854775808,\"n\":1000000000000000000,\"o\":123456789012345678901234567890}",
                "{\"n\":NaN,\"i\":Infinity,\"m\":-Infinity,\"f\":0.1,\"z\":-0.0,\"x\":1E-320,\"y\":-0,\"e\":1e+5,\"g\":2E-3}",
                "{\"dup\":1,\"k\":[],\"dup\":{\"o\":null},\"t\":true,\"f\":false}",
                "[[1,2],[3],[[[\"deep\"]]],{},\"\\u00e9\\u2603\"]",
                " \t\r\n{ \"a\" : [ 1 , 2 ] , \"b\" :{ } }\n trailing",
                "{\"esc\":\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t end\",\"pair\":\"\\ud83d\\ude00\",\"lone\":\"\\ud800x\"}",
                "{\"utf8\":\"caf\u00e9 \u2603 \ud83d\ude00\",\"mixed\":\"\u00e9\\n\u00e9\"}");
        for (String d : docs) {
            byte[] b = d.getBytes(StandardCharsets.UTF_8);
            assertNotNull(JsonFastTree.tryParse(b), d);
            assertSame(d);
        }
    }

    /**
     * Mangled documents: whenever {@link JsonFastTree} gives a tree, Jackson's parser gives the same one
     * (the fast reader never accepts what Jackson refuses, nor reads anything differently); the rest goes
     * to Jackson, errors included.
     */
    @Test
    void fastTreeNeverDisagrees() throws Exception {
        Random r = new Random(20261128);
        String alphabet = "{}[],:\"\\ 0123456789-+.eEnulltrfasNaIfy\u00e9\u0001\t";
        int accepted = 0;
        for (int i = 0; i < 4000; i++) {
            StringBuilder d = new StringBuilder(random(r, 0));
            if (d.charAt(0) != '{' && d.charAt(0) != '[') {
                d.insert(0, '[').append(']');
            }
            for (int m = r.nextInt(3); m > 0; m--) {
                int at = r.nextInt(d.length());
                char c = alphabet.charAt(r.nextInt(alphabet.length()));
                switch (r.nextInt(3)) {
                    case 0:
                        d.setCharAt(at, c);
                        break;
                    case 1:
                        d.insert(at, c);
                        break;
                    default:
                        d.deleteCharAt(at);
                }
                if (d.length() == 0) {
                    d.append('[');
                }
            }
            byte[] b = d.toString().getBytes(StandardCharsets.UTF_8);
            if (r.nextInt(10) == 0) {
                b[r.nextInt(b.length)] = (byte) (0x80 + r.nextInt(0x80)); // broken UTF-8 now and then
            }
            JsonNode fast = JsonFastTree.tryParse(b);
            if (fast == null) {
                continue;
            }
            accepted++;
            JsonNode want;
            try {
                want = READ_TREE.readTree(b);
            } catch (IOException e) {
                throw new AssertionError("Jackson refuses what the fast reader accepted: " + d, e);
            }
            assertEquals(want, fast, d.toString());
            assertEquals(types(want), types(fast), d.toString());
        }
        assertTrue(accepted > 1000, "accepted " + accepted);
    }

    /** Nesting past the fast reader's depth, long names and odd starts go to Jackson, with its limits. */
    @Test
    void leftToJackson() throws Exception {
        for (String d : List.of(
                "[".repeat(300) + "]".repeat(300),
                "\ufeff{\"a\":1}",
                "{\"a\":+5}",
                "{\"a\":01}",
                "{\"a\":.5}",
                "{\"a\":INF}",
                "{\"" + "n".repeat(40_000) + "\":1}",
                "42",
                "\"s\"")) {
            byte[] b = d.getBytes(StandardCharsets.UTF_8);
            assertNull(JsonFastTree.tryParse(b), d.length() > 40 ? d.substring(0, 40) : d);
        }
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
