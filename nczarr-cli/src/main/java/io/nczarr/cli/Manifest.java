package io.nczarr.cli;

import com.fasterxml.jackson.databind.JsonNode;
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
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
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

    private static final int HEAD = 8;

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
                vj.set("data", data(v.read(), v.getDataType(), v.isUnsigned()));
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
                mj.set("data", data(a, m.getDataType(), m.isUnsigned()));
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
            aj.put("type", typeName(a.getDataType(), unsigned));
            ArrayNode l = F.arrayNode();
            if (values != null) {
                IndexIterator it = values.getIndexIterator();
                while (it.hasNext()) {
                    l.add(number(it.getObjectNext(), a.getDataType(), unsigned));
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

    /** A value as a manifest number: exact integers (unsigned as such), floats widened exactly. */
    private static JsonNode number(Object v, DataType t, boolean unsigned) {
        switch (t) {
            case FLOAT:
                return finite(((Number) v).floatValue());
            case DOUBLE:
                return finite(((Number) v).doubleValue());
            case LONG: {
                long x = ((Number) v).longValue();
                return unsigned && x < 0 ? F.numberNode(new BigInteger(Long.toUnsignedString(x))) : F.numberNode(x);
            }
            default: {
                long x = ((Number) v).longValue();
                if (unsigned) {
                    x &= (1L << (8 * t.getSize())) - 1;
                }
                return F.numberNode(x);
            }
        }
    }

    private static JsonNode finite(double d) {
        if (Double.isNaN(d)) {
            return F.textNode("NaN");
        }
        if (Double.isInfinite(d)) {
            return F.textNode(d > 0 ? "Infinity" : "-Infinity");
        }
        return F.numberNode(d);
    }

    /** sha256 of the canonical big-endian serialization, count, min/max/sum, head. */
    static ObjectNode data(Array a, DataType t, boolean unsigned) {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        ObjectNode out = F.objectNode();
        ArrayNode head = F.arrayNode();
        long count = 0;
        boolean numeric = t.isNumeric();
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        double sum = 0;
        boolean nan = false;
        ByteBuffer buf = ByteBuffer.allocate(8);
        IndexIterator it = a.getIndexIterator();
        while (it.hasNext()) {
            buf.clear();
            double dv = 0;
            switch (t) {
                case CHAR: {
                    byte b = (byte) it.getCharNext();
                    sha.update(b);
                    if (head.size() < HEAD) {
                        head.add(b & 0xff);
                    }
                    break;
                }
                case STRING: {
                    String s = String.valueOf(it.getObjectNext());
                    sha.update(s.getBytes(StandardCharsets.UTF_8));
                    sha.update((byte) 0);
                    if (head.size() < HEAD) {
                        head.add(s);
                    }
                    break;
                }
                case FLOAT: {
                    float f = it.getFloatNext();
                    buf.putInt(Float.isNaN(f) ? 0x7fc00000 : Float.floatToRawIntBits(f));
                    dv = f;
                    break;
                }
                case DOUBLE: {
                    double d = it.getDoubleNext();
                    buf.putLong(Double.isNaN(d) ? 0x7ff8000000000000L : Double.doubleToRawLongBits(d));
                    dv = d;
                    break;
                }
                case BYTE: {
                    byte b = it.getByteNext();
                    buf.put(b);
                    dv = unsigned ? b & 0xff : b;
                    break;
                }
                case SHORT: {
                    short s = it.getShortNext();
                    buf.putShort(s);
                    dv = unsigned ? s & 0xffff : s;
                    break;
                }
                case INT: {
                    int i = it.getIntNext();
                    buf.putInt(i);
                    dv = unsigned ? i & 0xffffffffL : i;
                    break;
                }
                case LONG: {
                    long l = it.getLongNext();
                    buf.putLong(l);
                    dv = unsigned && l < 0 ? new BigInteger(Long.toUnsignedString(l)).doubleValue() : l;
                    break;
                }
                case OPAQUE: {
                    // opaque (vlen-bytes), a rule SCHEMA.md does not have yet: each element as its
                    // length (4 bytes, big-endian) and its bytes; no head
                    ByteBuffer o = ((ByteBuffer) it.getObjectNext()).duplicate();
                    byte[] bytes = new byte[o.remaining()];
                    o.get(bytes);
                    sha.update(ByteBuffer.allocate(4).putInt(bytes.length).array());
                    sha.update(bytes);
                    break;
                }
                default:
                    throw new IllegalArgumentException("unsupported type " + t);
            }
            if (numeric) {
                sha.update(buf.array(), 0, buf.position());
                if (Double.isNaN(dv)) {
                    nan = true;
                }
                min = Math.min(min, dv);
                max = Math.max(max, dv);
                sum += dv;
                if (head.size() < HEAD) {
                    head.add(headNumber(buf, t, unsigned, dv));
                }
            }
            count++;
        }
        out.put("sha256", HexFormat.of().formatHex(sha.digest()));
        out.put("count", count);
        if (numeric) {
            if (count == 0) {
                out.putNull("min");
                out.putNull("max");
                out.put("sum", 0.0);
            } else if (nan) {
                out.put("min", "NaN");
                out.put("max", "NaN");
                out.put("sum", "NaN");
            } else {
                out.set("min", finite(min));
                out.set("max", finite(max));
                out.set("sum", finite(sum));
            }
        }
        out.set("head", head);
        return out;
    }

    private static JsonNode headNumber(ByteBuffer buf, DataType t, boolean unsigned, double dv) {
        switch (t) {
            case FLOAT:
            case DOUBLE:
                return finite(dv);
            case LONG: {
                long l = buf.getLong(0);
                return unsigned && l < 0 ? F.numberNode(new BigInteger(Long.toUnsignedString(l))) : F.numberNode(l);
            }
            default:
                return F.numberNode((long) dv);
        }
    }
}
