package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.ElementType;
import io.nczarr.model.GroupModel;
import io.nczarr.model.V3Layout;
import io.nczarr.model.VarModel;
import io.nczarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads pure Zarr v3 ({@code zarr.json} per node) into the model, following SCHEMA.md's "Zarr v3"
 * rules: the hierarchy by listing or from inline consolidated metadata, dimensions from
 * {@code dimension_names} shared by name in the root (anonymous {@code _zdim_<len>} otherwise),
 * attributes typed from their JSON values, {@code _FillValue} only from the attribute (xarray's
 * base64 form included; the v3 {@code fill_value} fills missing chunks and marks nothing missing,
 * see {@link V3Fills}). Arrays whose data type has no netCDF rule are left out
 * and listed in the root attribute {@code _unreadable_arrays}.
 *
 * <p>With {@code nczarr} (NCZarr over v3, see {@link NcZarrV3Conventions}): each group's
 * dimensions and members come from {@code _nczarr_group}, a variable's dimensions from
 * {@code _nczarr_array.dimension_references}, attribute types from {@code _nczarr_attrs}, uint8
 * with {@code nczarr_type: "char"} is char, and {@code _FillValue} is reported only as an attribute.
 */
final class ZarrV3Reader {

    private static final Set<String> GROUP_FIELDS =
            Set.of("zarr_format", "node_type", "attributes", "consolidated_metadata");
    private static final Set<String> ARRAY_FIELDS = Set.of(
            "zarr_format",
            "node_type",
            "attributes",
            "shape",
            "data_type",
            "chunk_grid",
            "chunk_key_encoding",
            "fill_value",
            "codecs",
            "dimension_names",
            "storage_transformers");

    private final String dataset;
    private final MetadataSource meta;
    private final Map<String, Dim> rootDims = new LinkedHashMap<>();
    private final Map<String, String> dimOrigin = new LinkedHashMap<>();
    private final UnreadableArrays unreadable = new UnreadableArrays();
    /** NCZarr: every group dimension by full path, for dimension references */
    private final Map<String, Dim> groupDims = new LinkedHashMap<>();

    private final NcZarrV3Arrays nczarrArrays;

    private final boolean nczarr;
    private final V3Fields fields;

    ZarrV3Reader(String dataset, MetadataSource meta, boolean nczarr) {
        this.dataset = dataset;
        this.fields = new V3Fields(dataset);
        this.meta = meta;
        this.nczarr = nczarr;
        this.nczarrArrays = new NcZarrV3Arrays(dataset, meta, groupDims, this::attributeList);
    }

    /** Reads the hierarchy below the root node {@code root}. */
    GroupModel read(ObjectNode root) throws IOException {
        checkNode(root, "zarr.json");
        GroupModel g = "group".equals(root.path("node_type").asText()) ? readGroup("", "/", "", root) : loneArray(root);
        List<Attr> attrs = unreadable.appendTo(g.attributes());
        List<Dim> dims = nczarr ? g.dimensions() : new ArrayList<>(rootDims.values());
        return new GroupModel(g.name(), g.path(), g.key(), dims, attrs, g.variables(), g.groups());
    }

    /** A root that is one array: a root group with that variable, named by {@link LoneArray#name}. */
    private GroupModel loneArray(ObjectNode root) throws IOException {
        String name = LoneArray.name(dataset);
        VarModel v = readArray(name, "", "/" + name, root);
        return new GroupModel("", "/", "", List.of(), List.of(), v == null ? List.of() : List.of(v), List.of());
    }

