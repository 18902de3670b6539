package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.ElementType;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads NCZarr metadata in every spelling netcdf-c has written: NCZarr 1.0 ({@code .nczgroup},
 * {@code .nczarray}/{@code .nczvar}, {@code .nczattrs}/{@code .nczattr} objects), 2.0 upper-case
 * keys in {@code .zgroup}/{@code .zarray} (4.8.1-4.9.0), lower-case (4.9.1-4.9.2) and everything
 * in {@code .zattrs} (4.9.3+). Groups and variables come from the group lists, never from listing.
 */
final class NcZarrReader {

    private final MetadataSource meta;
    private final String dataset;
    /** full dimension path ("/g1/x") -> dimension */
    private final Map<String, Dim> allDims = new HashMap<>();

    private final UnreadableArrays unreadable = new UnreadableArrays();

    NcZarrReader(String dataset, MetadataSource meta) {
        this.meta = meta;
        this.dataset = dataset;
    }

    /** One group's NCZarr metadata before variables are built. */
    private record GroupInfo(
            String name,
            String path,
            String key,
            List<Dim> dims,
            List<Attr> attrs,
            List<String> varNames,
            List<GroupInfo> groups) {}

    GroupModel read() throws IOException {
        GroupInfo root = readGroupInfo("", "/", "");
        return unreadable.appendTo(build(root));
    }

    private static JsonNode either(ObjectNode o, String... names) {
        if (o == null) {
            return null;
        }
        for (String n : names) {
            JsonNode v = o.get(n);
            if (v != null && !v.isNull()) {
                return v;
            }
        }
        return null;
    }

    private GroupInfo readGroupInfo(String name, String path, String key) throws IOException {
        String zgroupKey = StoreKeys.join(key, ".zgroup");
        GroupDepth.check(dataset, zgroupKey, path);
        ObjectNode zgroup = meta.object(zgroupKey).orElse(null);
        ObjectNode zattrs = meta.object(StoreKeys.join(key, ".zattrs")).orElse(null);
        JsonNode groupMeta = either(zgroup, "_nczarr_group", "_NCZARR_GROUP");
        String where = zgroupKey;
        if (groupMeta == null) {
            groupMeta = either(zattrs, "_nczarr_group", "_NCZARR_GROUP");
            where = StoreKeys.join(key, ".zattrs");
        }
        if (groupMeta == null) {
            Optional<ObjectNode> v1 = meta.object(StoreKeys.join(key, ".nczgroup"));
            groupMeta = v1.orElse(null);
            where = StoreKeys.join(key, ".nczgroup");
        }
        if (groupMeta == null) {
            if (zgroup == null) {
                throw new MetadataException(dataset, zgroupKey, "group '" + path + "' is listed but has no .zgroup");
            }
            throw new MetadataException(
                    dataset, zgroupKey, "no NCZarr group metadata (_nczarr_group) for group '" + path + "'");
        }
        if (!groupMeta.isObject()) {
            throw new MetadataException(dataset, where, "_nczarr_group is not an object");
        }
        List<Dim> dims = new ArrayList<>();
        JsonNode dimsNode = either((ObjectNode) groupMeta, "dimensions", "dims");
        if (dimsNode != null) {
            if (!dimsNode.isObject()) {
                throw new MetadataException(dataset, where, "dims: not an object");
            }
            var it = dimsNode.properties().iterator();
            while (it.hasNext()) {
                var e = it.next();
                Dim d = parseDim(where, e.getKey(), e.getValue());
                dims.add(d);
                allDims.put(childPath(path, d.name()), d);
            }
        }
        List<String> varNames = names(where, either((ObjectNode) groupMeta, "arrays", "vars"), "vars");
        List<String> groupNames = names(where, either((ObjectNode) groupMeta, "groups"), "groups");
        checkUnique(where, path, varNames, groupNames);
        // every listed variable's .zarray/.zattrs and subgroup's .zgroup/.zattrs will be read
        // (an illegal name fails below, before its objects are used)
        meta.prefetch(MetadataSource.objectsOf(key, varNames, ".zarray", ".zattrs"));
        meta.prefetch(MetadataSource.objectsOf(key, groupNames, ".zgroup", ".zattrs"));

        Map<String, String> types = attributeTypes(key, zattrs);
        List<Attr> attrs = Attributes.parse(dataset, StoreKeys.join(key, ".zattrs"), zattrs, types);

        List<GroupInfo> groups = new ArrayList<>();
        for (String g : groupNames) {
            checkName(where, g);
            groups.add(readGroupInfo(g, childPath(path, g), StoreKeys.join(key, g)));
        }
        return new GroupInfo(name, path, key, dims, attrs, varNames, groups);
    }

