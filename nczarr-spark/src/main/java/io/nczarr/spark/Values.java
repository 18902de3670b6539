package io.nczarr.spark;

import io.nczarr.model.NcType;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;

/** Elements of the core's primitive arrays, read by netCDF type (unsigned types widened). */
final class Values {
    private Values() {}

    /** Element {@code i} of a primitive array as a double. */
    static double asDouble(Object array, int i, NcType type) {
        switch (type) {
            case BYTE:
                return ((byte[]) array)[i];
            case UBYTE:
                return ((byte[]) array)[i] & 0xff;
            case SHORT:
                return ((short[]) array)[i];
            case USHORT:
                return ((short[]) array)[i] & 0xffff;
            case INT:
                return ((int[]) array)[i];
            case UINT:
                return ((int[]) array)[i] & 0xffffffffL;
            case INT64:
                return ((long[]) array)[i];
            case UINT64:
                long l = ((long[]) array)[i];
                return l >= 0 ? l : (double) (l >>> 1) * 2.0 + (l & 1);
            case FLOAT:
                return ((float[]) array)[i];
            case DOUBLE:
                return ((double[]) array)[i];
            default:
                throw new IllegalArgumentException("not a numeric type: " + type);
        }
    }

    /**
     * The Spark type of a raw value: the type itself, unsigned ones widened to the next signed type ({@code uint64}
     * to {@code decimal(20,0)}); {@code string} and {@code char} (its last dimension the text) to strings.
     */
    static DataType sparkType(NcType type) {
        switch (type) {
            case BYTE:
                return DataTypes.ByteType;
            case UBYTE:
            case SHORT:
                return DataTypes.ShortType;
            case USHORT:
            case INT:
                return DataTypes.IntegerType;
            case UINT:
            case INT64:
                return DataTypes.LongType;
            case UINT64:
                return UINT64;
            case FLOAT:
                return DataTypes.FloatType;
            case DOUBLE:
                return DataTypes.DoubleType;
            case STRING:
            case CHAR:
                return DataTypes.StringType;
            default:
                throw new IllegalArgumentException("not a numeric or text type: " + type);
        }
    }

    /** uint64 values: every one exact (2^64 - 1 needs 20 digits). */
    static final DataType UINT64 = DataTypes.createDecimalType(20, 0);

    /** A uint64 bit pattern as its unsigned value. */
    static java.math.BigDecimal unsigned(long bits) {
        return new java.math.BigDecimal(Long.toUnsignedString(bits));
    }

    /** Element {@code i} boxed as the value of {@link #sparkType} (what Spark's rows hold for that type). */
    static Object boxed(Object array, int i, NcType type) {
        switch (type) {
            case BYTE:
                return ((byte[]) array)[i];
            case UBYTE:
                return (short) (((byte[]) array)[i] & 0xff);
            case SHORT:
                return ((short[]) array)[i];
            case USHORT:
                return ((short[]) array)[i] & 0xffff;
            case INT:
                return ((int[]) array)[i];
            case UINT:
                return ((int[]) array)[i] & 0xffffffffL;
            case INT64:
                return ((long[]) array)[i];
            case UINT64:
                return unsigned(((long[]) array)[i]);
            case FLOAT:
                return ((float[]) array)[i];
            case DOUBLE:
                return ((double[]) array)[i];
            default:
                throw new IllegalArgumentException("not a numeric type: " + type);
        }
    }

    /** Bytes one value of a Spark type takes in a column vector. */
    static int width(DataType t) {
        return t.defaultSize();
    }
}
