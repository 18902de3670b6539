package io.nczarr.cli;

import io.nczarr.cdm.CdmFills;
import io.nczarr.model.Fills;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * CDL as {@code ncdump} (netcdf-c 4.9) prints it, so that {@code ncgen} reads it back: unsigned types as
 * {@code ubyte/ushort/uint/uint64} with unsigned values, type suffixes on attribute values, netCDF's
 * escaping of names, chars and strings, {@code NaN}/{@code Infinity} spelled as ncdump does, {@code _} for
 * {@code _FillValue} data, nested groups. Attributes ncdump shows only with {@code -s} (chunking,
 * {@code _Unsigned}, format properties) are left out. A read failure propagates: no partial CDL is
 * passed off as complete.
 */
final class CdlWriter {
    /** Which variables' data to print. */
    enum Values {
        ALL,
        NONE,
        COORDINATES
    }

    /** {@link CdlText#TYPE_WORDS}. */
    static final Set<String> TYPE_WORDS = CdlText.TYPE_WORDS;

    private final Writer out;
    private final Values values;
    private final Set<Variable> selected;
    /** The user-defined types of the group being written. */
    private CdlCompound types;

    private CdlWriter(Writer out, Values values, Set<Variable> selected) {
        this.out = out;
        this.values = values;
        this.selected = selected;
    }

    /**
     * Writes {@code nc} as CDL named {@code name}. {@code vars} (full or short names; {@code null} = none
     * given) restricts the data section to those variables, as ncdump's {@code -v} does.
     */
    static void write(NetcdfFile nc, String name, Values values, List<String> vars, Writer out) throws IOException {
        Set<Variable> selected = null;
        if (vars != null) {
            selected = new LinkedHashSet<>();
            for (String v : vars) {
                List<Variable> found = find(nc, v);
                if (found.isEmpty()) {
                    throw new IllegalArgumentException("no variable '" + v + "' in the dataset");
                }
                selected.addAll(found);
            }
        }
        new CdlWriter(out, values, selected).dataset(nc, name);
        out.flush();
    }

    private static List<Variable> find(NetcdfFile nc, String name) {
        List<Variable> out = new ArrayList<>();
        for (Variable v : nc.getVariables()) {
            String full = "/" + v.getFullName();
            if (v.getFullName().equals(name)
                    || full.equals(name)
                    || (!name.contains("/") && v.getShortName().equals(name))) {
                out.add(v);
            }
        }
        return out;
    }

    private void dataset(NetcdfFile nc, String name) throws IOException {
        out.write("netcdf " + name(name) + " {\n");
        group(nc.getRootGroup(), "");
        out.write("}\n");
    }

    private void group(Group g, String indent) throws IOException {
        boolean root = g.getParentGroup() == null;
        types = CdlCompound.of(g, names(g));
        types.write(out, indent);
        if (!g.getDimensions().isEmpty()) {
            out.write(indent + "dimensions:\n");
            for (Dimension d : g.getDimensions()) {
                out.write(indent + "\t" + name(d.getShortName()) + " = ");
                out.write(
                        d.isUnlimited()
                                ? "UNLIMITED ; // (" + d.getLength() + " currently)\n"
                                : d.getLength() + " ;\n");
            }
        }
        if (!g.getVariables().isEmpty()) {
            out.write(indent + "variables:\n");
            for (Variable v : g.getVariables()) {
                header(v, g, indent);
            }
        }
        List<Attribute> attrs = CdlText.visible(g.getAttributes());
        if (!attrs.isEmpty()) {
            out.write("\n" + indent + (root ? "// global attributes:\n" : "// group attributes:\n"));
            for (Attribute a : attrs) {
                attribute("", a, null, indent);
            }
        }
        List<Variable> withData = new ArrayList<>();
        for (Variable v : g.getVariables()) {
            if (wantsData(v)) {
                withData.add(v);
            }
        }
        // ncdump 4.9 writes "data:" in every group that has variables unless -h, even when -c or -v leaves
        // nothing to show there
        if (!withData.isEmpty() || (values != Values.NONE && !g.getVariables().isEmpty())) {
            out.write(indent + "data:\n");
            for (Variable v : withData) {
                out.write("\n");
                data(v, indent);
            }
        }
        for (Group c : g.getGroups()) {
            out.write("\n" + indent + "group: " + name(c.getShortName()) + " {\n");
            group(c, indent + "  ");
            out.write(indent + "  } // group " + name(c.getShortName()) + "\n");
        }
    }

    private boolean wantsData(Variable v) {
        if (!printable(v) || v.getSize() == 0) {
            return false;
        }
        if (selected != null) {
            return selected.contains(v);
        }
        switch (values) {
            case NONE:
                return false;
            case COORDINATES:
                return v.getRank() == 1 && v.getDimension(0).getShortName().equals(v.getShortName());
            default:
                return true;
        }
    }

    private static boolean printable(Variable v) {
        return typeName(v.getDataType(), false) != null || CdlCompound.handles(v);
    }

    /** The names a generated type name must not take: the group's dimensions and variables. */
    private static Set<String> names(Group g) {
        Set<String> taken = new java.util.HashSet<>();
        g.getDimensions().forEach(d -> taken.add(d.getShortName()));
        g.getVariables().forEach(v -> taken.add(v.getShortName()));
        return taken;
    }

