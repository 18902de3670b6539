package io.nczarr.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Structure;
import ucar.nc2.Variable;

/**
 * Writes the conformance manifest ({@code zarr-conformance-manifest/1}, shared/conformance/SCHEMA.md)
 * of any NetcdfFile: ours, or CDM's HDF5 reader on a twin. Everything comes from the CDM view
 * except one thing CDM 4.5.5 cannot express: a one-element string attribute looks exactly like
 * a char attribute there, so for our files the model's attribute type decides.
 */
public final class Manifest {
    private Manifest() {}

    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    public static final ObjectMapper MAPPER = new ObjectMapper();

    /** Not attributes in the manifest: reader-internal or CDL-virtual names. */
    private static final Set<String> HIDDEN = Set.of(
            "_ARRAY_DIMENSIONS",
            "_NCProperties",
            "_Netcdf4Dimid",
            "_Netcdf4Coordinates",
            "_IsNetcdf4",
            "_SuperblockVersion",
            "_ChunkSizes",
            "_ChunkSize",
            "_Endianness",
            "_Storage",
            "_Filter",
            "_Codecs",
            "_NoFill",
            "_Format",
            "_DeflateLevel",
            "_Shuffle",
            "_Fletcher32");

    public static ObjectNode of(NetcdfFile nc, String name) {
        Map<String, NcType> modelTypes = modelAttributeTypes(NcZarrFiles.model(nc));
        ObjectNode root = F.objectNode();
        root.put("schema", "zarr-conformance-manifest/1");
        root.put("name", name);
        ObjectNode groups = root.putObject("groups");
        ObjectNode vars = root.putObject("variables");
        addGroup(nc.getRootGroup(), groups, vars, modelTypes);
        return root;
    }

    private static void addGroup(Group g, ObjectNode groups, ObjectNode vars, Map<String, NcType> modelTypes) {
        String path = groupPath(g);
        ObjectNode gj = groups.putObject(path);
        ObjectNode dims = gj.putObject("dimensions");
        for (Dimension d : g.getDimensions()) {
            dims.put(d.getShortName(), d.getLength());
        }
        gj.set("attributes", attributes(g.getAttributes(), path, false, modelTypes));
        for (Variable v : g.getVariables()) {
            String vpath = childPath(path, v.getShortName());
            ObjectNode vj = vars.putObject(vpath);
            vj.put("type", typeName(v.getDataType(), v.isUnsigned()));
            ArrayNode vd = vj.putArray("dimensions");
            for (Dimension d : v.getDimensions()) {
                vd.add(childPath(groupPath(d.getGroup()), d.getShortName()));
            }
            ArrayNode shape = vj.putArray("shape");
            for (int s : v.getShape()) {
                shape.add(s);
            }
            vj.set("attributes", attributes(v.getAttributes(), vpath, v.isUnsigned(), modelTypes));
            if (v instanceof Structure st) {
                vj.putObject("data").put("count", v.getSize());
                addMembers(st, vpath, vd, vars);
                continue;
            }
            try {
                vj.set("data", ManifestValues.data(v.read(), v.getDataType(), v.isUnsigned()));
            } catch (IOException | RuntimeException e) {
                vj.putObject("data").put("error", String.valueOf(e.getMessage()));
            }
        }
        for (Group c : g.getGroups()) {
            addGroup(c, groups, vars, modelTypes);
        }
    }

    /**
     * Structures (complex numbers, structured dtypes), a rule SCHEMA.md does not have yet: the
     * structure itself is listed with {@code "type": "structure"}, its dimensions, shape and
     * attributes and {@code "data": {"count": records}}; every leaf member is listed as a variable
     * of its own at {@code "<structure path>.<member>"} (nested: {@code ".<outer>.<inner>"}) with its
     * type, {@code "shape"} = the structure's shape, then each enclosing nested member's sub-array
     * shape, then its own; {@code "dimensions"} = the structure's dimension paths followed by one
     * {@code null} per further (anonymous) axis; its attributes; and the usual value summary of all
     * its values in C order over that shape (record by record).
     */
    private static void addMembers(Structure st, String path, ArrayNode dims, ObjectNode vars) {
        for (Variable m : st.getVariables()) {
            String mpath = path + "." + m.getShortName();
            if (m instanceof Structure nested) {
                addMembers(nested, mpath, dims, vars);
                continue;
            }
            ObjectNode mj = vars.putObject(mpath);
            mj.put("type", typeName(m.getDataType(), m.isUnsigned()));
            mj.set("attributes", attributes(m.getAttributes(), mpath, m.isUnsigned(), Map.of()));
            try {
                Array a = m.read();
                ArrayNode md = mj.putArray("dimensions");
                md.addAll(dims);
                ArrayNode shape = mj.putArray("shape");
                for (int i = 0; i < a.getRank(); i++) {
                    shape.add(a.getShape()[i]);
                    if (i >= dims.size()) {
                        md.addNull();
                    }
                }
                mj.set("data", ManifestValues.data(a, m.getDataType(), m.isUnsigned()));
            } catch (IOException | RuntimeException e) {
                mj.putObject("data").put("error", String.valueOf(e.getMessage()));
            }
        }
    }

