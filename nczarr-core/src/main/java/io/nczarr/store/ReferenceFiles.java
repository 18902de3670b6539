package io.nczarr.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses kerchunk reference files (fsspec {@code ReferenceFileSystem} JSON): version 0 (one object, key →
 * value) and version 1 ({@code {"version": 1, "templates": {...}, "gen": [...], "refs": {...}}}). A value is an
 * inline string (its UTF-8 bytes), {@code "base64:..."} (the decoded bytes), a JSON object (metadata: its JSON
 * text), {@code [url]} (a whole object) or {@code [url, offset, length]}. {@code {{name}}} in a URL is replaced
 * by its template; each {@code gen} entry is expanded over the cartesian product of its {@code dimensions}
 * (ranges {@code {"start", "stop", "step"}} or lists), with {@code {{expr}}} in its key, url, offset and length
 * evaluated by {@link GenExpressions}. Relative URLs are resolved against the reference file's own URL.
 *
 * <p>Structure errors of the document (not JSON, not an object, a bad template or gen entry) fail the parse;
 * a bad single value (a negative or overflowing offset or length, a malformed array) is kept as {@link
 * Ref.Bad} and fails only reads of that key, naming it.
 */
public final class ReferenceFiles {
    /** The most references a {@code gen} section may expand to (each costs memory). */
    public static final long MAX_GENERATED = 1L << 22;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .build();

    static {
        MAPPER.getFactory()
                .setStreamReadConstraints(StreamReadConstraints.builder()
                        .maxNestingDepth(64)
                        .maxStringLength(Integer.MAX_VALUE)
                        .build());
    }

