package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.StructuredDtype;
import java.util.ArrayList;
import java.util.List;

/**
 * Partial open (SCHEMA.md): an array whose element type has no netCDF rule is left out of an
 * otherwise readable dataset and listed in the root attribute {@code _unreadable_arrays} (char,
 * one line per array, {@code path: reason}). The one implementation for Zarr v2, NCZarr and v3.
 * An array whose type is known but whose codecs cannot decode stays: reading it fails.
 */
final class UnreadableArrays {

    static final String ATTRIBUTE = "_unreadable_arrays";

    private final List<String> lines = new ArrayList<>();

    /** Records one left-out array. */
    void add(String path, String reason) {
        lines.add(path + ": " + reason);
    }

    boolean isEmpty() {
        return lines.isEmpty();
    }

    /** {@code attrs} with the {@code _unreadable_arrays} attribute appended when any array was left out. */
    List<Attr> appendTo(List<Attr> attrs) {
        if (lines.isEmpty()) {
            return attrs;
        }
        List<Attr> all = new ArrayList<>(attrs);
        all.add(new Attr(ATTRIBUTE, NcType.CHAR, String.join("\n", lines)));
        return all;
    }

    /** The root group with the attribute added. */
    GroupModel appendTo(GroupModel root) {
        if (lines.isEmpty()) {
            return root;
        }
        return new GroupModel(
                root.name(),
                root.path(),
                root.key(),
                root.dimensions(),
                appendTo(root.attributes()),
                root.variables(),
                root.groups());
    }

    /**
     * Why a Zarr v2 array's {@code dtype} has no netCDF rule, or {@code null} when it has one or
     * when the metadata is broken rather than of an unknown type (a missing, non-string or
     * unparsable dtype fails the open as before). Complex and structured dtypes are records
     * ({@link io.nczarr.dtype.CompoundType}); a structured dtype with a field of no rule is listed.
     */
    static String v2Reason(JsonNode zarray, boolean nczarr) {
        JsonNode dt = zarray == null ? null : zarray.get("dtype");
        if (dt == null) {
            return null;
        }
        if (dt.isArray()) {
            try {
                StructuredDtype.parse(dt);
                return null;
            } catch (IllegalArgumentException e) {
                return "structured dtype: " + e.getMessage();
            }
        }
        if (!dt.isTextual()) {
            return null;
        }
        NumpyDtype d = NumpyDtype.parseOrNull(dt.textValue());
        if (d == null) {
            return null;
        }
        if (d.kind() == 'M' || d.kind() == 'm') {
            return TimeUnits.of(d.text()) == null
                    ? "dtype '" + d.text() + "' has no CF units rule (only single units W, D, h, m, s, ms, us,"
                            + " ns, ps, fs, as)"
                    : null;
        }
        ElementType et = ElementType.of(d, nczarr);
        if (et == null) {
            return "dtype '" + d.text() + "' has no netCDF mapping";
        }
        if (et.layout() == ElementType.Layout.VLEN_UTF8
                && !hasFilter(zarray, "vlen-utf8")
                && !hasFilter(zarray, "vlen-bytes")) {
            String codec = objectCodec(zarray);
            return codec == null
                    ? "object dtype '" + d.text() + "' without a vlen-utf8 filter has no netCDF mapping"
                    : "object dtype '" + d.text() + "' with the " + codec + " filter has no netCDF mapping"
                            + " (only vlen-utf8 strings and vlen-bytes have one)";
        }
        return null;
    }

    /** The id of the first filter that encodes objects with no netCDF rule (numcodecs' vlen-array, json2, msgpack2, pickle). */
    private static String objectCodec(JsonNode zarray) {
        JsonNode fl = zarray.get("filters");
        if (fl != null && fl.isArray()) {
            for (JsonNode f : fl) {
                String id = f.path("id").asText("");
                if (id.equals("vlen-array") || id.equals("json2") || id.equals("msgpack2") || id.equals("pickle")) {
                    return id;
                }
            }
        }
        return null;
    }

    private static boolean hasFilter(JsonNode zarray, String id) {
        JsonNode fl = zarray.get("filters");
        if (fl == null || !fl.isArray()) {
            return false;
        }
        for (JsonNode f : fl) {
            if (f.isObject() && id.equals(f.path("id").asText(null))) {
                return true;
            }
        }
        return false;
    }
}
