package io.nczarr.store.kerchunk;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.nczarr.error.LimitExceededException;
import io.nczarr.store.ByteLimit;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
    public static final long MAX_GENERATED = ReferenceGen.MAX_GENERATED;

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
     * Parses a reference document, without bounds on its references (tests).
     *
     * @param base the reference file's own URL, against which relative target URLs resolve
     */
    public static Map<String, Ref> parse(byte[] json, URI base) throws Malformed {
        try {
            return parse(json, base, base.toString(), new ByteLimit("(none)", Long.MAX_VALUE));
        } catch (LimitExceededException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Parses a reference document, streaming: what its references take in memory (estimated, {@link
     * ReferenceBudget}) is checked against {@code limit} as they are made, and a {@code gen} section for its
     * whole expansion before it is expanded.
     *
     * @param base the reference file's own URL, against which relative target URLs resolve
     * @param location the reference file, for messages
     * @throws LimitExceededException when the references would take more than {@code limit}
     */
    public static Map<String, Ref> parse(byte[] json, URI base, String location, ByteLimit limit)
            throws Malformed, LimitExceededException {
        ReferenceBudget budget = new ReferenceBudget(location, limit);
        Targets targets = new Targets(base, budget);
        Map<String, Ref> refs = new LinkedHashMap<>();
        try {
            // pass 1: the top-level keys; version, templates and gen (small) read whole, the rest skipped
            Map<String, JsonNode> head = new HashMap<>();
            try (JsonParser p = MAPPER.getFactory().createParser(json)) {
                if (p.nextToken() != JsonToken.START_OBJECT) {
                    throw new Malformed("the document is not a JSON object");
                }
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    p.nextToken();
                    if (name.equals("version") || name.equals("templates") || name.equals("gen")) {
                        head.put(name, MAPPER.readTree(p));
                    } else {
                        p.skipChildren();
                    }
                }
            }
            JsonNode version = head.get("version");
            if (version == null) {
                // version 0: the document is the references
                try (JsonParser p = MAPPER.getFactory().createParser(json)) {
                    p.nextToken();
                    addAll(refs, p, Map.of(), targets, budget);
                }
                return refs;
            }
            if (!version.isInt() || version.asInt() != 1) {
                throw new Malformed("version " + version + " is not supported (0 or 1)");
            }
            Map<String, String> templates = ReferenceGen.templates(head.get("templates"));
            JsonNode gen = head.get("gen");
            if (gen != null && !gen.isNull()) {
                if (!gen.isArray()) {
                    throw new Malformed("gen: not a list");
                }
                for (int i = 0; i < gen.size(); i++) {
                    ReferenceGen.generate(refs, gen.get(i), i, templates, targets, budget);
                }
            }
            boolean found = false;
            try (JsonParser p = MAPPER.getFactory().createParser(json)) {
                p.nextToken();
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String name = p.currentName();
                    JsonToken t = p.nextToken();
                    if (name.equals("refs") && t == JsonToken.START_OBJECT && !found) {
                        addAll(refs, p, templates, targets, budget);
                        found = true;
                    } else {
                        p.skipChildren();
                    }
                }
            }
            if (!found) {
                throw new Malformed("version 1 without a \"refs\" object");
            }
            return refs;
        } catch (JsonProcessingException e) {
            throw new Malformed("not valid JSON: " + e.getOriginalMessage()
                    + (e.getLocation() != null ? " at line " + e.getLocation().getLineNr() : ""));
        } catch (LimitExceededException e) {
            throw e;
        } catch (java.io.IOException e) {
            throw new Malformed("not valid JSON: " + e.getMessage());
        }
    }

    /** The entries of the object {@code p} is at the start of, one at a time, each charged as it is made. */
    private static void addAll(
            Map<String, Ref> refs, JsonParser p, Map<String, String> templates, Targets targets, ReferenceBudget budget)
            throws java.io.IOException, Malformed {
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String key = p.currentName();
            if (key.isEmpty() || key.startsWith("/") || key.contains("\\") || hasDotSegment(key)) {
                throw new Malformed("illegal key '" + key + "'");
            }
            JsonToken t = p.nextToken();
            Ref r;
            if (t == JsonToken.VALUE_STRING) {
                budget.check(ReferenceBudget.reference(key.length(), p.getTextLength()), "the references");
                r = text(p.getText());
            } else {
                JsonNode v = MAPPER.readTree(p);
                r = value(key, v, templates, targets);
            }
            budget.charge(
                    ReferenceBudget.reference(key.length(), r instanceof Ref.Inline i ? i.bytes().length : 0),
                    "the references");
            // (a range's URL is charged once per distinct URL, by Targets)
            refs.put(key, r);
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

    /** An inline string value: its UTF-8 bytes, or the bytes of {@code "base64:..."}. */
    private static Ref text(String s) {
        if (s.startsWith("base64:")) {
            try {
                return new Ref.Inline(Base64.getDecoder().decode(s.substring(7).trim()));
            } catch (IllegalArgumentException e) {
                return new Ref.Bad(null, "invalid base64 inline value");
            }
        }
        return new Ref.Inline(s.getBytes(StandardCharsets.UTF_8));
    }

    static Ref value(String key, JsonNode v, Map<String, String> templates, Targets targets)
            throws Malformed, LimitExceededException {
        if (v.isTextual()) {
            return text(v.asText());
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
                url = targets.fill(v.get(0).asText(), templates);
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

    static Ref range(String url, long offset, long length, Targets targets) throws LimitExceededException {
        if (offset < 0 || length < -1 || (length == -1 && offset != 0)) {
            return new Ref.Bad(url, "negative offset or length (" + offset + ", " + length + ")");
        }
        if (length > 0 && offset > Long.MAX_VALUE - length) {
            return new Ref.Bad(url, "offset + length overflows (" + offset + ", " + length + ")");
        }
        Target target;
        try {
            target = targets.resolve(url);
        } catch (IllegalArgumentException e) {
            return new Ref.Bad(url, "malformed target URL: " + e.getMessage());
        }
        // the references to one URL share its string and URI
        return new Ref.Range(target.uri(), target.url(), offset, length);
    }

    /** A target URL as written (templates filled in) and resolved. */
    record Target(String url, URI uri) {}

    /**
     * The target URLs of one document, each distinct one resolved once: a reference file names a few files in
     * many references, and the references of one file then share one {@link URI}.
     */
    static final class Targets {
        private final URI base;
        private final ReferenceBudget budget;
        private final Map<String, Target> resolved = new HashMap<>();
        /** URLs with templates, each filled once: the references to one templated URL share one string. */
        private final Map<String, String> filled = new HashMap<>();

        Targets(URI base, ReferenceBudget budget) {
            this.base = base;
            this.budget = budget;
        }

        /** As {@link ReferenceFiles#resolve}; each distinct URL made and charged once. */
        Target resolve(String url) throws LimitExceededException {
            Target t = resolved.get(url);
            if (t == null) {
                budget.charge(ReferenceBudget.url(url.length()), "the target URLs of the references");
                t = new Target(url, ReferenceFiles.resolve(url, base));
                resolved.put(url, t);
            }
            return t;
        }

        /** {@code {{name}}} in {@code text} replaced by its template, its length checked before it is built. */
        String fill(String text, Map<String, String> templates) throws Malformed, LimitExceededException {
            if (!text.contains("{{")) {
                return text;
            }
            String f = filled.get(text);
            if (f == null) {
                budget.check(ReferenceBudget.url(filledLength(text, templates)), "a URL with its templates filled in");
                f = ReferenceFiles.fill(text, templates);
                filled.put(text, f);
            }
            return f;
        }

        /** The length of {@code text} with its templates filled in (unknown templates count as nothing). */
        private static long filledLength(String text, Map<String, String> templates) {
            Matcher m = TEMPLATE.matcher(text);
            long n = text.length();
            while (m.find()) {
                String v = templates.get(m.group(1));
                n += (v == null ? 0 : v.length()) - (m.end() - m.start());
            }
            return n;
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

    static String fill(String text, Map<String, String> templates) throws Malformed {
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

    static String abbreviate(String s) {
        return s.length() > 120 ? s.substring(0, 120) + "..." : s;
    }
}
