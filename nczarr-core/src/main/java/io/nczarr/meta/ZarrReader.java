package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.Dim;
import io.nczarr.model.ElementType;
import io.nczarr.model.GroupModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.StoreKeys;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads pure Zarr v2 by walking the hierarchy (listing, or {@code .zmetadata}). Dimensions follow
 * netcdf-c 4.9.0: names from xarray's {@code _ARRAY_DIMENSIONS} (unless {@code noxarray}), else
 * anonymous {@code _zdim_<len>}; all of them live in the root group.
 */
final class ZarrReader {

    private final MetadataSource meta;
    private final String dataset;
    private final boolean xarray;
    /** root-group dimensions by name, in order of first use */
    private final Map<String, Dim> rootDims = new LinkedHashMap<>();
    /** where each dimension was first defined, for conflict messages */
    private final Map<String, String> dimOrigin = new LinkedHashMap<>();

    private final UnreadableArrays unreadable = new UnreadableArrays();

    ZarrReader(String dataset, MetadataSource meta, boolean xarray) {
        this.dataset = dataset;
        this.meta = meta;
        this.xarray = xarray;
    }

    /** dimensions named by a group path ({@code "obs/station"}, kerchunk), by group path then name */
    private final Map<String, Map<String, Dim>> pathDims = new LinkedHashMap<>();

    GroupModel read() throws IOException {
        return rooted(withPathDims(readGroup("", "/", "")));
    }

    /** A root that is one array ({@code .zarray}): a root group with that variable, named by {@link LoneArray#name}. */
    GroupModel readLoneArray(ObjectNode zarray) throws IOException {
        String name = LoneArray.name(dataset);
        String reason = UnreadableArrays.v2Reason(zarray, false);
        List<VarModel> vars = new ArrayList<>();
        if (reason != null) {
            unreadable.add("/" + name, reason);
        } else {
            vars.add(readArray(name, "", zarray));
        }
        return rooted(new GroupModel("", "/", "", List.of(), List.of(), vars, List.of()));
    }

    /** The root with the dimensions found on the way and the list of unreadable arrays. */
    private GroupModel rooted(GroupModel root) {
        List<Dim> dims = new ArrayList<>(rootDims.values());
        return new GroupModel(
                root.name(),
                root.path(),
                root.key(),
                dims,
                unreadable.appendTo(root.attributes()),
                root.variables(),
                root.groups());
    }

    /** The groups with the dimensions {@code _ARRAY_DIMENSIONS} placed in them by path. */
    private GroupModel withPathDims(GroupModel g) {
        List<GroupModel> children = new ArrayList<>();
        for (GroupModel c : g.groups()) {
            children.add(withPathDims(c));
        }
        Map<String, Dim> own = pathDims.get(g.path());
        List<Dim> dims = new ArrayList<>(g.dimensions());
        if (own != null && !g.path().equals("/")) {
            dims.addAll(own.values());
        }
        return new GroupModel(g.name(), g.path(), g.key(), dims, g.attributes(), g.variables(), children);
    }

    /** Whether a group path ({@code "obs"}, {@code "a/b"}) exists in the store. */
    private boolean groupExists(String groupPath) throws IOException {
        return meta.object(StoreKeys.join(groupPath, ".zgroup")).isPresent();
    }

    private GroupModel readGroup(String name, String path, String key) throws IOException {
        GroupDepth.check(dataset, StoreKeys.join(key, ".zgroup"), path);
        ObjectNode zattrs = meta.object(StoreKeys.join(key, ".zattrs")).orElse(null);
        List<Attr> attrs = Attributes.parse(dataset, StoreKeys.join(key, ".zattrs"), zattrs, Map.of());
        List<VarModel> vars = new ArrayList<>();
        List<GroupModel> groups = new ArrayList<>();
        List<String> children = meta.children(key);
        // every child's .zarray is looked at, and .zattrs is read for arrays and groups alike
        meta.prefetch(MetadataSource.objectsOf(
                key, children.stream().filter(c -> !c.startsWith(".")).toList(), ".zarray", ".zattrs"));
        for (String child : children) {
            if (child.startsWith(".")) {
                continue;
            }
            String childKey = StoreKeys.join(key, child);
            Optional<ObjectNode> zarray = meta.object(StoreKeys.join(childKey, ".zarray"));
            if (zarray.isPresent()) {
                checkName(StoreKeys.join(childKey, ".zarray"), child);
                String reason = UnreadableArrays.v2Reason(zarray.get(), false);
                if (reason != null) {
                    unreadable.add(path.equals("/") ? "/" + child : path + "/" + child, reason);
                    continue;
                }
                vars.add(readArray(child, childKey, zarray.get()));
                continue;
            }
            if (meta.object(StoreKeys.join(childKey, ".zgroup")).isPresent()) {
                checkName(StoreKeys.join(childKey, ".zgroup"), child);
                String childPath = path.equals("/") ? "/" + child : path + "/" + child;
                groups.add(readGroup(child, childPath, childKey));
            }
        }
        return new GroupModel(name, path, key, List.of(), attrs, vars, groups);
    }