    /** The NCZarr attribute types of the object at {@code key} (a group's or a variable's prefix). */
    private Map<String, String> attributeTypes(String key, ObjectNode zattrs) throws IOException {
        Map<String, String> types = new LinkedHashMap<>();
        JsonNode attrMeta = either(zattrs, "_nczarr_attr", "_NCZARR_ATTR");
        if (attrMeta != null) {
            VariableBuilder.putTypes(dataset, StoreKeys.join(key, ".zattrs"), "_nczarr_attr", attrMeta, types);
            return types;
        }
        // NCZarr 1.0 keeps the types in a separate object (not worth a request otherwise)
        for (String k : new String[] {".nczattrs", ".nczattr"}) {
            String v1Key = StoreKeys.join(key, k);
            Optional<ObjectNode> o = meta.object(v1Key);
            if (o.isPresent()) {
                VariableBuilder.putTypes(dataset, v1Key, k, o.get(), types);
                break;
            }
        }
        return types;
    }

    private Dim parseDim(String where, String name, JsonNode v) throws MetadataException {
        checkName(where, name);
        long len;
        boolean unlimited = false;
        JsonNode size = v.isObject() ? v.get("size") : v;
        if (size == null || !(size.isIntegralNumber() && size.canConvertToLong() || size.isTextual())) {
            throw new MetadataException(dataset, where, "dimension '" + name + "': length " + v + " is not an integer");
        }
        try {
            len = size.isTextual() ? Long.parseLong(size.textValue().trim()) : size.longValue();
        } catch (NumberFormatException e) {
            throw new MetadataException(dataset, where, "dimension '" + name + "': length " + v + " is not an integer");
        }
        if (len < 0) {
            throw new MetadataException(dataset, where, "dimension '" + name + "': negative length " + len);
        }
        if (v.isObject() && v.get("unlimited") != null) {
            JsonNode u = v.get("unlimited");
            unlimited = u.asBoolean() || u.asInt() != 0;
        }
        return new Dim(name, len, unlimited);
    }

    private List<String> names(String where, JsonNode list, String field) throws MetadataException {
        List<String> out = new ArrayList<>();
        if (list == null) {
            return out;
        }
        if (!list.isArray()) {
            throw new MetadataException(dataset, where, field + ": not a list");
        }
        for (JsonNode n : list) {
            if (!n.isTextual()) {
                throw new MetadataException(dataset, where, field + ": " + n + " is not a name");
            }
            out.add(n.textValue());
        }
        return out;
    }

    /**
     * A group lists each name once, and no name both as a variable and as a subgroup: netCDF wants
     * names unique within a group, and the two would share one store prefix.
     */
    private void checkUnique(String where, String path, List<String> varNames, List<String> groupNames)
            throws MetadataException {
        Set<String> vars = new HashSet<>();
        for (String v : varNames) {
            if (!vars.add(v)) {
                throw new MetadataException(
                        dataset, where, "vars: group '" + path + "' lists variable '" + v + "' twice");
            }
        }
        Set<String> groups = new HashSet<>();
        for (String g : groupNames) {
            if (!groups.add(g)) {
                throw new MetadataException(
                        dataset, where, "groups: group '" + path + "' lists subgroup '" + g + "' twice");
            }
            if (vars.contains(g)) {
                throw new MetadataException(
                        dataset, where, "group '" + path + "' lists '" + g + "' both as a variable and as a subgroup");
            }
        }
    }

    private void checkName(String where, String name) throws MetadataException {
        String problem = Names.objectProblem(name);
        if (problem != null) {
            throw new MetadataException(dataset, where, "illegal object name '" + name + "': " + problem);
        }
    }

    private static String childPath(String groupPath, String name) {
        return groupPath.equals("/") ? "/" + name : groupPath + "/" + name;
    }

    private GroupModel build(GroupInfo g) throws IOException {
        List<VarModel> vars = new ArrayList<>();
        for (String v : g.varNames()) {
            checkName(g.key().isEmpty() ? ".zgroup" : g.key() + "/.zgroup", v);
            VarModel vm = readVariable(v, StoreKeys.join(g.key(), v), childPath(g.path(), v));
            if (vm != null) {
                vars.add(vm);
            }
        }
        List<GroupModel> groups = new ArrayList<>();
        for (GroupInfo c : g.groups()) {
            groups.add(build(c));
        }
        return new GroupModel(g.name(), g.path(), g.key(), g.dims(), g.attrs(), vars, groups);
    }

