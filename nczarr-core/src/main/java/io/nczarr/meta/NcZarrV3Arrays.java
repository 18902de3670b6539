package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The arrays of NCZarr over Zarr v3 (netcdf-c's draft, see {@link NcZarrV3Conventions}): dimensions by
 * full-path reference into any group, char by {@code nczarr_type}, {@code _FillValue} from the attribute.
 */
final class NcZarrV3Arrays {
    private final String dataset;
    private final MetadataSource meta;
    private final Map<String, Dim> groupDims;
    private final Function<ObjectNode, List<Attr>> attributes;

    /**
     * @param groupDims the dimensions of the groups read so far by full path (shared with the reader)
     * @param attributes a node's attributes typed by its {@code _nczarr_attrs}
     */
    NcZarrV3Arrays(
            String dataset,
            MetadataSource meta,
            Map<String, Dim> groupDims,
            Function<ObjectNode, List<Attr>> attributes) {
        this.dataset = dataset;
        this.meta = meta;
        this.groupDims = groupDims;
        this.attributes = attributes;
    }

    private static ObjectNode attributesOf(ObjectNode node) {
        JsonNode a = node.get("attributes");
        return a != null && a.isObject() ? (ObjectNode) a : null;
    }

    /** An NCZarr variable: dimensions by reference, char by nczarr_type, _FillValue from the attribute only. */
    VarModel variable(
            String name,
            String key,
            String nodeKey,
            long[] shape,
            ArrayMeta array,
            ElementType et,
            V3DataTypes.Mapping types,
            ObjectNode attrsNode,
            JsonNode ncz)
            throws IOException {
        if ("char".equals(ncz.path("nczarr_type").asText()) && types.stored().itemsize() == 1) {
            et = new ElementType(NcType.CHAR, ElementType.Layout.NUMERIC, 1, java.nio.ByteOrder.LITTLE_ENDIAN);
        }
        boolean scalar = ncz.path("scalar").asInt(0) != 0;
        long[] ncShape = scalar ? new long[0] : shape.clone();
        List<String> dimPaths = new ArrayList<>();
        JsonNode refs = ncz.get("dimension_references");
        if (!scalar) {
            if (refs == null || !refs.isArray() || refs.size() != shape.length) {
                throw new MetadataException(
                        dataset,
                        nodeKey,
                        "_nczarr_array.dimension_references: " + refs + " is not a list of " + shape.length
                                + " dimensions");
            }
            for (int i = 0; i < shape.length; i++) {
                String ref = refs.get(i).asText("");
                Dim d = dimension(ref);
                if (d == null) {
                    throw new MetadataException(
                            dataset,
                            nodeKey,
                            "_nczarr_array.dimension_references: '" + ref + "' is not a dimension of any group");
                }
                if (d.length() != shape[i] && !d.unlimited()) {
                    throw new MetadataException(
                            dataset,
                            nodeKey,
                            "dimension '" + ref + "' has length " + d.length() + " but the array's shape has "
                                    + shape[i]);
                }
                dimPaths.add(ref);
            }
        }
        List<Attr> attrs = attributes.apply(attrsNode);
        Object fill = et.ncType() == NcType.CHAR
                ? V3Fills.charFill(array.fillValue())
                : V3Fills.fill(dataset, nodeKey, array.fillValue(), types, et);
        Attr fillAttr = null;
        JsonNode explicit = attrsNode == null ? null : attrsNode.get("_FillValue");
        if (explicit != null && !explicit.isNull() && (et.ncType().isNumeric() || et.ncType() == NcType.CHAR)) {
            fillAttr = V3Fills.attribute(dataset, nodeKey, explicit, et.ncType());
            // NCZarr: missing chunks read as the _FillValue attribute, else the fill_value
            Object v = fillAttr.value();
            fill = v instanceof String str
                    ? (Object) (str.isEmpty() ? (byte) 0 : str.getBytes(java.nio.charset.StandardCharsets.UTF_8)[0])
                    : java.lang.reflect.Array.get(v, 0);
        }
        return new VarModel(name, key, dimPaths, ncShape, array, et, fill, VariableBuilder.withFill(fillAttr, attrs));
    }

    /**
     * A dimension by its full path: netcdf-c resolves references from the root, so one may name a
     * dimension of a group not visited yet (a sibling's): that group's {@code _nczarr_group} is read.
     */
    private Dim dimension(String ref) throws IOException {
        Dim d = groupDims.get(ref);
        int slash = ref.lastIndexOf('/');
        if (d != null || !ref.startsWith("/") || slash <= 0) {
            return d;
        }
        String groupKey = ref.substring(1, slash);
        String nodeKey = StoreKeys.join(groupKey, "zarr.json");
        Optional<ObjectNode> node = meta.object(nodeKey);
        if (node.isEmpty() || !"group".equals(node.get().path("node_type").asText())) {
            return null;
        }
        for (Dim g : NcZarrV3Conventions.dimensions(dataset, nodeKey, attributesOf(node.get()))) {
            groupDims.putIfAbsent(ref.substring(0, slash + 1) + g.name(), g);
        }
        return groupDims.get(ref);
    }
}
