package io.nczarr.aggregation;

import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.DoubleUnaryOperator;

/**
 * A fragment's values in canonical form (CF-1.13 section 2.8.2): the fragment's missing values ({@code
 * _FillValue}, {@code missing_value}) become the aggregation's missing value, values in other units are converted
 * to the aggregation's units ({@link UnitConversions}), values packed differently from the aggregation variable
 * (their own {@code scale_factor}/{@code add_offset}, or none) are unpacked and repacked to the aggregation's
 * packing, and the type becomes the aggregated type. What this cannot do exactly is an {@link
 * UnsupportedFeatureException}.
 */
public final class CanonicalValues {
    private final NcType type;
    private final Number missing; // the aggregation's, or null
    private final String units;
    private final String calendar;
    private final double scale;
    private final double offset;
    private final UnitConversions conversions;

    /** The canonical form of the aggregation variable of {@code type} with these (presented) attributes. */
    public CanonicalValues(NcType type, List<Attr> attributes, UnitConversions conversions) {
        this.type = type;
        this.conversions = conversions;
        Attr fill = find(attributes, "_FillValue");
        Attr mv = find(attributes, "missing_value");
        Number m = numeric(fill) ? first(fill) : null;
        if (m == null && numeric(mv)) {
            m = first(mv);
        }
        this.missing = m;
        this.units = text(attributes, "units");
        this.calendar = text(attributes, "calendar");
        CfEncoding e = CfEncoding.of(type, attributes);
        this.scale = e.scaleFactor();
        this.offset = e.addOffset();
    }

    public NcType type() {
        return type;
    }

    private boolean isPacked() {
        return Double.compare(scale, 1.0) != 0 || Double.compare(offset, 0.0) != 0;
    }

    /** {@code values} read from {@code fragment} as an array of the aggregated type and packing. */
    public TypedArray canonical(VariableReader fragment, TypedArray values) throws UnsupportedFeatureException {
        NcType ft = fragment.type();
        if (!ft.isNumeric() || !type.isNumeric()) {
            if (ft != type) {
                throw unsupported(
                        "a fragment of type " + ft.cdlName() + " in an aggregation of type " + type.cdlName());
            }
            return values;
        }
        List<Attr> fa = fragment.attributes();
        CfEncoding fe = CfEncoding.of(ft, fa);
        boolean repack = Double.compare(fe.scaleFactor(), scale) != 0 || Double.compare(fe.addOffset(), offset) != 0;
        DoubleUnaryOperator convert = converter(fa);
        double[] fragMissing = fragmentMissing(fa);
        if (ft.isUnsigned() != type.isUnsigned()) {
            throw unsupported("a fragment " + (ft.isUnsigned() ? "with" : "without") + " _Unsigned in an aggregation "
                    + (type.isUnsigned() ? "with" : "without") + " it");
        }
        if (ft == type && convert == null && fragMissing.length == 0 && !repack) {
            return values;
        }
        if (ft.isUnsigned()) {
            throw unsupported("type conversion, repacking or missing values of unsigned fragments");
        }
        if (fragMissing.length > 0 && missing == null) {
            throw unsupported("a fragment with missing values in an aggregation variable without _FillValue or"
                    + " missing_value");
        }
        boolean integral = !type.isFloatingPoint();
        if (convert != null && integral && !repack && !isPacked()) {
            throw unsupported("units conversion (" + text(fa, "units") + " to " + units + ") into the integer type "
                    + type.cdlName());
        }
        TypedArray out = TypedArray.allocate(type, values.shape());
        int n = values.size();
        if (integral && !ft.isFloatingPoint() && !repack && convert == null) {
            // exact: integers stay integers (int64 too), each checked against the aggregated type's range
            long lo = minOf(type);
            long hi = maxOf(type);
            for (int i = 0; i < n; i++) {
                long v = values.getLong(i);
                if (isMissingExact(v, fragMissing)) {
                    setMissing(out, i);
                    continue;
                }
                if (v < lo || v > hi) {
                    throw unsupported("the value " + v + " outside the range of the aggregated type " + type.cdlName());
                }
                out.setLong(i, v);
            }
            return out;
        }
        boolean float32 = ft == NcType.FLOAT;
        for (int i = 0; i < n; i++) {
            double v = values.getDouble(i);
            if (isMissing(v, fragMissing, float32)) {
                setMissing(out, i);
                continue;
            }
            if (repack || convert != null) {
                v = v * fe.scaleFactor() + fe.addOffset(); // unpacked: units apply to unpacked values
                if (convert != null) {
                    v = convert.applyAsDouble(v);
                }
                v = (v - offset) / scale; // in the aggregation's packing
                if (integral) {
                    v = Math.rint(v);
                }
            }
            if (integral
                    && (Double.isNaN(v)
                            || Double.compare(v, Math.rint(v)) != 0
                            || v < minOf(type)
                            || v > maxOf(type))) {
                throw unsupported("the value " + v + " in an aggregation of the integer type " + type.cdlName());
            }
            out.setDouble(i, v);
        }
        return out;
    }

