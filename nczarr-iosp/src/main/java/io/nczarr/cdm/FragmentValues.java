package io.nczarr.cdm;

import io.nczarr.error.UnsupportedFeatureException;
import java.util.Locale;
import java.util.Objects;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.IndexIterator;
import ucar.nc2.Attribute;
import ucar.nc2.Variable;
import ucar.units.Converter;
import ucar.units.Unit;
import ucar.units.UnitFormat;
import ucar.units.UnitFormatManager;

/**
 * A fragment's values in canonical form (CF-1.13 section 2.8.2): the fragment's missing values
 * ({@code _FillValue}, {@code missing_value}) become the aggregation's missing value, values in other
 * units are converted to the aggregation's units (udunits of netCDF-Java), and the type becomes the
 * aggregated type. What this cannot do exactly is an {@link UnsupportedFeatureException}.
 */
final class FragmentValues {
    private final DataType type;
    private final Number missing; // the aggregation's, or null
    private final String units;
    private final String calendar;
    private final Attribute scale;
    private final Attribute offset;
    private final boolean aggregationUnsigned;

    FragmentValues(Variable aggregation) {
        this.type = aggregation.getDataType();
        Attribute fill = aggregation.findAttribute("_FillValue");
        Attribute mv = aggregation.findAttribute("missing_value");
        Number m = fill != null && (fill.getDataType().isNumeric()) ? fill.getNumericValue() : null;
        if (m == null && mv != null && (mv.getDataType().isNumeric())) {
            m = mv.getNumericValue();
        }
        this.missing = m;
        this.units = text(aggregation, "units");
        this.calendar = text(aggregation, "calendar");
        this.scale = aggregation.findAttribute("scale_factor");
        this.offset = aggregation.findAttribute("add_offset");
        this.aggregationUnsigned = aggregation.isUnsigned();
    }

    DataType type() {
        return type;
    }

    private static String text(Variable v, String name) {
        Attribute a = v.findAttribute(name);
        return a != null && a.isString() ? a.getStringValue().trim() : null;
    }

    /**
     * {@code values} of {@code fragment} as an array of the aggregated type. {@code feature} names the
     * fragment in messages (the caller adds dataset, variable and URI).
     */
    Array canonical(Variable fragment, Array values) throws UnsupportedFeatureException {
        DataType ft = fragment.getDataType();
        if (!ft.isNumeric() || !type.isNumeric()) {
            if (ft != type) {
                throw unsupported("a fragment of type " + ft + " in an aggregation of type " + type);
            }
            return values;
        }
        for (String packing : new String[] {"scale_factor", "add_offset"}) {
            Attribute a = fragment.findAttribute(packing);
            Attribute mine = packing.equals("scale_factor") ? scale : offset;
            if (a != null
                    && (mine == null
                            || !Objects.equals(
                                    a.getValues().toString(), mine.getValues().toString()))) {
                throw unsupported("a packed fragment (" + packing + " = " + a.getValues()
                        + ") whose packing differs from the aggregation variable's");
            }
        }
        Converter convert = converter(fragment);
        double[] fragMissing = fragmentMissing(fragment);
        boolean unsigned = fragment.isUnsigned();
        if (unsigned != aggregationUnsigned) {
            throw unsupported("a fragment " + (unsigned ? "with" : "without") + " _Unsigned in an aggregation "
                    + (aggregationUnsigned ? "with" : "without") + " it");
        }
        boolean sameType = ft == type;
        if (sameType && convert == null && fragMissing.length == 0) {
            return values;
        }
        if (unsigned) {
            throw unsupported("type conversion or missing values of unsigned fragments");
        }
        if (fragMissing.length > 0 && missing == null) {
            throw unsupported("a fragment with missing values in an aggregation variable without _FillValue or"
                    + " missing_value");
        }
        boolean integral = type.isIntegral();
        if (convert != null && integral) {
            throw unsupported("units conversion (" + text(fragment, "units") + " to " + units
                    + ") into the integer type " + type);
        }
        Array out = Array.factory(type, values.getShape());
        IndexIterator in = values.getIndexIterator();
        IndexIterator to = out.getIndexIterator();
        if (integral && ft.isIntegral()) {
            // exact: integers stay integers (int64 too), each checked against the aggregated type's range
            long lo = minOf(type);
            long hi = maxOf(type);
            while (in.hasNext()) {
                long v = in.getLongNext();
                if (isMissingExact(v, fragMissing)) {
                    to.setObjectNext(castMissing());
                    continue;
                }
                if (v < lo || v > hi) {
                    throw unsupported("the value " + v + " outside the range of the aggregated type " + type);
                }
                to.setLongNext(v);
            }
            return out;
        }
        while (in.hasNext()) {
            double v = in.getDoubleNext();
            if (isMissing(v, fragMissing, ft == DataType.FLOAT)) {
                to.setObjectNext(castMissing());
                continue;
            }
            if (convert != null) {
                v = convert.convert(v);
            }
            if (integral && (Double.isNaN(v) || v != Math.rint(v) || v < minOf(type) || v > maxOf(type))) {
                throw unsupported("the value " + v + " in an aggregation of the integer type " + type);
            }
            to.setDoubleNext(v);
        }
        return out;
    }