    private void header(Variable v, Group g, String indent) throws IOException {
        String type = typeName(v.getDataType(), v.isUnsigned());
        if (type == null) {
            type = types.typeName(v);
        }
        if (type == null) {
            // a compound (Structure) or other type this writer does not spell: a comment, so ncgen still reads
            out.write(indent + "\t// " + v.getDataType().toString().toLowerCase(Locale.ROOT) + " "
                    + name(v.getShortName()) + ": not shown\n");
            return;
        }
        StringBuilder s = new StringBuilder(indent + "\t" + type + " " + name(v.getShortName()));
        if (v.getRank() > 0) {
            s.append('(');
            for (int i = 0; i < v.getRank(); i++) {
                s.append(i > 0 ? ", " : "").append(CdlText.dimName(v.getDimension(i), g));
            }
            s.append(')');
        }
        out.write(s + " ;\n");
        for (Attribute a : CdlText.visible(v.getAttributes())) {
            attribute(name(v.getShortName()), a, v, indent);
        }
    }

    private void attribute(String variable, Attribute a, Variable v, String indent) throws IOException {
        // ncgen reads "data:x" as the start of the data section: a space before the colon (ncgen's man page)
        String owner = CdlText.SECTION_WORDS.contains(variable) ? variable + " " : variable;
        StringBuilder s = new StringBuilder(indent + "\t\t");
        if (a.isString()) {
            if (a.getLength() > 1) {
                s.append("string ");
            }
            s.append(owner).append(':').append(name(a.getShortName())).append(" = ");
            for (int i = 0; i < a.getLength(); i++) {
                s.append(i > 0 ? ", " : "").append(quote(a.getStringValue(i)));
            }
            if (a.getLength() == 0) {
                s.append("\"\"");
            }
        } else {
            s.append(owner).append(':').append(name(a.getShortName())).append(" = ");
            DataType type = a.getDataType();
            boolean unsigned = a.isUnsigned();
            if (v != null && a.getShortName().equals("_FillValue") && printable(v)) {
                // ncgen wants the fill in the variable's own type
                type = v.getDataType();
                unsigned = v.isUnsigned();
            }
            Array values = a.getValues();
            for (int i = 0; i < a.getLength(); i++) {
                s.append(i > 0 ? ", " : "").append(CdlText.attributeValue(values, i, type, unsigned));
            }
        }
        out.write(s + " ;\n");
    }

    private void data(Variable v, String indent) throws IOException {
        String head = indent + " " + name(v.getShortName()) + " =";
        int[] shape = v.getShape();
        boolean isChar = v.getDataType() == DataType.CHAR;
        int rank = shape.length;
        // one output row per innermost row (per string for chars) when the variable has two or more dimensions
        // (char variables of two or more dimensions: one string per line)
        int rowDims = rank;
        long rowLen = rowDims < 2 ? Long.MAX_VALUE : isChar ? 1 : shape[rank - 1];
        Fills fill = CdmFills.of(v);
        CdlText.Line line = new CdlText.Line();
        if (rowDims >= 2) {
            out.write(head + "\n");
            line.start("  ");
        } else {
            line.start(head + " ");
        }
        long items = isChar ? Slabs.rows(shape, rank - 1) : Slabs.rows(shape, rank);
        if (items == 0) {
            out.write(line.text() + " ;\n");
            return;
        }
        long[] done = {0};
        Slabs.forEach(v, shape, a -> {
            int[] slab = a.getShape();
            long count = isChar ? Slabs.rows(slab, rank - 1) : Slabs.rows(slab, rank);
            for (long i = 0; i < count; i++) {
                String value =
                        isChar ? charRow(a, (int) i, rank > 0 ? shape[rank - 1] : 1) : element(a, (int) i, v, fill);
                long k = ++done[0];
                boolean last = k == items;
                boolean endOfRow = rowDims >= 2 && k % rowLen == 0;
                line.add(value + (last ? " ;" : ","), out);
                if (endOfRow && !last) {
                    out.write(line.text() + "\n");
                    line.start("  ");
                }
            }
        });
        out.write(line.text() + "\n");
    }

    private static String charRow(Array a, int row, int len) {
        StringBuilder s = new StringBuilder();
        for (int j = 0; j < len; j++) {
            s.append(a.getChar(row * len + j));
        }
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == 0) {
            end--;
        }
        return quote(s.substring(0, end));
    }

    private static String element(Array a, int i, Variable v, Fills fill) {
        if (CdlCompound.handles(v)) {
            return CdlCompound.value(a, i, v);
        }
        switch (v.getDataType()) {
            case STRING:
                return quote(String.valueOf(a.getObject(i)));
            case FLOAT: {
                float f = a.getFloat(i);
                return fill.is(f) ? "_" : real(f, true, false);
            }
            case DOUBLE: {
                double d = a.getDouble(i);
                return fill.is(d) ? "_" : real(d, false, false);
            }
            default: {
                long x = a.getLong(i);
                if (fill.is(x)) {
                    return "_";
                }
                if (!v.isUnsigned()) {
                    return String.valueOf(x);
                }
                switch (v.getDataType()) {
                    case BYTE:
                    case ENUM1:
                        return String.valueOf(x & 0xff);
                    case SHORT:
                    case ENUM2:
                        return String.valueOf(x & 0xffff);
                    case INT:
                    case ENUM4:
                        return String.valueOf(x & 0xffffffffL);
                    default:
                        return Long.toUnsignedString(x);
                }
            }
        }
    }

    /** {@link CdlText#real}. */
    static String real(double v, boolean isFloat, boolean attribute) {
        return CdlText.real(v, isFloat, attribute);
    }

    /** {@link CdlText#quote}. */
    static String quote(String s) {
        return CdlText.quote(s);
    }

    /** {@link CdlText#name}. */
    static String name(String s) {
        return CdlText.name(s);
    }

    /** {@link CdlText#typeName}. */
    static String typeName(DataType t, boolean unsigned) {
        return CdlText.typeName(t, unsigned);
    }
}