    private void setMissing(TypedArray out, int i) {
        if (type.isFloatingPoint()) {
            out.setDouble(i, missing.doubleValue());
        } else {
            out.setLong(i, missing.longValue());
        }
    }

    private static long minOf(NcType t) {
        switch (t) {
            case BYTE:
                return Byte.MIN_VALUE;
            case SHORT:
                return Short.MIN_VALUE;
            case INT:
                return Integer.MIN_VALUE;
            default:
                return Long.MIN_VALUE;
        }
    }

    private static long maxOf(NcType t) {
        switch (t) {
            case BYTE:
                return Byte.MAX_VALUE;
            case SHORT:
                return Short.MAX_VALUE;
            case INT:
                return Integer.MAX_VALUE;
            default:
                return Long.MAX_VALUE;
        }
    }

    /** The fragment's {@code _FillValue} and {@code missing_value} values (numeric ones), as doubles. */
    private static double[] fragmentMissing(List<Attr> fa) {
        Attr fill = find(fa, "_FillValue");
        Attr mv = find(fa, "missing_value");
        int nf = numeric(fill) ? fill.length() : 0;
        int nm = numeric(mv) ? mv.length() : 0;
        double[] out = new double[nf + nm];
        for (int i = 0; i < nf; i++) {
            out[i] = value(fill, i);
        }
        for (int i = 0; i < nm; i++) {
            out[nf + i] = value(mv, i);
        }
        return out;
    }

    /** An integer value among the missing values as {@code Double.equals} compares them (no boxing). */
    private static boolean isMissingExact(long v, double[] missing) {
        long bits = Double.doubleToLongBits((double) v);
        for (double m : missing) {
            if (Double.doubleToLongBits(m) == bits) {
                return true;
            }
        }
        return false;
    }

    private static boolean isMissing(double v, double[] missing, boolean float32) {
        for (double m : missing) {
            if (v == m || (Double.isNaN(m) && Double.isNaN(v)) || (float32 && (float) v == (float) m)) {
                return true;
            }
        }
        return false;
    }

    /** The conversion from the fragment's units to the aggregation's, or null when none is needed. */
    private DoubleUnaryOperator converter(List<Attr> fa) throws UnsupportedFeatureException {
        String fu = text(fa, "units");
        if (fu == null || units == null || fu.equals(units)) {
            return null;
        }
        String fc = text(fa, "calendar");
        if (!Objects.equals(norm(fc), norm(calendar))) {
            throw unsupported(
                    "a fragment with the calendar " + fc + " in an aggregation with the calendar " + calendar);
        }
        if (!norm(calendar).equals("standard")) {
            throw unsupported("units conversion in the calendar " + calendar);
        }
        DoubleUnaryOperator c;
        try {
            c = conversions.converter(fu, units);
        } catch (RuntimeException e) {
            throw unsupported(
                    "the units '" + fu + "' or '" + units + "' which udunits cannot convert: " + e.getMessage());
        }
        if (c == null) {
            throw unsupported("the fragment units '" + fu + "' cannot be converted to '" + units + "'");
        }
        return c;
    }

    private static String norm(String calendar) {
        if (calendar == null) {
            return "standard";
        }
        String c = calendar.toLowerCase(Locale.ROOT);
        return c.equals("gregorian") ? "standard" : c;
    }

    static Attr find(List<Attr> attributes, String name) {
        for (Attr a : attributes) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }

    private static boolean numeric(Attr a) {
        return a != null && a.type().isNumeric() && a.length() > 0;
    }

    private static Number first(Attr a) {
        Object v = a.value();
        if (v instanceof float[] f) {
            return f[0];
        }
        if (v instanceof double[] d) {
            return d[0];
        }
        return java.lang.reflect.Array.getLong(v, 0);
    }

    private static double value(Attr a, int i) {
        return new TypedArray(a.type(), new int[] {a.length()}, a.value()).getDouble(i);
    }

    /** A char (text) attribute, trimmed; {@code null} when absent or not text. */
    static String text(List<Attr> attributes, String name) {
        Attr a = find(attributes, name);
        if (a != null && a.value() instanceof String s) {
            return s.trim();
        }
        return a != null && a.value() instanceof String[] ss && ss.length == 1 && ss[0] != null ? ss[0].trim() : null;
    }

    private static UnsupportedFeatureException unsupported(String what) {
        return new UnsupportedFeatureException("aggregation fragment", what);
    }
}