    private static long minOf(DataType t) {
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

    private static long maxOf(DataType t) {
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

    private Object castMissing() {
        switch (type) {
            case BYTE:
                return missing.byteValue();
            case SHORT:
                return missing.shortValue();
            case INT:
                return missing.intValue();
            case LONG:
                return missing.longValue();
            case FLOAT:
                return missing.floatValue();
            default:
                return missing.doubleValue();
        }
    }

    /** The fragment's {@code _FillValue} and {@code missing_value} values (numeric ones), as doubles. */
    private static double[] fragmentMissing(Variable fragment) {
        Attribute fill = fragment.findAttribute("_FillValue");
        Attribute mv = fragment.findAttribute("missing_value");
        int nf = fill != null && fill.getDataType().isNumeric() ? fill.getLength() : 0;
        int nm = mv != null && mv.getDataType().isNumeric() ? mv.getLength() : 0;
        double[] out = new double[nf + nm];
        for (int i = 0; i < nf; i++) {
            out[i] = fill.getNumericValue(i).doubleValue();
        }
        for (int i = 0; i < nm; i++) {
            out[nf + i] = mv.getNumericValue(i).doubleValue();
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
    private Converter converter(Variable fragment) throws UnsupportedFeatureException {
        String fu = text(fragment, "units");
        if (fu == null || units == null || fu.equals(units)) {
            return null;
        }
        String fc = text(fragment, "calendar");
        if (!Objects.equals(norm(fc), norm(calendar))) {
            throw unsupported(
                    "a fragment with the calendar " + fc + " in an aggregation with the calendar " + calendar);
        }
        if (!norm(calendar).equals("standard")) {
            throw unsupported("units conversion in the calendar " + calendar);
        }
        try {
            UnitFormat format = UnitFormatManager.instance();
            Unit from = format.parse(fu);
            Unit to = format.parse(units);
            if (!from.isCompatible(to)) {
                throw unsupported("the fragment units '" + fu + "' cannot be converted to '" + units + "'");
            }
            return from.getConverterTo(to);
        } catch (UnsupportedFeatureException e) {
            throw e;
        } catch (Exception e) {
            throw unsupported("the units '" + fu + "' or '" + units + "' which udunits cannot convert: " + e);
        }
    }

    private static String norm(String calendar) {
        if (calendar == null) {
            return "standard";
        }
        String c = calendar.toLowerCase(Locale.ROOT);
        return c.equals("gregorian") ? "standard" : c;
    }

    private static UnsupportedFeatureException unsupported(String what) {
        return new UnsupportedFeatureException("aggregation fragment", what);
    }
}