    /** The variable, or {@code null} when its dtype has no netCDF rule (listed as unreadable). */
    private VarModel readVariable(String name, String key, String path) throws IOException {
        String zarrayKey = StoreKeys.join(key, ".zarray");
        ObjectNode zarray = meta.object(zarrayKey)
                .orElseThrow(() -> new MetadataException(
                        dataset,
                        zarrayKey,
                        "variable '" + name + "' is listed in its group's NCZarr metadata but has no " + zarrayKey));
        String reason = UnreadableArrays.v2Reason(zarray, true);
        if (reason != null) {
            unreadable.add(path, reason);
            return null;
        }
        ObjectNode zattrs = meta.object(StoreKeys.join(key, ".zattrs")).orElse(null);
        ArrayMeta array = ArrayMeta.parse(dataset, zarrayKey, zarray).withNetcdfCFilters();

        JsonNode varMeta = either(zarray, "_nczarr_array", "_NCZARR_ARRAY");
        String where = zarrayKey;
        if (varMeta == null) {
            varMeta = either(zattrs, "_nczarr_array", "_NCZARR_ARRAY");
            where = StoreKeys.join(key, ".zattrs");
        }
        for (String k : new String[] {".nczarray", ".nczvar"}) {
            if (varMeta == null) {
                varMeta = meta.object(StoreKeys.join(key, k)).orElse(null);
                where = StoreKeys.join(key, k);
            }
        }
        if (varMeta == null || !varMeta.isObject()) {
            throw new MetadataException(
                    dataset, zarrayKey, "no NCZarr array metadata (_nczarr_array) for variable '" + name + "'");
        }
        JsonNode storage = varMeta.get("storage");
        JsonNode scalarFlag = varMeta.get("scalar");
        boolean scalar = storage != null && "scalar".equals(storage.asText())
                || scalarFlag != null && (scalarFlag.asBoolean() || scalarFlag.asInt() != 0)
                || array.shape().length == 0;

        List<String> dimPaths = new ArrayList<>();
        long[] shape;
        if (scalar) {
            long n = 1;
            for (long s : array.shape()) {
                n *= s;
            }
            if (n != 1) {
                throw new MetadataException(
                        dataset,
                        zarrayKey,
                        "scalar variable '" + name + "' has shape " + java.util.Arrays.toString(array.shape()));
            }
            shape = new long[0];
        } else {
            List<String> refs =
                    names(where, either((ObjectNode) varMeta, "dimension_references", "dimrefs"), "dimrefs");
            if (refs.size() != array.shape().length) {
                throw new MetadataException(
                        dataset,
                        where,
                        "dimrefs: " + refs.size() + " dimension references for a " + array.shape().length + "-d array");
            }
            for (int i = 0; i < refs.size(); i++) {
                String ref = refs.get(i).startsWith("/") ? refs.get(i) : "/" + refs.get(i);
                Dim d = allDims.get(ref);
                if (d == null) {
                    throw new MetadataException(
                            dataset,
                            where,
                            "dimrefs: dimension '" + refs.get(i) + "' of variable '" + name
                                    + "' is not defined by any group");
                }
                if (d.length() != array.shape()[i]) {
                    throw new MetadataException(
                            dataset,
                            zarrayKey,
                            "dimension " + ref + " has length " + d.length() + " but the array shape is "
                                    + java.util.Arrays.toString(array.shape()));
                }
                dimPaths.add(ref);
            }
            shape = array.shape().clone();
        }

        ElementType et = VariableBuilder.elementType(dataset, zarrayKey, array, true);
        Map<String, String> types = attributeTypes(key, zattrs);
        String zattrsKey = StoreKeys.join(key, ".zattrs");
        List<Attr> attrs =
                VariableBuilder.withTimeUnits(array.dtype(), Attributes.parse(dataset, zattrsKey, zattrs, types));
        // a record type has no _FillValue attribute in CDM: its fill is the .zarray fill_value
        Attr fillAttr = et.ncType() == NcType.STRUCTURE
                ? null
                : VariableBuilder.fillAttribute(
                        dataset, zattrsKey, zattrs == null ? null : zattrs.get("_FillValue"), et.ncType());
        Object fill = fillAttr != null
                ? FillValues.attributeValue(zattrs.get("_FillValue"), et.ncType())
                : VariableBuilder.zarrayFill(dataset, zarrayKey, array, et);
        return new VarModel(name, key, dimPaths, shape, array, et, fill, VariableBuilder.withFill(fillAttr, attrs));
    }
}
