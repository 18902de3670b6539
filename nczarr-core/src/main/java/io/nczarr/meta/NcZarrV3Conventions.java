package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.NcType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * NCZarr over Zarr v3 (netcdf-c's draft): the {@code _nczarr_*} keys in {@code zarr.json}
 * attributes, in both spellings found (the object forms of netcdf-c's {@code zformat3.c} and the
 * list forms of the {@code docs/nczarr.md} appendix).
 */
final class NcZarrV3Conventions {
    private NcZarrV3Conventions() {}

    /** The superblock's version when the root attributes carry one, else {@code null}. */
    static String superblockVersion(ObjectNode rootAttrs) {
        if (rootAttrs == null) {
            return null;
        }
        JsonNode sb = rootAttrs.get("_nczarr_superblock");
        if (sb == null) {
            sb = rootAttrs.get("_NCZARR_SUPERBLOCK");
        }
        if (sb == null || !sb.isObject()) {
            return null;
        }
        return sb.path("version").asText("3.0.0");
    }

    /**
     * A group's dimensions from {@code _nczarr_group.dimensions}: {@code {name: {"size", "unlimited"}}},
     * {@code {name: n}} or {@code [{"name", "size", "unlimited"}]}.
     */
    static List<Dim> dimensions(String dataset, String key, ObjectNode attrs) throws MetadataException {
        List<Dim> out = new ArrayList<>();
        JsonNode dims = group(attrs).get("dimensions");
        if (dims == null || dims.isNull()) {
            return out;
        }
        if (dims.isObject()) {
            for (Map.Entry<String, JsonNode> e : dims.properties()) {
                out.add(dim(dataset, key, e.getKey(), e.getValue()));
            }
        } else if (dims.isArray()) {
            for (JsonNode d : dims) {
                out.add(dim(dataset, key, d.path("name").asText(""), d));
            }
        } else {
            throw new MetadataException(dataset, key, "_nczarr_group.dimensions: neither an object nor a list");
        }
        return out;
    }

    private static Dim dim(String dataset, String key, String name, JsonNode v) throws MetadataException {
        JsonNode size = v.isObject() ? v.get("size") : v;
        if (name.isEmpty() || name.contains("/") || size == null || !size.canConvertToLong() || size.asLong(-1) < 0) {
            throw new MetadataException(dataset, key, "_nczarr_group.dimensions: bad dimension '" + name + "': " + v);
        }
        boolean unlimited = v.isObject() && v.path("unlimited").asInt(0) != 0;
        return new Dim(name, size.asLong(), unlimited);
    }

    /**
     * The child names {@code _nczarr_group} lists ({@code arrays} then {@code groups}, or the draft's
     * documented spelling {@code subgroups}), or {@code null}.
     */
    static List<String> members(ObjectNode attrs) {
        JsonNode g = group(attrs);
        if (!g.has("arrays") && !g.has("groups") && !g.has("subgroups")) {
            return null;
        }
        List<String> out = new ArrayList<>();
        for (String field : new String[] {"arrays", "groups", "subgroups"}) {
            for (JsonNode n : g.path(field)) {
                if (n.isTextual()) {
                    out.add(n.textValue());
                }
            }
        }
        return out;
    }

    private static JsonNode group(ObjectNode attrs) {
        return attrs == null
                ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                : attrs.path("_nczarr_group");
    }

    /** {@code _nczarr_attrs.attribute_types} as name → type: object form or list of {@code {name, configuration: {type}}}. */
    static Map<String, String> attributeTypes(ObjectNode attrs) {
        Map<String, String> out = new LinkedHashMap<>();
        JsonNode types = attrs == null ? null : attrs.path("_nczarr_attrs").get("attribute_types");
        if (types == null) {
            return out;
        }
        if (types.isObject()) {
            types.properties().forEach(e -> out.put(e.getKey(), e.getValue().asText()));
        } else if (types.isArray()) {
            for (JsonNode t : types) {
                JsonNode type = t.path("configuration").get("type");
                if (t.path("name").isTextual() && type != null && type.isTextual()) {
                    out.put(t.get("name").textValue(), type.textValue());
                }
            }
        }
        return out;
    }

    /** The array's {@code _nczarr_array} object (missing node if absent). */
    static JsonNode array(ObjectNode attrs) {
        return attrs == null
                ? com.fasterxml.jackson.databind.node.MissingNode.getInstance()
                : attrs.path("_nczarr_array");
    }

    /** An attribute typed by an NCZarr v3 type name ({@code int32}, {@code char}, {@code json}...); {@code null} if unknown. */
    static Attr typed(String name, String type, JsonNode v) {
        if (type.equals("json")) {
            return v.isTextual()
                    ? new Attr(name, NcType.CHAR, v.textValue(), true)
                    : new Attr(name, NcType.CHAR, v.toString(), true);
        }
        NcType t = ncType(type);
        if (t == null) {
            t = Attributes.typeOf(type);
        }
        return t == null ? null : Attributes.typed(name, t, v);
    }

    private static NcType ncType(String type) {
        switch (type) {
            case "char":
                return NcType.CHAR;
            case "string":
                return NcType.STRING;
            case "int8":
                return NcType.BYTE;
            case "uint8":
                return NcType.UBYTE;
            case "int16":
                return NcType.SHORT;
            case "uint16":
                return NcType.USHORT;
            case "int32":
                return NcType.INT;
            case "uint32":
                return NcType.UINT;
            case "int64":
                return NcType.INT64;
            case "uint64":
                return NcType.UINT64;
            case "float32":
                return NcType.FLOAT;
            case "float64":
                return NcType.DOUBLE;
            default:
                return null;
        }
    }
}
