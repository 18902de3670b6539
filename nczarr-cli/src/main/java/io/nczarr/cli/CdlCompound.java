package io.nczarr.cli;

import java.io.IOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.ArrayStructure;
import ucar.ma2.DataType;
import ucar.ma2.StructureData;
import ucar.ma2.StructureMembers;
import ucar.nc2.Group;
import ucar.nc2.Structure;
import ucar.nc2.Variable;

/**
 * The user-defined types of one group's CDL, as ncdump prints them: a {@code compound} type for every
 * structure variable (structured dtypes, complex numbers; nested structures get their own, declared first)
 * and a {@code ubyte(*)} (vlen) type for every opaque variable (variable-length byte strings here; CDL's
 * {@code opaque(N)} is fixed-size), in a {@code types:} section before the dimensions, and their values:
 * {@code {1, {2.5, 3}, {"ab"}}} for a record (an array member in braces, a char member as a string in braces),
 * {@code {0, 255, 120}} for an opaque element. The types are named after the variable
 * ({@code rec_t}; a nested member's {@code rec_n_t}), since Zarr gives them no names.
 */
final class CdlCompound {
    /** Declaration text by type name, in declaration order (inner types first). */
    private final Map<String, String> declarations = new LinkedHashMap<>();
    /** The type name of each structure or opaque variable of the group. */
    private final Map<Variable, String> typeOf = new LinkedHashMap<>();

    private CdlCompound() {}

    /** The types of {@code g}'s own variables. */
    static CdlCompound of(Group g, Set<String> taken) throws IOException {
        CdlCompound c = new CdlCompound();
        for (Variable v : g.getVariables()) {
            if (v instanceof Structure s) {
                c.typeOf.put(v, c.compound(s, v.getShortName(), taken));
            } else if (v.getDataType() == DataType.OPAQUE) {
                // this project's opaque values are variable-length byte strings (numcodecs vlen-bytes, Zarr v3
                // bytes): netCDF-4's vlen of ubyte, as ncdump prints one; CDL's opaque(N) is fixed-size
                String name = c.unique(v.getShortName() + "_t", taken);
                c.declarations.put(name, "ubyte(*) " + CdlWriter.name(name) + " ;");
                c.typeOf.put(v, name);
            }
        }
        return c;
    }

    /** Whether the variable's type is one of these (then the CDL can show it). */
    static boolean handles(Variable v) {
        return v instanceof Structure || v.getDataType() == DataType.OPAQUE;
    }

    /** The CDL type name of a structure or opaque variable of the group, or {@code null}. */
    String typeName(Variable v) {
        String t = typeOf.get(v);
        return t == null ? null : CdlWriter.name(t);
    }

    /** {@code types:} and the declarations, nothing when the group has none. */
    void write(Writer out, String indent) throws IOException {
        if (declarations.isEmpty()) {
            return;
        }
        out.write(indent + "types:\n");
        for (String d : declarations.values()) {
            for (String line : d.split("\n")) {
                out.write(indent + "  " + line + "\n");
            }
        }
    }

    private String compound(Structure s, String base, Set<String> taken) {
        String name = unique(base + "_t", taken);
        StringBuilder d = new StringBuilder("compound " + CdlWriter.name(name) + " {\n");
        for (Variable m : s.getVariables()) {
            String type;
            if (m instanceof Structure inner) {
                type = compound(inner, base + "_" + m.getShortName(), taken);
            } else {
                type = CdlWriter.typeName(m.getDataType(), m.isUnsigned());
                if (type == null) {
                    throw new IllegalArgumentException("structure member " + s.getFullName() + "." + m.getShortName()
                            + " of type " + m.getDataType() + " has no CDL spelling");
                }
            }
            d.append("  ").append(CdlWriter.name(type)).append(' ').append(CdlWriter.name(m.getShortName()));
            if (m.getRank() > 0) {
                List<String> dims = new ArrayList<>();
                for (int n : m.getShape()) {
                    dims.add(Integer.toString(n));
                }
                d.append('(').append(String.join(", ", dims)).append(')');
            }
            d.append(" ;\n");
        }
        d.append("}; // ").append(CdlWriter.name(name));
        declarations.put(name, d.toString());
        return name;
    }

