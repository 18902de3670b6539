package io.nczarr.store.kerchunk;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.error.LimitExceededException;
import io.nczarr.store.kerchunk.ReferenceFiles.Malformed;
import io.nczarr.store.kerchunk.ReferenceFiles.Ref;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code gen} entries of kerchunk reference files: each expanded over the cartesian product of its {@code
 * dimensions} (ranges {@code {"start", "stop", "step"}}, bare numbers or lists), with {@code {{expr}}} in its
 * key, url, offset and length evaluated by {@link GenExpressions}. Nothing proportional to the expansion is
 * made before it is checked: a range is never materialised, the product is computed arithmetically, and the
 * whole expansion (estimated from its first reference) is checked against the budget before it is expanded.
 */
final class ReferenceGen {
    /** The most references a {@code gen} section may expand to. */
    static final long MAX_GENERATED = 1L << 22;

    private ReferenceGen() {}

    /** One dimension's values, computed on demand. */
    private interface Values {
        long size();

        Object get(long i);
    }

    private record Listed(List<Object> values) implements Values {
        @Override
        public long size() {
            return values.size();
        }

        @Override
        public Object get(long i) {
            return values.get((int) i);
        }
    }

    private record Ranged(long start, long step, long size) implements Values {
        @Override
        public Object get(long i) {
            return start + i * step;
        }
    }

    static void generate(
            Map<String, Ref> refs,
            JsonNode g,
            int index,
            Map<String, String> templates,
            ReferenceFiles.Targets targets,
            ReferenceBudget budget)
            throws Malformed, LimitExceededException {
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
        List<Values> values = new ArrayList<>();
        long total = 1;
        for (Map.Entry<String, JsonNode> e : dims.properties()) {
            Values vs = dimension(e.getValue(), where + ".dimensions." + e.getKey());
            names.add(e.getKey());
            values.add(vs);
            total = vs.size() == 0 ? 0 : (total > MAX_GENERATED ? total : total * vs.size());
            if (total > MAX_GENERATED || refs.size() + total > MAX_GENERATED) {
                throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " references");
            }
        }
        if (total == 0) {
            return;
        }
        int n = names.size();
        long[] at = new long[n];
        Map<String, Object> vars = new HashMap<>();
        boolean first = true;
        for (long i = 0; i < total; i++) {
            for (int d = 0; d < n; d++) {
                vars.put(names.get(d), values.get(d).get(at[d]));
            }
            String k = GenExpressions.render(key, vars, templates, where + ".key");
            String u = GenExpressions.render(url, vars, templates, where + ".url");
            if (first) {
                // the whole expansion, each reference as large as the first, before any (URLs are charged as they come)
                long each = ReferenceBudget.reference(k.length(), 0);
                budget.check(
                        total > Long.MAX_VALUE / each ? Long.MAX_VALUE : total * each,
                        where + ": " + total + " generated references");
                first = false;
            }
            Ref r;
            if (offset == null || length == null) {
                r = ReferenceFiles.range(u, 0, -1, targets);
            } else {
                long o = number(GenExpressions.render(offset, vars, templates, where + ".offset"), where + ".offset");
                long l = number(GenExpressions.render(length, vars, templates, where + ".length"), where + ".length");
                r = ReferenceFiles.range(u, o, l, targets);
            }
            budget.charge(ReferenceBudget.reference(k.length(), 0), "the references");
            refs.put(k, r);
            // itertools.product order: the last dimension varies fastest
            for (int d = n - 1; d >= 0; d--) {
                if (++at[d] < values.get(d).size()) {
                    break;
                }
                at[d] = 0;
            }
        }
    }

    /** The {@code templates} of a version 1 document. */
    static Map<String, String> templates(JsonNode t) throws Malformed {
        Map<String, String> templates = new HashMap<>();
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
        return templates;
    }

    private static long number(String s, String where) throws Malformed {
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            throw new Malformed(where + ": '" + ReferenceFiles.abbreviate(s) + "' is not a whole number");
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

    private static Values dimension(JsonNode d, String where) throws Malformed {
        if (d.isArray()) {
            if (d.size() > MAX_GENERATED) {
                throw new Malformed(where + ": too many values");
            }
            List<Object> vs = new ArrayList<>(d.size());
            for (JsonNode v : d) {
                if (v.isIntegralNumber() && v.canConvertToLong()) {
                    vs.add(v.asLong());
                } else if (v.isTextual()) {
                    vs.add(v.asText());
                } else {
                    throw new Malformed(where + ": values must be strings or whole numbers");
                }
            }
            return new Listed(vs);
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
            return ranged(start, stop, step, where);
        }
        if (d.isIntegralNumber()) {
            // a bare number: range(n)
            if (!d.canConvertToLong()) {
                throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " values");
            }
            return ranged(0, d.asLong(), 1, where);
        }
        throw new Malformed(where + ": not a list or {start, stop, step}");
    }

    /** Python's {@code range(start, stop, step)}, its size computed, not its values. */
    private static Values ranged(long start, long stop, long step, String where) throws Malformed {
        long size = stop > start ? (stop - start - 1) / step + 1 : 0;
        if (size > MAX_GENERATED) {
            throw new Malformed(where + ": expands to more than " + MAX_GENERATED + " values");
        }
        return new Ranged(start, step, size);
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
}