    /** zarr_format 3 and no extension this reader must understand. */
    private void checkNode(ObjectNode node, String key) throws IOException {
        JsonNode zf = node.get("zarr_format");
        if (zf == null || !zf.isNumber() || zf.asInt() != 3) {
            throw new MetadataException(dataset, key, "zarr_format " + zf + " is not 3");
        }
        String type = node.path("node_type").asText();
        if (!type.equals("group") && !type.equals("array")) {
            throw new MetadataException(dataset, key, "node_type '" + type + "' is neither group nor array");
        }
        Set<String> known = type.equals("group") ? GROUP_FIELDS : ARRAY_FIELDS;
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            if (!known.contains(e.getKey()) && !optional(e.getValue())) {
                throw unsupported(
                        key,
                        null,
                        "Zarr v3 extension '" + e.getKey() + "'",
                        "extension field '" + e.getKey() + "' must be understood (must_understand is not false)");
            }
        }
    }

    /** An extension object that says it may be ignored. */
    private static boolean optional(JsonNode v) {
        return v.isObject()
                && v.has("must_understand")
                && v.get("must_understand").isBoolean()
                && !v.get("must_understand").booleanValue();
    }

    private UnsupportedFeatureException unsupported(String key, String variable, String feature, String detail) {
        return new UnsupportedFeatureException(dataset, key, variable, feature, detail, null);
    }

    private GroupModel readGroup(String name, String path, String key, ObjectNode node) throws IOException {
        String nodeKey = StoreKeys.join(key, "zarr.json");
        GroupDepth.check(dataset, nodeKey, path);
        ObjectNode attrsNode = attributes(node, nodeKey);
        List<Attr> attrs = attributeList(attrsNode);
        List<Dim> dims = List.of();
        List<String> listed = null;
        if (nczarr) {
            dims = NcZarrV3Conventions.dimensions(dataset, nodeKey, attrsNode);
            for (Dim d : dims) {
                groupDims.put(path.equals("/") ? "/" + d.name() : path + "/" + d.name(), d);
            }
            // the members _nczarr_group lists: no listing needed (no LIST on S3)
            listed = NcZarrV3Conventions.members(attrsNode);
        }
        List<String> children = new ArrayList<>();
        for (String c : listed != null ? listed : meta.children(key)) {
            if (!c.startsWith(".") && !c.equals("zarr.json")) {
                children.add(c);
            }
        }
        meta.prefetch(MetadataSource.objectsOf(key, children, "zarr.json"));
        List<VarModel> vars = new ArrayList<>();
        List<GroupModel> groups = new ArrayList<>();
        for (String child : children) {
            String childKey = StoreKeys.join(key, child);
            String childNodeKey = StoreKeys.join(childKey, "zarr.json");
            Optional<ObjectNode> n = meta.object(childNodeKey);
            if (n.isEmpty()) {
                if (listed != null) {
                    throw new MetadataException(
                            dataset,
                            nodeKey,
                            "_nczarr_group names '" + child + "' but " + childNodeKey + " does not exist");
                }
                continue; // not a node (e.g. a stray folder)
            }
            checkNode(n.get(), childNodeKey);
            if ("array".equals(n.get().path("node_type").asText())) {
                String childPath = path.equals("/") ? "/" + child : path + "/" + child;
                VarModel v = readArray(child, childKey, childPath, n.get());
                if (v != null) {
                    vars.add(v);
                }
            } else {
                String childPath = path.equals("/") ? "/" + child : path + "/" + child;
                groups.add(readGroup(child, childPath, childKey, n.get()));
            }
        }
        return new GroupModel(name, path, key, dims, attrs, vars, groups);
    }

    private ObjectNode attributes(ObjectNode node, String key) throws MetadataException {
        JsonNode a = node.get("attributes");
        if (a == null || a.isNull()) {
            return null;
        }
        if (!a.isObject()) {
            throw new MetadataException(dataset, key, "attributes: not an object");
        }
        return (ObjectNode) a;
    }

    /**
     * User attributes typed from their JSON values as for v2 {@code .zattrs}; a nested list (which
     * has no netCDF type) is char JSON, as SCHEMA.md says. What an attribute holds never fails the open.
     */
    private List<Attr> attributeList(ObjectNode attrs) {
        List<Attr> out = new ArrayList<>();
        if (attrs == null) {
            return out;
        }
        Map<String, String> types = nczarr ? NcZarrV3Conventions.attributeTypes(attrs) : Map.of();
        for (Map.Entry<String, JsonNode> e : attrs.properties()) {
            String name = e.getKey();
            JsonNode v = e.getValue();
            if (Attributes.isInternal(name) || name.equals("_FillValue")) {
                continue;
            }
            String type = types.get(name);
            Attr a = null;
            if (type != null) {
                try {
                    a = NcZarrV3Conventions.typed(name, type, v);
                } catch (IllegalArgumentException ex) {
                    a = null; // the value does not fit its declared type: typed by its JSON value
                }
            }
            out.add(a != null ? a : Attributes.inferred(name, v));
        }
        return out;
    }

    /** The variable, or {@code null} when its data type has no netCDF rule (listed as unreadable). */
    private VarModel readArray(String name, String key, String path, ObjectNode node) throws IOException {
        String nodeKey = StoreKeys.join(key, "zarr.json");
        JsonNode dataType = node.get("data_type");
        V3DataTypes.Mapping types = V3DataTypes.of(dataType);
        if (types == null) {
            unreadable.add(path, V3DataTypes.unsupportedReason(dataType));
            return null;
        }
        long[] shape = fields.longs(nodeKey, node.get("shape"), "shape");
        V3Fields.Grid grid;
        try {
            grid = fields.grid(nodeKey, node, shape);
        } catch (MetadataException e) {
            throw e.withContext(dataset, nodeKey, name);
        }
        int[] chunks = grid.chunks();
        JsonNode keyEnc = node.get("chunk_key_encoding");
        String encoding = keyEnc == null ? "default" : keyEnc.path("name").asText("");
        if (!encoding.equals("default") && !encoding.equals("v2")) {
            throw unsupported(
                    nodeKey,
                    name,
                    "chunk_key_encoding " + encoding,
                    "chunk_key_encoding: '" + encoding + "' is not supported (default, v2)");
        }
        boolean defaultKeys = encoding.equals("default");
        String sep = keyEnc == null
                ? "/"
                : keyEnc.path("configuration").path("separator").asText(defaultKeys ? "/" : ".");
        if (!sep.equals("/") && !sep.equals(".")) {
            throw new MetadataException(
                    dataset, nodeKey, "chunk_key_encoding: separator '" + sep + "' is neither '/' nor '.'");
        }
        JsonNode st = node.get("storage_transformers");
        if (st != null && st.isArray()) {
            for (JsonNode t : st) {
                if (!optional(t)) {
                    throw unsupported(
                            nodeKey,
                            name,
                            "storage transformer " + V3DataTypes.name(t),
                            "storage_transformers: '" + V3DataTypes.name(t) + "' is not supported");
                }
            }
        }
        JsonNode codecs = node.get("codecs");
        if (codecs == null || !codecs.isArray()) {
            throw new MetadataException(dataset, nodeKey, "codecs: missing or not a list");
        }
        ArrayMeta array = new ArrayMeta(
                shape,
                chunks,
                types.decoded(),
                node.get("fill_value"),
                false,
                null,
                List.of(),
                sep,
                new V3Layout(V3DataTypes.name(dataType), types.stored(), codecs, defaultKeys, sep, grid.edges()),
                types.compound());
        ElementType et = types.compound() != null
                ? ElementType.record(types.compound())
                : V3DataTypes.isBytes(dataType)
                        ? ElementType.vlenBytes()
                        : V3DataTypes.isRaw(types)
                                ? ElementType.fixedOpaque(types.stored().itemsize())
                                : ElementType.of(types.decoded(), false);
        if (et == null) {
            throw new MetadataException(dataset, nodeKey, "data_type: '" + dataType.textValue() + "' is not supported");
        }
        ObjectNode attrsNode = attributes(node, nodeKey);
        JsonNode ncz = NcZarrV3Conventions.array(attrsNode);
        if (nczarr && ncz.isObject()) {
            return nczarrArrays.variable(name, key, nodeKey, shape, array, et, types, attrsNode, ncz);
        }
        List<String> dimPaths = dimensions(nodeKey, node.get("dimension_names"), shape);
        List<Attr> attrs = VariableBuilder.withTimeUnits(types.time(), attributeList(attrsNode));
        Object fill = V3Fills.fill(dataset, nodeKey, node.get("fill_value"), types, et);
        Attr fillAttr = V3Fills.pureAttribute(dataset, nodeKey, attrsNode, fill, types, et);
        return new VarModel(
                name, key, dimPaths, shape.clone(), array, et, fill, VariableBuilder.withFill(fillAttr, attrs));
    }

    /** Root dimension paths from {@code dimension_names} ({@code null} entries: {@code _zdim_<len>}). */
    private List<String> dimensions(String nodeKey, JsonNode names, long[] shape) throws MetadataException {
        if (names != null && !names.isNull() && (!names.isArray() || names.size() != shape.length)) {
            throw new MetadataException(
                    dataset, nodeKey, "dimension_names: " + names + " is not a list of " + shape.length + " names");
        }
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < shape.length; i++) {
            JsonNode n = names == null || names.isNull() ? null : names.get(i);
            if (n != null
                    && !n.isNull()
                    && (!n.isTextual()
                            || n.textValue().isEmpty()
                            || n.textValue().contains("/"))) {
                throw new MetadataException(dataset, nodeKey, "dimension_names: " + n + " is not a dimension name");
            }
            String dn = n == null || n.isNull() ? "_zdim_" + shape[i] : n.textValue();
            Dim prev = rootDims.get(dn);
            if (prev == null) {
                rootDims.put(dn, new Dim(dn, shape[i], false));
                dimOrigin.put(dn, nodeKey);
            } else if (prev.length() != shape[i]) {
                throw new MetadataException(
                        dataset,
                        nodeKey,
                        "dimension '" + dn + "' has length " + shape[i] + " here but " + prev.length() + " in "
                                + dimOrigin.get(dn));
            }
            paths.add("/" + dn);
        }
        return paths;
    }
}
