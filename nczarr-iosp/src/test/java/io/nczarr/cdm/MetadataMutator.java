package io.nczarr.cdm;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;

/**
 * Mutates the metadata of a real dataset: JSON values of the wrong type or out of range (anywhere,
 * or field by field with values that hurt that field), deleted fields, duplicate and illegal names
 * in NCZarr group lists, bytes that are not JSON or not UTF-8 (truncation, flips, deep nesting,
 * duplicate keys, huge strings), and objects removed or added.
 */
final class MetadataMutator {

    /** One mutated dataset and what was done to it. */
    record Mutation(String description, NavigableMap<String, byte[]> objects) {}

    /** Reads what the reader reads; writes deeper than the reader accepts (so that the reader refuses it). */
    private static final ObjectMapper JSON = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(Integer.MAX_VALUE)
                            .build())
                    .streamWriteConstraints(StreamWriteConstraints.builder()
                            .maxNestingDepth(Integer.MAX_VALUE)
                            .build())
                    .build())
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(JsonReadFeature.ALLOW_LEADING_PLUS_SIGN_FOR_NUMBERS)
            .build();

    /** Where a value sits in an object: its parent container and its name or index there. */
    private record Slot(String key, JsonNode parent, String field, int index) {
        JsonNode get() {
            return field != null ? parent.get(field) : parent.get(index);
        }

        void set(JsonNode v) {
            if (field != null) {
                ((ObjectNode) parent).set(field, v);
            } else {
                ((ArrayNode) parent).set(index, v);
            }
        }

        void remove() {
            if (field != null) {
                ((ObjectNode) parent).remove(field);
            } else {
                ((ArrayNode) parent).remove(index);
            }
        }

        @Override
        public String toString() {
            return key + ":" + (field != null ? field : "[" + index + "]");
        }
    }

    private final FuzzSeeds.Seed seed;
    private final Random rnd;
    private final NavigableMap<String, byte[]> objects;
    private final List<String> done = new ArrayList<>();

    private MetadataMutator(FuzzSeeds.Seed seed, Random rnd) {
        this.seed = seed;
        this.rnd = rnd;
        this.objects = new TreeMap<>(seed.objects());
    }

    /** One to three mutations of {@code seed}, chosen by {@code rnd}. */
    static Mutation mutate(FuzzSeeds.Seed seed, Random rnd) {
        MetadataMutator m = new MetadataMutator(seed, rnd);
        int n = rnd.nextInt(10) == 0 ? 2 + rnd.nextInt(2) : 1;
        for (int i = 0; i < n; i++) {
            m.once();
        }
        return new Mutation(String.join("; ", m.done), m.objects);
    }

    private void once() {
        int pick = rnd.nextInt(100);
        if (pick < 30) {
            fieldValue();
        } else if (pick < 55) {
            anyValue();
        } else if (pick < 62) {
            deleteValue();
        } else if (pick < 72) {
            nameLists();
        } else if (pick < 94) {
            bytes();
        } else {
            storeObjects();
        }
    }

    // ---- JSON-level ---------------------------------------------------------------------------

    /** A field with its own troublemakers gets one of them (or a generic value). */
    private void fieldValue() {
        List<Slot> slots = new ArrayList<>();
        for (Slot s : allSlots()) {
            if (s.field() != null && !HostileJson.forField(s.field()).isEmpty()) {
                slots.add(s);
            }
        }
        if (slots.isEmpty()) {
            anyValue();
            return;
        }
        Slot s = slots.get(rnd.nextInt(slots.size()));
        String value = rnd.nextInt(4) == 0 ? relative(s) : null;
        if (value == null) {
            List<String> values = HostileJson.forField(s.field());
            value = rnd.nextInt(5) == 0 ? HostileJson.generic(rnd) : values.get(rnd.nextInt(values.size()));
        }
        set(s, value);
    }

    /** Mutations that depend on the current value: another rank, a huge multiple, a negation. */
    private String relative(Slot s) {
        JsonNode v = s.get();
        if (!v.isArray() || v.isEmpty() || !v.get(0).isNumber()) {
            return null;
        }
        ArrayNode a = v.deepCopy();
        switch (rnd.nextInt(4)) {
            case 0:
                a.remove(a.size() - 1);
                break;
            case 1:
                a.add(rnd.nextBoolean() ? 1 : 7);
                break;
            case 2:
                a.set(
                        rnd.nextInt(a.size()),
                        JSON.getNodeFactory().numberNode(a.get(0).asLong() * 1_000_000_007L));
                break;
            default:
                a.set(
                        rnd.nextInt(a.size()),
                        JSON.getNodeFactory().numberNode(-a.get(0).asLong()));
                break;
        }
        return json(a);
    }

    /** Any value anywhere becomes a generic hostile one. */
    private void anyValue() {
        List<Slot> slots = allSlots();
        if (slots.isEmpty()) {
            bytes();
            return;
        }
        set(slots.get(rnd.nextInt(slots.size())), HostileJson.generic(rnd));
    }

    private void deleteValue() {
        List<Slot> slots = allSlots();
        if (slots.isEmpty()) {
            bytes();
            return;
        }
        Slot s = slots.get(rnd.nextInt(slots.size()));
        s.remove();
        done.add("delete " + s);
        writeBack(s.key(), roots.get(s.key()));
    }

    /**
     * NCZarr group lists: a name listed twice, a variable that is also a group, a missing or illegal
     * name. Falls back to any value when the seed has no NCZarr lists.
     */
    private void nameLists() {
        List<Slot> lists = new ArrayList<>();
        for (Slot s : allSlots()) {
            String f = s.field();
            if (f != null
                    && (f.equals("vars") || f.equals("arrays") || f.equals("groups"))
                    && s.get().isArray()) {
                lists.add(s);
            }
        }
        if (lists.isEmpty()) {
            anyValue();
            return;
        }
        Slot s = lists.get(rnd.nextInt(lists.size()));
        ArrayNode list = (ArrayNode) s.get().deepCopy();
        List<String> siblings = siblingNames(s);
        String added;
        if (!list.isEmpty() && rnd.nextBoolean()) {
            added = list.get(rnd.nextInt(list.size())).asText(); // a duplicate
        } else if (!siblings.isEmpty() && rnd.nextBoolean()) {
            added = siblings.get(rnd.nextInt(siblings.size())); // a variable that is a group, or back
        } else {
            added = List.of("nosuch", "", "..", ".", "a/b", "x y", "\u00e9").get(rnd.nextInt(7));
        }
        list.insert(rnd.nextInt(list.size() + 1), added);
        set(s, json(list));
    }

    /** The names in the other list of the same group ({@code groups} for {@code vars} and back). */
    private static List<String> siblingNames(Slot s) {
        List<String> out = new ArrayList<>();
        String other = s.field().equals("groups") ? "vars" : "groups";
        JsonNode o = s.parent().get(other);
        if (o == null && other.equals("vars")) {
            o = s.parent().get("arrays");
        }
        if (o != null && o.isArray()) {
            o.forEach(n -> out.add(n.asText()));
        }
        return out;
    }

    /** Every value slot in every metadata object that parses as JSON. */
    private List<Slot> allSlots() {
        List<Slot> out = new ArrayList<>();
        for (String key : metadataKeys()) {
            JsonNode root = parse(key);
            if (root != null) {
                collect(key, root, out, 0);
            }
        }
        return out;
    }

    private static void collect(String key, JsonNode node, List<Slot> out, int depth) {
        if (depth > 8) {
            return;
        }
        if (node.isObject()) {
            Iterator<Map.Entry<String, JsonNode>> it = node.properties().iterator();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                out.add(new Slot(key, node, e.getKey(), -1));
                collect(key, e.getValue(), out, depth + 1);
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size() && i < 16; i++) {
                out.add(new Slot(key, node, null, i));
                collect(key, node.get(i), out, depth + 1);
            }
        }
    }

    /** The parsed roots, by key, so that a slot's edit can be written back. */
    private final Map<String, JsonNode> roots = new java.util.HashMap<>();

    private JsonNode parse(String key) {
        if (roots.containsKey(key)) {
            return roots.get(key);
        }
        JsonNode n;
        try {
            n = JSON.readTree(objects.get(key));
        } catch (IOException e) {
            n = null; // already mangled by an earlier mutation
        }
        roots.put(key, n);
        return n;
    }

    private void set(Slot s, String valueText) {
        JsonNode v;
        try {
            v = JSON.readTree(valueText);
        } catch (IOException e) {
            // not representable as a tree (too many digits): splice the text in instead
            replaceText(s, valueText);
            return;
        }
        s.set(v);
        done.add("set " + s + " = " + abbreviate(valueText));
        writeBack(s.key(), roots.get(s.key()));
    }

    /** Puts {@code valueText} in place of the slot's value by text, for values Jackson will not build. */
    private void replaceText(Slot s, String valueText) {
        String marker = "\"__fuzz_marker__\"";
        s.set(JSON.getNodeFactory().textNode("__fuzz_marker__"));
        String text = json(roots.get(s.key())).replace(marker, valueText);
        objects.put(s.key(), text.getBytes(StandardCharsets.UTF_8));
        roots.remove(s.key());
        done.add("set " + s + " = " + abbreviate(valueText));
    }

    private void writeBack(String key, JsonNode root) {
        objects.put(key, json(root).getBytes(StandardCharsets.UTF_8));
    }

    private static String json(JsonNode n) {
        try {
            return JSON.writeValueAsString(n);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- byte-level ---------------------------------------------------------------------------

    /** Bytes that are not (valid) JSON, not UTF-8, or JSON that is deep, big or ambiguous. */
    private void bytes() {
        List<String> keys = metadataKeys();
        if (keys.isEmpty()) {
            storeObjects();
            return;
        }
        String key = keys.get(rnd.nextInt(keys.size()));
        byte[] b = objects.get(key);
        String what;
        byte[] out;
        switch (rnd.nextInt(11)) {
            case 0 -> {
                int at = b.length == 0 ? 0 : rnd.nextInt(b.length);
                out = Arrays.copyOf(b, at);
                what = "truncate at " + at;
            }
            case 1 -> {
                out = new byte[0];
                what = "empty";
            }
            case 2 -> {
                out = b.clone();
                int at = out.length == 0 ? 0 : rnd.nextInt(out.length);
                if (out.length > 0) {
                    out[at] ^= (byte) (1 + rnd.nextInt(255));
                }
                what = "flip byte " + at;
            }
            case 3 -> {
                byte[][] bad = {
                    {(byte) 0xFF, (byte) 0xFE},
                    {(byte) 0xC0, (byte) 0x80},
                    {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                    {(byte) 0x80},
                    {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}
                };
                byte[] ins = bad[rnd.nextInt(bad.length)];
                int at = insideAString(b);
                out = insert(b, at, ins);
                what = "non-UTF-8 bytes at " + at;
            }
            case 4 -> {
                int depth = rnd.nextBoolean() ? 100_000 : 5_000;
                String deep = rnd.nextBoolean() ? HostileJson.nested(depth) : HostileJson.nestedObjects(depth);
                out = withField(b, "\"deep\": " + deep);
                what = "field nested " + depth + " deep";
            }
            case 5 -> {
                out = HostileJson.nested(100_000).getBytes(StandardCharsets.UTF_8);
                what = "whole object is an array nested 100000 deep";
            }
            case 6 -> {
                out = duplicateFirstKey(b);
                what = "first key duplicated";
            }
            case 7 -> {
                out = withField(b, "\"huge\": \"" + "\u00e9".repeat(1 << 20) + "\"");
                what = "field with a 2 MB string";
            }
            case 8 -> {
                out = insert(b, 0, new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF});
                what = "byte order mark";
            }
            case 9 -> {
                out = insert(b, b.length, "}]\u0000garbage".getBytes(StandardCharsets.UTF_8));
                what = "trailing garbage";
            }
            default -> {
                out = new byte[1 + rnd.nextInt(64)];
                rnd.nextBytes(out);
                what = "random bytes";
            }
        }
        objects.put(key, out);
        roots.remove(key);
        done.add(key + ": " + what);
    }

    /** A position just inside a string literal when there is one (else anywhere). */
    private int insideAString(byte[] b) {
        List<Integer> quotes = new ArrayList<>();
        for (int i = 0; i < b.length; i++) {
            if (b[i] == '"') {
                quotes.add(i + 1);
            }
        }
        if (quotes.isEmpty()) {
            return b.length == 0 ? 0 : rnd.nextInt(b.length);
        }
        return quotes.get(rnd.nextInt(quotes.size()));
    }

    /** Inserts {@code field} (text {@code "name": value}) right after the object's opening brace. */
    private static byte[] withField(byte[] b, String field) {
        int brace = indexOf(b, (byte) '{');
        if (brace < 0) {
            return ("{" + field + "}").getBytes(StandardCharsets.UTF_8);
        }
        boolean empty = isEmptyObject(b, brace);
        return insert(b, brace + 1, (field + (empty ? "" : ",")).getBytes(StandardCharsets.UTF_8));
    }

    /** {@code {"k": v, ...}} becomes {@code {"k": "dup", "k": v, ...}}: which one wins is the reader's choice. */
    private byte[] duplicateFirstKey(byte[] b) {
        JsonNode root = null;
        try {
            root = JSON.readTree(b);
        } catch (IOException e) {
            // not JSON any more
        }
        if (root == null || !root.isObject() || root.isEmpty()) {
            return b;
        }
        String first = root.fieldNames().next();
        String value = rnd.nextBoolean() ? "\"dup\"" : HostileJson.generic(rnd);
        return withField(b, json(JSON.getNodeFactory().textNode(first)) + ": " + value);
    }

    private static boolean isEmptyObject(byte[] b, int brace) {
        for (int i = brace + 1; i < b.length; i++) {
            if (!Character.isWhitespace(b[i])) {
                return b[i] == '}';
            }
        }
        return true;
    }

    private static int indexOf(byte[] b, byte c) {
        for (int i = 0; i < b.length; i++) {
            if (b[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static byte[] insert(byte[] b, int at, byte[] ins) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(b.length + ins.length);
        out.write(b, 0, at);
        out.write(ins, 0, ins.length);
        out.write(b, at, b.length - at);
        return out.toByteArray();
    }

    // ---- store-level --------------------------------------------------------------------------

    /** Names a listing may hand the reader: blanks, control characters, look-alikes of other names. */
    private static final List<String> ODD_NAMES =
            List.of("x y", "x_y", " lead", "trail ", "a\u0001b", "\u00e9", "%41", "0", "time", "x", "\u007f");

    /** A metadata object removed, one added where it contradicts what is there, or an array copied under an odd name. */
    private void storeObjects() {
        List<String> keys = metadataKeys();
        List<String> arrays = keys.stream().filter(k -> k.endsWith(".zarray")).toList();
        if (!arrays.isEmpty() && rnd.nextInt(3) == 0) {
            String from = arrays.get(rnd.nextInt(arrays.size()));
            String parent =
                    from.substring(0, Math.max(0, from.lastIndexOf('/', from.length() - ".zarray".length() - 2)));
            String name = ODD_NAMES.get(rnd.nextInt(ODD_NAMES.size()));
            String to = (parent.isEmpty() ? "" : parent + "/") + name + "/.zarray";
            objects.put(to, objects.get(from));
            roots.remove(to);
            done.add("copy " + from + " to " + to);
            return;
        }
        if (!keys.isEmpty() && rnd.nextBoolean()) {
            String key = keys.get(rnd.nextInt(keys.size()));
            objects.remove(key);
            roots.remove(key);
            done.add("remove " + key);
            return;
        }
        // a .zgroup where an array is, or a .zarray where a group is
        List<String> prefixes = new ArrayList<>();
        for (String k : keys) {
            if (k.endsWith(".zarray") || k.endsWith(".zgroup")) {
                prefixes.add(k);
            }
        }
        if (prefixes.isEmpty()) {
            objects.put(".zgroup", "{\"zarr_format\": 2}".getBytes(StandardCharsets.UTF_8));
            done.add("add .zgroup");
            return;
        }
        String k = prefixes.get(rnd.nextInt(prefixes.size()));
        String twin = k.endsWith(".zarray")
                ? k.replace(".zarray", ".zgroup")
                : k.substring(0, k.length() - ".zgroup".length()) + ".zarray";
        String text = twin.endsWith(".zgroup")
                ? "{\"zarr_format\": 2}"
                : "{\"zarr_format\": 2, \"shape\": [3], \"chunks\": [2], \"dtype\": \"<i4\", \"fill_value\": 0,"
                        + " \"order\": \"C\", \"compressor\": null, \"filters\": null}";
        objects.put(twin, text.getBytes(StandardCharsets.UTF_8));
        roots.remove(twin);
        done.add("add " + twin);
    }

    private List<String> metadataKeys() {
        List<String> keys = new ArrayList<>();
        for (String k : objects.keySet()) {
            String last = k.substring(k.lastIndexOf('/') + 1);
            if (last.startsWith(".")) {
                keys.add(k);
            }
        }
        return keys;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 60) + "...(" + s.length() + " chars)";
    }

    @Override
    public String toString() {
        return seed.name() + ": " + done;
    }
}
