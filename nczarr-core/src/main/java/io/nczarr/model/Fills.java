package io.nczarr.model;

/**
 * Whether a value is a variable's fill value, as ncdump decides it: the {@code _FillValue}
 * attribute if the variable has one, else the netCDF default fill of its type. Integers compare
 * on the type's width, so an unsigned fill ({@code 65535US}, {@code 200UB}, {@code 4000000000U})
 * matches a value given signed ({@code -1}, as netCDF-Java 4.5.5 stores it) or widened to its
 * unsigned value ({@code 65535}, as its arrays' {@code getLong}/{@code getDouble} give it); floats
 * compare bit for bit, so a NaN fill matches NaN data. The one place dump, quicklook and the CDM
 * layer decide it.
 */
public final class Fills {
    private final NcType type;
    private final long bits;
    private final boolean present;

    private Fills(NcType type, long bits, boolean present) {
        this.type = type;
        this.bits = bits;
        this.present = present;
    }

    /**
     * @param type the variable's type
     * @param fillValue the {@code _FillValue} attribute's value (signed or unsigned form), or
     *     {@code null} for none: the netCDF default fill of {@code type} is used then
     */
    public static Fills of(NcType type, Number fillValue) {
        Number v = fillValue != null ? fillValue : defaultFill(type);
        if (v == null) {
            return new Fills(type, 0, false);
        }
        switch (type) {
            case FLOAT:
                return new Fills(type, Float.floatToIntBits(v.floatValue()), true);
            case DOUBLE:
                return new Fills(type, Double.doubleToLongBits(v.doubleValue()), true);
            default:
                long x;
                if (v instanceof Double || v instanceof Float) {
                    x = (long) v.doubleValue();
                } else {
                    x = v.longValue();
                }
                return new Fills(type, x & mask(type), true);
        }
    }

    /** netCDF's default fill of a numeric or char type ({@code NC_FILL_*}), else {@code null}. */
    public static Number defaultFill(NcType type) {
        switch (type) {
            case BYTE:
                return (byte) -127;
            case UBYTE:
                return 255;
            case SHORT:
                return (short) -32767;
            case USHORT:
                return 65535;
            case INT:
                return -2147483647;
            case UINT:
                return 4294967295L;
            case INT64:
                return -9223372036854775806L;
            case UINT64:
                return -2L; // 18446744073709551614 as its 64 bits
            case FLOAT:
                return 9.9692099683868690e+36f;
            case DOUBLE:
                return 9.9692099683868690e+36;
            case CHAR:
                return 0;
            default:
                return null;
        }
    }

    private static long mask(NcType t) {
        switch (t.size()) {
            case 1:
                return 0xFFL;
            case 2:
                return 0xFFFFL;
            case 4:
                return 0xFFFFFFFFL;
            default:
                return -1L;
        }
    }

    /** Whether an integer (or char) value, signed or widened unsigned, is the fill. */
    public boolean is(long value) {
        return present && (value & mask(type)) == bits;
    }

    /** Whether a float value is the fill (bit for bit). */
    public boolean is(float value) {
        return present && type == NcType.FLOAT && Float.floatToIntBits(value) == bits;
    }

    /**
     * Whether a value read as a double is the fill: bit for bit for double, as a float for float,
     * and as an integer on the type's width for integer types (NaN and fractions never match).
     */
    public boolean is(double value) {
        if (!present) {
            return false;
        }
        if (type == NcType.DOUBLE) {
            return Double.doubleToLongBits(value) == bits;
        }
        if (type == NcType.FLOAT) {
            return Float.floatToIntBits((float) value) == bits;
        }
        if (Double.isNaN(value) || value != Math.rint(value)) {
            return false;
        }
        long x = value >= 0x1p63 ? (long) (value - 0x1p64) : (long) value;
        return is(x);
    }
}
