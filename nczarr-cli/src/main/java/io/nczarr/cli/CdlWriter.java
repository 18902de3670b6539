package io.nczarr.cli;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
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

    /** Attributes ncdump prints only with {@code -s} (or never); {@code _Unsigned} becomes the type. */
    private static final Set<String> HIDDEN = Set.of(
            "_ChunkSizes",
            "_Unsigned",
            "_NCProperties",
            "_IsNetcdf4",
            "_SuperblockVersion",
            "_Format",
            "_Storage",
            "_Endianness",
            "_DeflateLevel",
            "_Shuffle",
            "_Fletcher32",
            "_NoFill",
            "_Filter",
            "_Codecs");

    /** Names ncgen takes for section keywords unless a space separates them from a following colon. */
    private static final Set<String> SECTION_WORDS = Set.of("data", "group", "variables", "dimensions", "types");

    /**
     * CDL type keywords: ncgen 4.9 accepts no spelling of a name equal to one of them (a backslash before a
     * letter is not an escape), so a dataset using one as a name cannot be read back by ncgen.
     */
    static final Set<String> TYPE_WORDS = Set.of(
            "char",
            "byte",
            "short",
            "int",
            "long",
            "integer",
            "float",
            "real",
            "double",
            "ubyte",
            "ushort",
            "uint",
            "int64",
            "uint64",
            "string",
            "compound",
            "enum",
            "opaque",
            "unlimited",
            "netcdf");

    /** Elements read at once before a variable is read in slabs along its first dimension. */
    private static final long SLAB_ELEMENTS = 1L << 22;

    private static final int LINE = 80;

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
        List<Attribute> attrs = visible(g.getAttributes());
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
                s.append(i > 0 ? ", " : "").append(dimName(v.getDimension(i), g));
            }
            s.append(')');
        }
        out.write(s + " ;\n");
        for (Attribute a : visible(v.getAttributes())) {
            attribute(name(v.getShortName()), a, v, indent);
        }
    }

    /** The dimension's name as seen from group {@code g}; its full name if a nearer one hides it. */
    private static String dimName(Dimension d, Group g) {
        if (d.getShortName() == null) {
            return String.valueOf(d.getLength());
        }
        Dimension seen = g.findDimension(d.getShortName());
        if (seen == d || d.getGroup() == null) {
            return name(d.getShortName());
        }
        StringBuilder path = new StringBuilder();
        for (Group p = d.getGroup(); p != null && p.getParentGroup() != null; p = p.getParentGroup()) {
            path.insert(0, "/" + name(p.getShortName()));
        }
        return path + "/" + name(d.getShortName());
    }

    /** The attributes ncdump shows, {@code _FillValue} first as in a netCDF-4 file. */
    private static List<Attribute> visible(List<Attribute> attrs) {
        List<Attribute> out = new ArrayList<>();
        for (Attribute a : attrs) {
            if (a.getShortName().equals("_FillValue")) {
                out.add(0, a);
            } else if (!HIDDEN.contains(a.getShortName())) {
                out.add(a);
            }
        }
        return out;
    }

    private void attribute(String variable, Attribute a, Variable v, String indent) throws IOException {
        // ncgen reads "data:x" as the start of the data section: a space before the colon (ncgen's man page)
        String owner = SECTION_WORDS.contains(variable) ? variable + " " : variable;
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
                s.append(i > 0 ? ", " : "").append(attributeValue(values, i, type, unsigned));
            }
        }
        out.write(s + " ;\n");
    }

    private static String attributeValue(Array values, int i, DataType type, boolean unsigned) {
        switch (type) {
            case BYTE:
                return unsigned ? (values.getLong(i) & 0xff) + "UB" : (byte) values.getLong(i) + "b";
            case SHORT:
                return unsigned ? (values.getLong(i) & 0xffff) + "US" : (short) values.getLong(i) + "s";
            case INT:
                return unsigned ? (values.getLong(i) & 0xffffffffL) + "U" : String.valueOf((int) values.getLong(i));
            case LONG:
                return unsigned ? Long.toUnsignedString(values.getLong(i)) + "ULL" : values.getLong(i) + "LL";
            case FLOAT:
                return real(values.getFloat(i), true, true);
            case CHAR:
                return quote(String.valueOf(values.getChar(i)));
            default:
                return real(values.getDouble(i), false, true);
        }
    }

    /** The CDL type name, or {@code null} for types ncgen cannot be given (compound, opaque...). */
    static String typeName(DataType t, boolean unsigned) {
        switch (t) {
            case BYTE:
            case ENUM1:
                return unsigned ? "ubyte" : "byte";
            case SHORT:
            case ENUM2:
                return unsigned ? "ushort" : "short";
            case INT:
            case ENUM4:
                return unsigned ? "uint" : "int";
            case LONG:
                return unsigned ? "uint64" : "int64";
            case FLOAT:
                return "float";
            case DOUBLE:
                return "double";
            case CHAR:
                return "char";
            case STRING:
                return "string";
            default:
                return null;
        }
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
        Fill fill = Fill.of(v);
        Line line = new Line();
        if (rowDims >= 2) {
            out.write(head + "\n");
            line.start("  ");
        } else {
            line.start(head + " ");
        }
        long items = isChar ? slabRows(shape, rank - 1) : slabRows(shape, rank);
        if (items == 0) {
            out.write(line.text() + " ;\n");
            return;
        }
        long[] done = {0};
        forEachSlab(v, shape, a -> {
            int[] slab = a.getShape();
            long count = isChar ? slabRows(slab, rank - 1) : slabRows(slab, rank);
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

    /** The product of the first {@code dims} extents (1 for none). */
    private static long slabRows(int[] shape, int dims) {
        long n = 1;
        for (int i = 0; i < dims; i++) {
            n *= shape[i];
        }
        return n;
    }

    private interface SlabConsumer {
        void accept(Array a) throws IOException;
    }

    /** Reads the variable whole, or in slabs along its first dimension when it is large. */
    private static void forEachSlab(Variable v, int[] shape, SlabConsumer consumer) throws IOException {
        long size = v.getSize();
        if (shape.length == 0 || size <= SLAB_ELEMENTS || shape[0] <= 1) {
            consumer.accept(v.read());
            return;
        }
        long perRow = size / shape[0];
        int step = (int) Math.max(1, SLAB_ELEMENTS / Math.max(1, perRow));
        for (int start = 0; start < shape[0]; start += step) {
            int[] origin = new int[shape.length];
            int[] count = shape.clone();
            origin[0] = start;
            count[0] = Math.min(step, shape[0] - start);
            try {
                consumer.accept(v.read(origin, count));
            } catch (InvalidRangeException e) {
                throw new IllegalStateException(e);
            }
        }
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

    private static String element(Array a, int i, Variable v, Fill fill) {
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

    /** The variable's {@code _FillValue}, compared bit for bit (so a NaN fill matches NaN data). */
    private record Fill(boolean present, long bits, double real) {
        static Fill of(Variable v) {
            Attribute a = v.findAttribute("_FillValue");
            if (a == null || a.isString() || a.getLength() != 1) {
                return new Fill(false, 0, 0);
            }
            Number n = a.getNumericValue();
            if (n == null) {
                return new Fill(false, 0, 0);
            }
            DataType t = v.getDataType();
            if (t == DataType.FLOAT) {
                return new Fill(true, Float.floatToIntBits(n.floatValue()), n.floatValue());
            }
            if (t == DataType.DOUBLE) {
                return new Fill(true, Double.doubleToLongBits(n.doubleValue()), n.doubleValue());
            }
            long x = n.longValue();
            switch (t) {
                case BYTE:
                    x = (byte) x;
                    break;
                case SHORT:
                    x = (short) x;
                    break;
                case INT:
                    x = (int) x;
                    break;
                default:
                    break;
            }
            return new Fill(true, x, 0);
        }

        boolean is(float f) {
            return present && Float.floatToIntBits(f) == bits;
        }

        boolean is(double d) {
            return present && Double.doubleToLongBits(d) == bits;
        }

        boolean is(long x) {
            return present && x == bits;
        }
    }

    /**
     * A float or double as ncdump spells it, with the digits that read back to the same value:
     * {@code NaN}, {@code Infinity}, {@code -Infinity} ({@code f} suffix for floats), exponent form as C's
     * {@code %g}; attribute values keep a decimal point ({@code 850.}, {@code 1.e+20f}) and floats get {@code f}.
     */
    static String real(double v, boolean isFloat, boolean attribute) {
        String suffix = isFloat ? "f" : "";
        if (Double.isNaN(v)) {
            return "NaN" + suffix;
        }
        if (Double.isInfinite(v)) {
            return (v > 0 ? "Infinity" : "-Infinity") + suffix;
        }
        String text;
        if (v == 0) {
            // "-0." rather than ncdump's "-0": ncgen reads "-0" as the integer 0 and loses the sign
            text = Double.doubleToRawLongBits(v) < 0 ? "-0." : "0";
        } else {
            BigDecimal bd =
                    new BigDecimal(isFloat ? Float.toString((float) v) : Double.toString(v)).stripTrailingZeros();
            String digits = bd.unscaledValue().abs().toString();
            int exp = digits.length() - 1 - bd.scale();
            int precision = Math.max(isFloat ? 7 : 15, digits.length());
            String sign = bd.signum() < 0 ? "-" : "";
            if (exp < -4 || exp >= precision) {
                String mantissa = digits.length() > 1 ? digits.charAt(0) + "." + digits.substring(1) : digits;
                text = sign + mantissa + "e" + (exp < 0 ? "-" : "+") + (Math.abs(exp) < 10 ? "0" : "") + Math.abs(exp);
            } else {
                text = bd.toPlainString();
            }
        }
        if (!attribute) {
            return text;
        }
        int e = text.indexOf('e');
        String mantissa = e >= 0 ? text.substring(0, e) : text;
        if (!mantissa.contains(".")) {
            text = mantissa + "." + (e >= 0 ? text.substring(e) : "");
        }
        return text + suffix;
    }

    /** A string as a CDL literal: netCDF's escapes, other control characters in octal. */
    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"':
                    b.append("\\\"");
                    break;
                case '\\':
                    b.append("\\\\");
                    break;
                case '\n':
                    b.append("\\n");
                    break;
                case '\t':
                    b.append("\\t");
                    break;
                case '\r':
                    b.append("\\r");
                    break;
                case '\b':
                    b.append("\\b");
                    break;
                case '\f':
                    b.append("\\f");
                    break;
                default:
                    if (c < 0x20 || c == 0x7f) {
                        b.append(String.format(Locale.ROOT, "\\%03o", (int) c));
                    } else {
                        b.append(c);
                    }
            }
        }
        return b.append('"').toString();
    }

    /**
     * A name as a CDL identifier: letters, digits, {@code _ . @ + -} and non-ASCII characters as they are,
     * everything else (and a leading digit) escaped with a backslash, as ncdump does.
     */
    static String name(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            boolean plain = Character.isLetterOrDigit(c) && c < 0x80
                    || c == '_'
                    || c >= 0x80
                    || (i > 0 && (c == '.' || c == '@' || c == '+' || c == '-'));
            if (!plain || (i == 0 && Character.isDigit(c))) {
                b.append('\\');
            }
            b.append(c);
        }
        return b.toString();
    }

    /** One output line: values are added until the line would pass 80 columns, then it wraps. */
    private static final class Line {
        private final StringBuilder text = new StringBuilder();
        private boolean fresh = true;

        void start(String prefix) {
            text.setLength(0);
            text.append(prefix);
            fresh = true;
        }

        void add(String value, Writer out) throws IOException {
            if (!fresh && text.length() + 1 + value.length() > LINE) {
                out.write(text + "\n");
                text.setLength(0);
                text.append("    ").append(value);
                return;
            }
            if (!fresh) {
                text.append(' ');
            }
            text.append(value);
            fresh = false;
        }

        String text() {
            return text.toString();
        }
    }
}