    static String groupPath(Group g) {
        if (g == null || g.isRoot()) {
            return "/";
        }
        return childPath(groupPath(g.getParentGroup()), g.getShortName());
    }

    private static String childPath(String parent, String name) {
        return parent.equals("/") ? "/" + name : parent + "/" + name;
    }

    /** "owner path" + "\0" + attribute name -> model type, for our own files. */
    private static Map<String, NcType> modelAttributeTypes(DatasetModel model) {
        Map<String, NcType> m = new HashMap<>();
        if (model != null) {
            collect(model.root(), m);
        }
        return m;
    }

    private static void collect(GroupModel g, Map<String, NcType> m) {
        for (Attr a : g.attributes()) {
            m.put(g.path() + "\0" + a.name(), a.type());
        }
        for (VarModel v : g.variables()) {
            String vp = childPath(g.path(), v.name());
            for (Attr a : v.attributes()) {
                m.put(vp + "\0" + a.name(), a.type());
            }
        }
        for (GroupModel c : g.groups()) {
            collect(c, m);
        }
    }

    private static ObjectNode attributes(
            List<Attribute> atts, String owner, boolean ownerUnsigned, Map<String, NcType> modelTypes) {
        ObjectNode out = F.objectNode();
        for (Attribute a : atts) {
            String n = a.getShortName();
            if (HIDDEN.contains(n)
                    || n.toLowerCase().startsWith("_nczarr")
                    || (ownerUnsigned && n.equals("_Unsigned"))) {
                continue;
            }
            ObjectNode aj = out.putObject(n);
            Array values = a.getValues();
            if (a.getDataType() == DataType.STRING) {
                NcType mt = modelTypes.get(owner + "\0" + n);
                boolean string = mt != null ? mt == NcType.STRING : a.getLength() > 1;
                if (string) {
                    aj.put("type", "string");
                    if (a.getLength() == 1) {
                        aj.put("value", a.getStringValue());
                    } else {
                        ArrayNode l = aj.putArray("value");
                        for (int i = 0; i < a.getLength(); i++) {
                            l.add(a.getStringValue(i));
                        }
                    }
                } else {
                    aj.put("type", "char");
                    aj.put("value", stripNuls(a.getStringValue()));
                }
                continue;
            }
            if (a.getDataType() == DataType.CHAR) {
                aj.put("type", "char");
                aj.put("value", stripNuls(values == null ? "" : values.toString()));
                continue;
            }
            boolean unsigned = a.isUnsigned()
                    || (values != null && values.isUnsigned())
                    || (ownerUnsigned && n.equals("_FillValue"));
            NcType modelType = modelTypes.get(owner + "\0" + n);
            // an unsigned variable's _FillValue is given to cdm in a wider signed type (CdmValues): its own type here
            aj.put(
                    "type",
                    ownerUnsigned && n.equals("_FillValue") && modelType != null && modelType.isUnsigned()
                            ? modelType.cdlName()
                            : typeName(a.getDataType(), unsigned));
            ArrayNode l = F.arrayNode();
            if (values != null) {
                IndexIterator it = values.getIndexIterator();
                while (it.hasNext()) {
                    l.add(ManifestValues.number(it.getObjectNext(), a.getDataType(), unsigned));
                }
            }
            aj.set("value", l.size() == 1 ? l.get(0) : l);
        }
        return out;
    }

    private static String stripNuls(String s) {
        int e = s.length();
        while (e > 0 && s.charAt(e - 1) == 0) {
            e--;
        }
        return s.substring(0, e);
    }

    /** SCHEMA.md's type names: the CDL names, and {@code enum1/2/4}, {@code structure}, {@code opaque}... otherwise. */
    static String typeName(DataType t, boolean unsigned) {
        String cdl = t.isEnum() ? null : CdlWriter.typeName(t, unsigned);
        return cdl != null ? cdl : t.toString().toLowerCase(Locale.ROOT);
    }
}
