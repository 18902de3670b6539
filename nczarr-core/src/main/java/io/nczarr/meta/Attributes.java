package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Turns {@code .zattrs} JSON into typed attributes: by an NCZarr types map, or inferred from JSON. */
final class Attributes {
    private Attributes() {}

    /** Reader-internal keys never shown as attributes. */
    static boolean isInternal(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.startsWith("_nczarr")
                || name.equals("_ARRAY_DIMENSIONS")
                || name.equals("_NCProperties")
                || name.equals("_Netcdf4Dimid")
                || name.equals("_Netcdf4Coordinates")
                || name.equals("_IsNetcdf4")
                || name.equals("_SuperblockVersion");
    }

    /**
     * The type named by an NCZarr types entry: a dtype ({@code "<i4"}, {@code ">S1"}) or, in
     * NCZarr 1.0, an nc_type number as a string ({@code "4"}). {@code null} for internal JSON
     * ({@code "|J0"}) and anything unknown (the value is then inferred).
     */
    static NcType typeOf(String typeText) {
        if (typeText == null) {
            return null;
        }
        String t = typeText.trim();
        int digits = asciiDigits(t);
        if (digits >= 1 && digits <= 9) {
            return NcType.fromNcTypeNumber(Integer.parseInt(t));
        }
        if (digits > 9) {
            return null; // no nc_type has that many digits
        }
        NumpyDtype dt = NumpyDtype.parseOrNull(t);
        if (dt == null) {
            return null;
        }
        NcType numeric = ElementType.numericType(dt);
        if (numeric != null) {
            return numeric;
        }
        if (dt.kind() == 'S' || dt.kind() == 'U') {
            return dt.length() <= 1 ? NcType.CHAR : NcType.STRING;
        }
        return null;
    }

    /** The length of {@code t} if it is all ASCII digits ({@code \d+}, without a regex per attribute), else -1. */
    private static int asciiDigits(String t) {
        if (t.isEmpty()) {
            return -1;
        }
        for (int i = 0; i < t.length(); i++) {
            char c = t.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
        }
        return t.length();
    }

    /**
     * All user-visible attributes of one object, in file order. {@code types} maps names to NCZarr
     * type strings (may be empty); {@code _FillValue} is left to the caller.
     */
    static List<Attr> parse(String dataset, String key, ObjectNode zattrs, Map<String, String> types) {
        List<Attr> out = new ArrayList<>();
        if (zattrs == null) {
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = zattrs.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String name = e.getKey();
            if (isInternal(name) || name.equals("_FillValue")) {
                continue;
            }
            NcType type = typeOf(types.get(name));
            out.add(type == null ? inferred(name, e.getValue()) : typedOrInferred(name, type, e.getValue()));
        }
        return out;
    }

    /**
     * A value converted to its declared type, or, when the value does not fit that type (a nested
     * list, {@code null}, an object, a number out of range), typed by its JSON value as pure Zarr
     * types it: what an attribute holds never fails the open.
     */
    static Attr typedOrInferred(String name, NcType type, JsonNode v) {
        try {
            return typed(name, type, v);
        } catch (IllegalArgumentException ex) {
            return inferred(name, v);
        }
    }

    /** A value converted to a known type. */
    static Attr typed(String name, NcType type, JsonNode v) {
        switch (type) {
            case CHAR:
                if (v.isTextual()) {
                    return new Attr(name, NcType.CHAR, v.textValue());
                }
                if (v.isArray() && v.size() > 1 && allTextual(v)) {
                    return new Attr(name, NcType.STRING, strings(v));
                }
                if (v.isArray() && v.size() == 1 && v.get(0).isTextual()) {
                    return new Attr(name, NcType.CHAR, v.get(0).textValue());
                }
                // Appendix G: JSON-valued char attributes are stored as raw JSON; read back as text
                return new Attr(name, NcType.CHAR, v.toString(), !v.isNumber());
            case STRING:
                if (v.isTextual()) {
                    return new Attr(name, NcType.STRING, new String[] {v.textValue()});
                }
                if (v.isArray() && allTextual(v)) {
                    return new Attr(name, NcType.STRING, strings(v));
                }
                return new Attr(name, NcType.CHAR, v.toString(), true);
            default:
                return new Attr(name, type, JsonValues.array(type, elements(v)));
        }
    }

    /**
     * Pure-Zarr typing by JSON value (SCHEMA.md): string -> char; bools -> ubyte; integers -> int,
     * int64 or uint64, whichever holds all; any non-integer number -> double; strings -> string;
     * anything else -> char holding the JSON text.
     */
    static Attr inferred(String name, JsonNode v) {
        if (v.isTextual()) {
            return new Attr(name, NcType.CHAR, v.textValue());
        }
        if (v.isArray() && (v.isEmpty() || hasContainer(v)) || v.isNull() || v.isObject()) {
            return jsonText(name, v);
        }
        List<JsonNode> items = elements(v);
        boolean allBool = true;
        boolean allNumber = true;
        boolean allText = true;
        boolean allIntegral = true;
        for (JsonNode n : items) {
            allBool &= n.isBoolean();
            allNumber &= n.isNumber();
            allText &= n.isTextual();
            allIntegral &= n.isIntegralNumber();
        }
        if (allBool) {
            return new Attr(name, NcType.UBYTE, JsonValues.array(NcType.UBYTE, items));
        }
        if (allText) {
            return new Attr(name, NcType.STRING, strings(v));
        }
        if (!allNumber) {
            return jsonText(name, v);
        }
        if (!allIntegral) {
            return new Attr(name, NcType.DOUBLE, JsonValues.array(NcType.DOUBLE, items));
        }
        for (NcType t : new NcType[] {NcType.INT, NcType.INT64, NcType.UINT64}) {
            if (allFit(items, t)) {
                return new Attr(name, t, JsonValues.array(t, items));
            }
        }
        return new Attr(name, NcType.DOUBLE, JsonValues.array(NcType.DOUBLE, items));
    }

    private static Attr jsonText(String name, JsonNode v) {
        return new Attr(name, NcType.CHAR, v.toString(), true);
    }

    private static boolean allFit(List<JsonNode> items, NcType t) {
        for (JsonNode n : items) {
            try {
                JsonValues.toIntegerBits(n, t);
            } catch (IllegalArgumentException e) {
                return false;
            }
        }
        return true;
    }

    /** A list holding a list or an object (a nested list is JSON text, not values). */
    private static boolean hasContainer(JsonNode arr) {
        for (JsonNode n : arr) {
            if (n.isContainerNode()) {
                return true;
            }
        }
        return false;
    }

    private static boolean allTextual(JsonNode arr) {
        for (JsonNode n : arr) {
            if (!n.isTextual()) {
                return false;
            }
        }
        return true;
    }

    private static String[] strings(JsonNode v) {
        if (v.isTextual()) {
            return new String[] {v.textValue()};
        }
        String[] s = new String[v.size()];
        for (int i = 0; i < s.length; i++) {
            s[i] = v.get(i).asText();
        }
        return s;
    }

    /** A scalar as a one-element list, a flat list as itself; nested lists are rejected. */
    static List<JsonNode> elements(JsonNode v) {
        List<JsonNode> out = new ArrayList<>();
        if (v.isArray()) {
            for (JsonNode n : v) {
                if (n.isContainerNode()) {
                    throw new IllegalArgumentException("nested list " + v + " cannot be a numeric attribute");
                }
                out.add(n);
            }
        } else {
            out.add(v);
        }
        return out;
    }
}