    private VarModel readArray(String name, String key, ObjectNode zarray) throws IOException {
        String zarrayKey = StoreKeys.join(key, ".zarray");
        String zattrsKey = StoreKeys.join(key, ".zattrs");
        ArrayMeta array = ArrayMeta.parse(dataset, zarrayKey, zarray);
        ObjectNode zattrs = meta.object(zattrsKey).orElse(null);
        ElementType et = VariableBuilder.elementType(dataset, zarrayKey, array, false);

        long[] shape = array.shape();
        List<String> dimNames = dimensionNames(zattrs, shape.length);
        List<String> dimPaths = new ArrayList<>();
        for (int i = 0; i < shape.length; i++) {
            String dn = dimNames != null ? dimNames.get(i) : "_zdim_" + shape[i];
            int slash = dn.lastIndexOf('/');
            if (slash > 0) {
                // kerchunk names a netCDF-4 group's dimension by its path: it is defined in that group
                Map<String, Dim> in =
                        pathDims.computeIfAbsent("/" + dn.substring(0, slash), k -> new LinkedHashMap<>());
                String simple = dn.substring(slash + 1);
                Dim prev = in.get(simple);
                if (prev == null) {
                    in.put(simple, new Dim(simple, shape[i], false));
                    dimOrigin.put("/" + dn, key);
                } else if (prev.length() != shape[i]) {
                    throw new MetadataException(
                            dataset,
                            zarrayKey,
                            "dimension '" + dn + "' has length " + shape[i] + " here but " + prev.length() + " in "
                                    + dimOrigin.get("/" + dn));
                }
                dimPaths.add("/" + dn);
                continue;
            }
            Dim prev = rootDims.get(dn);
            if (prev == null) {
                rootDims.put(dn, new Dim(dn, shape[i], false));
                dimOrigin.put(dn, key);
            } else if (prev.length() != shape[i]) {
                throw new MetadataException(
                        dataset,
                        zarrayKey,
                        "dimension '" + dn + "' has length " + shape[i] + " here but " + prev.length() + " in "
                                + dimOrigin.get(dn));
            }
            dimPaths.add("/" + dn);
        }

        Object fill = VariableBuilder.zarrayFill(dataset, zarrayKey, array, et);
        List<Attr> attrs =
                VariableBuilder.withTimeUnits(array.dtype(), Attributes.parse(dataset, zattrsKey, zattrs, Map.of()));
        Attr fillAttr = null;
        if (et.ncType().isNumeric()) {
            JsonNode explicit = zattrs == null ? null : zattrs.get("_FillValue");
            if (explicit != null && !explicit.isNull()) {
                fillAttr = VariableBuilder.fillAttribute(dataset, zattrsKey, explicit, et.ncType());
            } else if (fill != null) {
                fillAttr = new Attr("_FillValue", et.ncType(), VariableBuilder.boxedToArray(fill, et.ncType()));
            }
        }
        return new VarModel(
                name, key, dimPaths, shape.clone(), array, et, fill, VariableBuilder.withFill(fillAttr, attrs));
    }

    private void checkName(String key, String name) throws MetadataException {
        String problem = Names.objectProblem(name);
        if (problem != null) {
            throw new MetadataException(dataset, key, "illegal object name '" + name + "': " + problem);
        }
    }

    /** xarray's names if usable: a list of strings of the array's rank ({@code null} otherwise). */
    private List<String> dimensionNames(ObjectNode zattrs, int rank) throws IOException {
        if (!xarray || zattrs == null || rank == 0) {
            return null;
        }
        JsonNode ad = zattrs.get("_ARRAY_DIMENSIONS");
        if (ad == null || !ad.isArray() || ad.size() != rank) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (JsonNode n : ad) {
            if (!n.isTextual() || !usable(n.textValue())) {
                return null;
            }
            names.add(n.textValue());
        }
        return names;
    }

    /** A plain name, or a group path and a name ({@code "obs/station"}) of a group that exists. */
    private boolean usable(String name) throws IOException {
        if (!name.contains("/")) {
            return Names.problem(name) == null;
        }
        String[] parts = name.split("/", -1);
        for (String p : parts) {
            if (p.isEmpty() || p.equals(".") || p.equals("..") || Names.problem(p) != null) {
                return false;
            }
        }
        String group = name.substring(0, name.lastIndexOf('/'));
        return StoreKeys.isSafe(group) && groupExists(group);
    }
}