    private String unique(String name, Set<String> taken) {
        String n = name;
        for (int i = 2; taken.contains(n) || declarations.containsKey(n); i++) {
            n = name + i;
        }
        taken.add(n);
        return n;
    }

    /** One element of a structure or opaque variable's data. */
    static String value(Array a, int i, Variable v) {
        Object o = a.getObject(i);
        if (o instanceof StructureData sd && v instanceof Structure s) {
            return record(s, sd);
        }
        if (o instanceof ByteBuffer b) {
            return opaque(b);
        }
        return String.valueOf(o);
    }

    /** A variable-length byte string as ncdump prints a vlen of ubyte: {@code {0, 255, 120}}. */
    static String opaque(ByteBuffer b) {
        List<String> items = new ArrayList<>();
        ByteBuffer d = b.duplicate();
        while (d.hasRemaining()) {
            items.add(Integer.toString(d.get() & 0xff));
        }
        return "{" + String.join(", ", items) + "}";
    }

    static String record(Structure s, StructureData sd) {
        List<String> parts = new ArrayList<>();
        for (StructureMembers.Member m : sd.getMembers()) {
            Array a = sd.getArray(m);
            Variable mv = s.findVariable(m.getName());
            if (m.getDataType() == DataType.STRUCTURE
                    && a instanceof ArrayStructure as
                    && mv instanceof Structure inner) {
                List<String> recs = new ArrayList<>();
                for (int k = 0; k < as.getSize(); k++) {
                    recs.add(record(inner, as.getStructureData(k)));
                }
                parts.add(m.getShape().length == 0 ? recs.get(0) : "{" + String.join(", ", recs) + "}");
            } else if (m.getDataType() == DataType.CHAR) {
                int[] shape = m.getShape();
                int len = shape.length == 0 ? 1 : shape[shape.length - 1];
                List<String> rows = new ArrayList<>();
                for (int r = 0; r * len < a.getSize(); r++) {
                    StringBuilder t = new StringBuilder();
                    for (int j = 0; j < len; j++) {
                        t.append(a.getChar(r * len + j));
                    }
                    int end = t.length();
                    while (end > 0 && t.charAt(end - 1) == 0) {
                        end--;
                    }
                    rows.add(CdlWriter.quote(t.substring(0, end)));
                }
                parts.add("{" + String.join(", ", rows) + "}");
            } else {
                List<String> items = new ArrayList<>();
                for (int k = 0; k < a.getSize(); k++) {
                    items.add(scalar(a, k, m.getDataType(), mv != null ? mv.isUnsigned() : a.isUnsigned()));
                }
                parts.add(m.getShape().length == 0 ? items.get(0) : "{" + String.join(", ", items) + "}");
            }
        }
        return "{" + String.join(", ", parts) + "}";
    }

    private static String scalar(Array a, int i, DataType t, boolean unsigned) {
        switch (t) {
            case FLOAT:
                return CdlWriter.real(a.getFloat(i), true, false);
            case DOUBLE:
                return CdlWriter.real(a.getDouble(i), false, false);
            case STRING:
                return CdlWriter.quote(String.valueOf(a.getObject(i)));
            case BYTE:
                return String.valueOf(unsigned ? a.getByte(i) & 0xff : a.getByte(i));
            case SHORT:
                return String.valueOf(unsigned ? a.getShort(i) & 0xffff : a.getShort(i));
            case INT:
                return String.valueOf(unsigned ? a.getInt(i) & 0xffffffffL : a.getInt(i));
            case LONG:
                return unsigned ? Long.toUnsignedString(a.getLong(i)) : String.valueOf(a.getLong(i));
            default:
                return String.valueOf(a.getObject(i));
        }
    }
}
