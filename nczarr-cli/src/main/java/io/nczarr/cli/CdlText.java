package io.nczarr.cli;

import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Group;

/** CDL spelling as ncdump 4.9 writes it: type names, numbers, strings, names, and 80-column data lines. */
final class CdlText {
    private CdlText() {}

    /** Attributes ncdump prints only with {@code -s} (or never); {@code _Unsigned} becomes the type. */
    static final Set<String> HIDDEN = Set.of(
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

    /** The dimension's name as seen from group {@code g}; its full name if a nearer one hides it. */
    static String dimName(Dimension d, Group g) {
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
    static List<Attribute> visible(List<Attribute> attrs) {
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

    /** Names ncgen takes for section keywords unless a space separates them from a following colon. */
    static final Set<String> SECTION_WORDS = Set.of("data", "group", "variables", "dimensions", "types");

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

    private static final int LINE = 80;

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

    static String attributeValue(Array values, int i, DataType type, boolean unsigned) {
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
    static final class Line {
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
