package io.nczarr.read;

import io.nczarr.model.Attr;
import io.nczarr.model.Fills;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A variable's CF value metadata: its fill ({@code _FillValue}, else the netCDF default of its type), {@code
 * missing_value}s, packing ({@code scale_factor}, {@code add_offset}) and valid range ({@code valid_range},
 * {@code valid_min}, {@code valid_max}), read from its attributes. Raw values are given as doubles, unsigned
 * types widened to their value ({@link TypedArray#getDouble}).
 *
 * <p>What is missing ({@link #isMissing}): the {@code _FillValue} (bit for bit for floats; the default fill of
 * the type when there is no attribute, except for byte, ubyte and char, whose default fill is a valid value as
 * netCDF's guide says), any {@code missing_value}, and values outside the valid range (in raw units, as CF
 * says). NaN is not missing by itself: a NaN fill matches NaN data.
 */
public final class CfEncoding {
    private final NcType type;
    private final Number fillValue;
    private final Fills fills;
    private final boolean defaultFillIsMissing;
    private final List<Fills> missing;
    private final double[] missingValues;
    private final double scaleFactor;
    private final double addOffset;
    private final NcType packingType;
    private final double validMin;
    private final double validMax;

    private CfEncoding(NcType type, List<Attr> attributes) {
        this.type = type;
        Attr fv = find(attributes, "_FillValue");
        this.fillValue = fv != null && numeric(fv) && fv.length() == 1 ? number(fv, 0) : null;
        this.fills = Fills.of(type, fillValue);
        this.defaultFillIsMissing =
                fillValue == null && type != NcType.BYTE && type != NcType.UBYTE && type != NcType.CHAR;
        Attr mv = find(attributes, "missing_value");
        this.missing = new ArrayList<>();
        double[] mvs = new double[0];
        if (mv != null && numeric(mv)) {
            mvs = new double[mv.length()];
            for (int i = 0; i < mvs.length; i++) {
                mvs[i] = value(mv, i);
                missing.add(Fills.of(type, number(mv, i)));
            }
        }
        this.missingValues = mvs;
        Attr sf = find(attributes, "scale_factor");
        Attr ao = find(attributes, "add_offset");
        boolean hasScale = sf != null && numeric(sf) && sf.length() == 1;
        boolean hasOffset = ao != null && numeric(ao) && ao.length() == 1;
        this.scaleFactor = hasScale ? value(sf, 0) : 1.0;
        this.addOffset = hasOffset ? value(ao, 0) : 0.0;
        this.packingType = hasScale ? sf.type() : hasOffset ? ao.type() : null;
        double min = Double.NEGATIVE_INFINITY;
        double max = Double.POSITIVE_INFINITY;
        Attr vr = find(attributes, "valid_range");
        if (vr != null && numeric(vr) && vr.length() == 2) {
            min = value(vr, 0);
            max = value(vr, 1);
        } else {
            Attr vmin = find(attributes, "valid_min");
            Attr vmax = find(attributes, "valid_max");
            if (vmin != null && numeric(vmin) && vmin.length() == 1) {
                min = value(vmin, 0);
            }
            if (vmax != null && numeric(vmax) && vmax.length() == 1) {
                max = value(vmax, 0);
            }
        }
        this.validMin = min;
        this.validMax = max;
    }

    /** The metadata of a variable, from its attributes. */
    public static CfEncoding of(VarModel variable) {
        return new CfEncoding(variable.type(), variable.attributes());
    }

    /** The metadata of values of {@code type} with these attributes. */
    public static CfEncoding of(NcType type, List<Attr> attributes) {
        return new CfEncoding(type, attributes);
    }

    /** The type of the raw (stored) values. */
    public NcType type() {
        return type;
    }

    /** The {@code _FillValue} attribute's value, or {@code null} when the variable has none. */
    public Number fillValue() {
        return fillValue;
    }

    /** The fill test, as ncdump decides it ({@code _FillValue}, else the default fill of the type). */
    public Fills fills() {
        return fills;
    }

    /** The {@code missing_value}s (raw units), empty when none; a copy. */
    public double[] missingValues() {
        return missingValues.clone();
    }

    /** Whether the values are packed: a {@code scale_factor} or an {@code add_offset} is given. */
    public boolean isPacked() {
        return packingType != null;
    }

    /** {@code scale_factor}, 1 when not given. */
    public double scaleFactor() {
        return scaleFactor;
    }

    /** {@code add_offset}, 0 when not given. */
    public double addOffset() {
        return addOffset;
    }

    /**
     * The type of unpacked values: that of {@code scale_factor} (else {@code add_offset}) when packed, as CF
     * says; else the raw type.
     */
    public NcType unpackedType() {
        return packingType != null ? packingType : type;
    }

    /** The smallest valid raw value ({@code -Infinity} when not limited). */
    public double validMin() {
        return validMin;
    }

    /** The largest valid raw value ({@code +Infinity} when not limited). */
    public double validMax() {
        return validMax;
    }

    /** Whether a raw value (unsigned widened) is the fill, a missing value, or out of the valid range. */
    public boolean isMissing(double raw) {
        if (fillValue != null || defaultFillIsMissing) {
            if (fills.is(raw)) {
                return true;
            }
        }
        for (Fills m : missing) {
            if (m.is(raw)) {
                return true;
            }
        }
        return raw < validMin || raw > validMax;
    }

    /** The unpacked value of a raw one: {@code raw * scale_factor + add_offset}. */
    public double unpack(double raw) {
        return packingType == null ? raw : raw * scaleFactor + addOffset;
    }

    /** The raw value that unpacks closest to {@code value}: rounded to the nearest integer for integer types. */
    public double pack(double value) {
        if (packingType == null) {
            return value;
        }
        double raw = (value - addOffset) / scaleFactor;
        return type.isFloatingPoint() ? raw : Math.rint(raw);
    }

    /** Element {@code i} of {@code a} unpacked, or NaN when it is missing. */
    public double decoded(TypedArray a, int i) {
        double raw = a.getDouble(i);
        return isMissing(raw) ? Double.NaN : unpack(raw);
    }

    private static Attr find(List<Attr> attributes, String name) {
        for (Attr a : attributes) {
            if (a.name().equals(name)) {
                return a;
            }
        }
        return null;
    }

    private static boolean numeric(Attr a) {
        return a.type().isNumeric() && a.length() > 0;
    }

    /** Element {@code i} of a numeric attribute as a Number of its own kind (integers as their bits). */
    private static Number number(Attr a, int i) {
        Object v = a.value();
        if (v instanceof float[] f) {
            return f[i];
        }
        if (v instanceof double[] d) {
            return d[i];
        }
        return java.lang.reflect.Array.getLong(v, i);
    }

    /** Element {@code i} of a numeric attribute as a double, unsigned types widened. */
    private static double value(Attr a, int i) {
        return new TypedArray(a.type(), new int[] {a.length()}, a.value()).getDouble(i);
    }

    @Override
    public String toString() {
        return "CfEncoding[" + type.cdlName() + ", fill " + fillValue + ", missing " + Arrays.toString(missingValues)
                + ", scale " + scaleFactor + ", offset " + addOffset + ", valid " + validMin + ".." + validMax + "]";
    }
}