    private static final Pattern TEMPLATE = Pattern.compile("\\{\\{\\s*([^}]*?)\\s*\\}\\}");
    private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]+:");

    private ReferenceFiles() {}

    /** One reference. */
    public sealed interface Ref {
        /** Bytes held in the reference file. */
        record Inline(byte[] bytes) implements Ref {}

        /** {@code length} bytes at {@code offset} of {@code target} ({@code length} -1: the whole object). */
        record Range(URI target, String url, long offset, long length) implements Ref {}

        /** A value that cannot be used; reading its key fails with {@code why}. */
        record Bad(String url, String why) implements Ref {}
    }

    /** A malformed document: what is wrong with it. */
    public static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message);
        }
    }

    /**
     * Whether the first bytes of a file are a kerchunk reference document: a JSON object whose first key is
     * {@code version}, {@code refs}, {@code templates} or {@code gen} with a {@code "refs"} key somewhere (v1),
     * or a Zarr key such as {@code .zgroup} (v0). A Zarr {@code .zmetadata} ({@code metadata}) or node is not.
     */
    public static boolean looksLikeReferences(byte[] head) {
        String s = new String(head, StandardCharsets.UTF_8).stripLeading();
        if (!s.startsWith("{")) {
            return false;
        }
        Matcher m = Pattern.compile("^\\{\\s*\"([^\"]{0,200})\"\\s*:").matcher(s);
        if (!m.find()) {
            return false;
        }
        String first = m.group(1);
        if (first.equals("version") || first.equals("refs") || first.equals("templates") || first.equals("gen")) {
            return s.contains("\"refs\"");
        }
        return first.equals(".zgroup")
                || first.equals(".zattrs")
                || first.equals(".zarray")
                || first.equals("zarr.json")
                || first.endsWith("/.zarray")
                || first.endsWith("/.zattrs")
                || first.endsWith("/.zgroup");
    }

    /**
     * Parses a reference document.
     *
     * @param base the reference file's own URL, against which relative target URLs resolve
     */
    public static Map<String, Ref> parse(byte[] json, URI base) throws Malformed {
        Targets targets = new Targets(base);
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            throw new Malformed("not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " at line " + e.getLocation().getLineNr() : ""));
        } catch (java.io.IOException e) {
            throw new Malformed("not valid JSON: " + e.getMessage());
        }
        if (root == null || !root.isObject()) {
            throw new Malformed("the document is not a JSON object");
        }
        Map<String, Ref> refs = new LinkedHashMap<>();
        JsonNode version = root.get("version");
        if (version == null) {
            addAll(refs, (ObjectNode) root, Map.of(), targets);
            return refs;
        }
        if (!version.isInt() || version.asInt() != 1) {
            throw new Malformed("version " + version + " is not supported (0 or 1)");
        }
        Map<String, String> templates = new HashMap<>();
        JsonNode t = root.get("templates");
        if (t != null && !t.isNull()) {
            if (!t.isObject()) {
                throw new Malformed("templates: not an object");
            }
            for (Map.Entry<String, JsonNode> e : t.properties()) {
                if (!e.getValue().isTextual()) {
                    throw new Malformed("templates." + e.getKey() + ": not a string");
                }
                templates.put(e.getKey(), e.getValue().asText());
            }
        }
        JsonNode gen = root.get("gen");
        if (gen != null && !gen.isNull()) {
            if (!gen.isArray()) {
                throw new Malformed("gen: not a list");
            }
            for (int i = 0; i < gen.size(); i++) {
                generate(refs, gen.get(i), i, templates, targets);
            }
        }
        JsonNode r = root.get("refs");
        if (r == null || !r.isObject()) {
            throw new Malformed("version 1 without a \"refs\" object");
        }
        addAll(refs, (ObjectNode) r, templates, targets);
        return refs;
    }

    private static void addAll(Map<String, Ref> refs, ObjectNode node, Map<String, String> templates, Targets targets)
            throws Malformed {
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String key = e.getKey();
            if (key.isEmpty() || key.startsWith("/") || key.contains("\\") || hasDotSegment(key)) {
                throw new Malformed("illegal key '" + key + "'");
            }
            refs.put(key, value(key, e.getValue(), templates, targets));
        }
    }

    private static boolean hasDotSegment(String key) {
        for (String s : key.split("/", -1)) {
            if (s.equals("..") || s.equals(".") || s.isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private static Ref value(String key, JsonNode v, Map<String, String> templates, Targets targets) throws Malformed {
        if (v.isTextual()) {
            String s = v.asText();
            if (s.startsWith("base64:")) {
                try {
                    return new Ref.Inline(
                            Base64.getDecoder().decode(s.substring(7).trim()));
                } catch (IllegalArgumentException e) {
                    return new Ref.Bad(null, "invalid base64 inline value");
                }
            }
            return new Ref.Inline(s.getBytes(StandardCharsets.UTF_8));
        }
        if (v.isObject()) {
            try {
                return new Ref.Inline(MAPPER.writeValueAsBytes(v));
            } catch (JsonProcessingException e) {
                throw new Malformed(key + ": " + e.getOriginalMessage());
            }
        }
        if (v.isArray()) {
            if ((v.size() != 1 && v.size() != 3) || !v.get(0).isTextual()) {
                return new Ref.Bad(null, "not [url] or [url, offset, length]: " + abbreviate(v.toString()));
            }
            String url;
            try {
                url = fill(v.get(0).asText(), templates);
            } catch (Malformed m) {
                return new Ref.Bad(v.get(0).asText(), m.getMessage());
            }
            if (v.size() == 1) {
                return range(url, 0, -1, targets);
            }
            JsonNode off = v.get(1);
            JsonNode len = v.get(2);
            if (!off.canConvertToLong()
                    || !off.isIntegralNumber()
                    || !len.canConvertToLong()
                    || !len.isIntegralNumber()) {
                return new Ref.Bad(
                        url, "offset and length must be whole numbers that fit 64 bits: " + abbreviate(v.toString()));
            }
            return range(url, off.asLong(), len.asLong(), targets);
        }
        return new Ref.Bad(null, "a reference must be a string, an object or a list, not " + abbreviate(v.toString()));
    }

    private static Ref range(String url, long offset, long length, Targets targets) {
        if (offset < 0 || length < -1 || (length == -1 && offset != 0)) {
            return new Ref.Bad(url, "negative offset or length (" + offset + ", " + length + ")");
        }
        if (length > 0 && offset > Long.MAX_VALUE - length) {
            return new Ref.Bad(url, "offset + length overflows (" + offset + ", " + length + ")");
        }
        URI target;
        try {
            target = targets.resolve(url);
        } catch (IllegalArgumentException e) {
            return new Ref.Bad(url, "malformed target URL: " + e.getMessage());
        }
        return new Ref.Range(target, url, offset, length);
    }

    /**
     * The target URLs of one document, each distinct one resolved once: a reference file names a few files in
     * many references, and the references of one file then share one {@link URI}.
     */
    private static final class Targets {
        private final URI base;
        private final Map<String, URI> resolved = new HashMap<>();

        Targets(URI base) {
            this.base = base;
        }

        /** As {@link ReferenceFiles#resolve}. */
        URI resolve(String url) {
            URI u = resolved.get(url);
            if (u == null) {
                u = ReferenceFiles.resolve(url, base);
                resolved.put(url, u);
            }
            return u;
        }
    }

    /** An absolute URL as it is; a relative one (or an absolute local path) against the reference file's URL. */
    static URI resolve(String url, URI base) {
        if (url.isEmpty()) {
            throw new IllegalArgumentException("empty URL");
        }
        if (SCHEME.matcher(url).find()) {
            return URI.create(url.replace(" ", "%20"));
        }
        String encoded =
                url.replace("%", "%25").replace(" ", "%20").replace("#", "%23").replace("?", "%3F");
        return base.resolve(URI.create(encoded));
    }

    private static String fill(String text, Map<String, String> templates) throws Malformed {
        if (!text.contains("{{")) {
            return text;
        }
        Matcher m = TEMPLATE.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            String v = templates.get(m.group(1));
            if (v == null) {
                throw new Malformed("unknown template '{{" + m.group(1) + "}}'");
            }
            m.appendReplacement(b, Matcher.quoteReplacement(v));
        }
        m.appendTail(b);
        return b.toString();
    }

    // gen -------------------------------------------------------------------------------------------

    private static void generate(
            Map<String, Ref> refs, JsonNode g, int index, Map<String, String> templates, Targets targets)
            throws Malformed {
        String where = "gen[" + index + "]";
        if (!g.isObject()) {
            throw new Malformed(where + ": not an object");
        }
        String key = text(g, "key", where, true);
        String url = text(g, "url", where, true);
        String offset = text(g, "offset", where, false);
        String length = text(g, "length", where, false);
        JsonNode dims = g.get("dimensions");
        if (dims == null || !dims.isObject()) {
            throw new Malformed(where + ".dimensions: missing or not an object");
        }
        List<String> names = new ArrayList<>();
        List<List<Object>> values = new ArrayList<>();
        long total = 1;
        for (Map.Entry<String, JsonNode> e : dims.properties()) {
            List<Object> vs = dimension(e.getValue(), where + ".dimensions." + e.getKey());
            names.add(e.getKey());
            values.add(vs);
            total = vs.isEmpty() ? 0 : (total > MAX_GENERATED ? total : total * vs.size());
            if (total > MAX_GENERATED || refs.size() + total > MAX_GENERATED) {
                throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " references");
            }
        }
        int[] at = new int[names.size()];
        Map<String, Object> vars = new HashMap<>();
        for (long n = 0; n < total; n++) {
            for (int d = 0; d < at.length; d++) {
                vars.put(names.get(d), values.get(d).get(at[d]));
            }
            String k = GenExpressions.render(key, vars, templates, where + ".key");
            String u = GenExpressions.render(url, vars, templates, where + ".url");
            Ref r;
            if (offset == null || length == null) {
                r = range(u, 0, -1, targets);
            } else {
                long o = number(GenExpressions.render(offset, vars, templates, where + ".offset"), where + ".offset");
                long l = number(GenExpressions.render(length, vars, templates, where + ".length"), where + ".length");
                r = range(u, o, l, targets);
            }
            refs.put(k, r);
            // itertools.product order: the last dimension varies fastest
            for (int d = at.length - 1; d >= 0; d--) {
                if (++at[d] < values.get(d).size()) {
                    break;
                }
                at[d] = 0;
            }
        }
    }

    private static long number(String s, String where) throws Malformed {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new Malformed(where + ": '" + abbreviate(s) + "' is not a whole number");
        }
    }

    private static String text(JsonNode g, String field, String where, boolean required) throws Malformed {
        JsonNode v = g.get(field);
        if (v == null || v.isNull()) {
            if (required) {
                throw new Malformed(where + "." + field + ": missing");
            }
            return null;
        }
        if (v.isTextual() || v.isIntegralNumber()) {
            return v.asText();
        }
        throw new Malformed(where + "." + field + ": not a string or whole number");
    }

    private static List<Object> dimension(JsonNode d, String where) throws Malformed {
        List<Object> vs = new ArrayList<>();
        if (d.isArray()) {
            if (d.size() > MAX_GENERATED) {
                throw new Malformed(where + ": too many values");
            }
            for (JsonNode v : d) {
                if (v.isIntegralNumber() && v.canConvertToLong()) {
                    vs.add(v.asLong());
                } else if (v.isTextual()) {
                    vs.add(v.asText());
                } else {
                    throw new Malformed(where + ": values must be strings or whole numbers");
                }
            }
            return vs;
        }
        if (d.isObject()) {
            long start = field(d, "start", 0, where);
            long stop = field(d, "stop", Long.MIN_VALUE, where);
            long step = field(d, "step", 1, where);
            if (stop == Long.MIN_VALUE) {
                throw new Malformed(where + ".stop: missing");
            }
            if (step <= 0) {
                throw new Malformed(where + ".step: must be positive");
            }
            if (stop > start && (stop - start) / step > MAX_GENERATED) {
                throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " values");
            }
            for (long v = start; v < stop; v += step) {
                vs.add(v);
            }
            return vs;
        }
        if (d.isIntegralNumber()) {
            // a bare number: range(n)
            long stop = d.asLong();
            if (stop > MAX_GENERATED) {
                throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " values");
            }
            for (long v = 0; v < stop; v++) {
                vs.add(v);
            }
            return vs;
        }
        throw new Malformed(where + ": not a list or {start, stop, step}");
    }

    private static long field(JsonNode d, String name, long dflt, String where) throws Malformed {
        JsonNode v = d.get(name);
        if (v == null || v.isNull()) {
            return dflt;
        }
        if (!v.isIntegralNumber() || !v.canConvertToLong() || Math.abs(v.asLong()) > (1L << 53)) {
            throw new Malformed(where + "." + name + ": not a whole number");
        }
        return v.asLong();
    }

    static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
