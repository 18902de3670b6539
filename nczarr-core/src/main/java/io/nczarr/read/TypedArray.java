package io.nczarr.read;

import io.nczarr.model.NcType;
import java.util.Arrays;

/**
 * The result of a typed read: a flat primitive array in C order with its netCDF type and shape. The storage
 * is the Java array of the type ({@link #storage(NcType)}); unsigned types keep their bit patterns in the
 * signed Java type of the same width ({@code ushort} in a {@code short[]}), and {@link #getLong}/{@link
 * #getDouble} widen them to their unsigned value.
 */
public final class TypedArray {
    private final NcType type;
    private final int[] shape;
    private final Object data;

    /**
     * @param type the netCDF type of the values
     * @param shape the shape ({@code []} for a scalar); its product is the length of {@code data}
     * @param data the storage: {@code byte[]} for byte, ubyte and char (and the packed records of a structure),
     *     {@code short[]}, {@code int[]}, {@code long[]}, {@code float[]}, {@code double[]}, {@code String[]}, or
     *     {@code byte[][]} for opaque
     */
    public TypedArray(NcType type, int[] shape, Object data) {
        Class<?> want = storage(type);
        if (!want.isInstance(data)) {
            throw new IllegalArgumentException("a " + type.cdlName() + " array is stored in a " + want.getSimpleName()
                    + ", not " + (data == null ? "null" : data.getClass().getSimpleName()));
        }
        this.type = type;
        this.shape = shape.clone();
        this.data = data;
    }

    /** The Java array class that holds values of {@code type}. */
    public static Class<?> storage(NcType type) {
        switch (type) {
            case BYTE:
            case UBYTE:
            case CHAR:
            case STRUCTURE:
                return byte[].class;
            case SHORT:
            case USHORT:
                return short[].class;
            case INT:
            case UINT:
                return int[].class;
            case INT64:
            case UINT64:
                return long[].class;
            case FLOAT:
                return float[].class;
            case DOUBLE:
                return double[].class;
            case OPAQUE:
                return byte[][].class;
            default:
                return String[].class;
        }
    }

    /** A new array of {@code type} and {@code shape}, zeros (nulls for strings). */
    public static TypedArray allocate(NcType type, int[] shape) {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        int len = Math.toIntExact(n);
        Object data;
        switch (type) {
            case BYTE:
            case UBYTE:
            case CHAR:
                data = new byte[len];
                break;
            case SHORT:
            case USHORT:
                data = new short[len];
                break;
            case INT:
            case UINT:
                data = new int[len];
                break;
            case INT64:
            case UINT64:
                data = new long[len];
                break;
            case FLOAT:
                data = new float[len];
                break;
            case DOUBLE:
                data = new double[len];
                break;
            case OPAQUE:
                data = new byte[len][];
                break;
            case STRUCTURE:
                throw new IllegalArgumentException("records have no typed element to allocate");
            default:
                data = new String[len];
        }
        return new TypedArray(type, shape, data);
    }

    /** Sets element {@code i} of a numeric array, narrowed as a Java cast does ({@code (short) (long) v}). */
    public void setDouble(int i, double v) {
        switch (type) {
            case FLOAT:
                ((float[]) data)[i] = (float) v;
                break;
            case DOUBLE:
                ((double[]) data)[i] = v;
                break;
            default:
                setLong(i, (long) v);
        }
    }

    /** Sets element {@code i} of a numeric (or char) array, narrowed to its width. */
    public void setLong(int i, long v) {
        switch (type) {
            case BYTE:
            case UBYTE:
            case CHAR:
                ((byte[]) data)[i] = (byte) v;
                break;
            case SHORT:
            case USHORT:
                ((short[]) data)[i] = (short) v;
                break;
            case INT:
            case UINT:
                ((int[]) data)[i] = (int) v;
                break;
            case INT64:
            case UINT64:
                ((long[]) data)[i] = v;
                break;
            case FLOAT:
                ((float[]) data)[i] = v;
                break;
            case DOUBLE:
                ((double[]) data)[i] = v;
                break;
            default:
                throw new IllegalStateException("a " + type.cdlName() + " array has no numbers");
        }
    }

    public NcType type() {
        return type;
    }

    public boolean isUnsigned() {
        return type.isUnsigned();
    }

    /** The shape ({@code []} for a scalar); a copy. */
    public int[] shape() {
        return shape.clone();
    }

    public int rank() {
        return shape.length;
    }

    /** The number of elements (the product of the shape). */
    public int size() {
        long n = 1;
        for (int s : shape) {
            n *= s;
        }
        return (int) n;
    }

    /** The storage array itself (not a copy): see {@link #storage(NcType)} for its class. */
    public Object storage() {
        return data;
    }

    public double[] doubles() {
        return as(double[].class);
    }

    public float[] floats() {
        return as(float[].class);
    }

    /** int64 and uint64 values (uint64 as their bit patterns). */
    public long[] longs() {
        return as(long[].class);
    }

    /** int and uint values (uint as their bit patterns). */
    public int[] ints() {
        return as(int[].class);
    }

    /** short and ushort values (ushort as their bit patterns). */
    public short[] shorts() {
        return as(short[].class);
    }

    /** byte, ubyte and char values, or the packed records of a structure. */
    public byte[] bytes() {
        return as(byte[].class);
    }

    public String[] strings() {
        return as(String[].class);
    }

    /** Opaque (variable-length bytes) values, one array per element. */
    public byte[][] opaques() {
        return as(byte[][].class);
    }

    private <T> T as(Class<T> c) {
        if (!c.isInstance(data) || (type == NcType.STRUCTURE && c != byte[].class)) {
            throw new IllegalStateException("a " + type.cdlName() + " array is not a " + c.getSimpleName());
        }
        return c.cast(data);
    }

    /** Element {@code i} of an integer (or char) array as a long, unsigned types widened to their value. */
    public long getLong(int i) {
        switch (type) {
            case BYTE:
            case CHAR:
                return ((byte[]) data)[i];
            case UBYTE:
                return ((byte[]) data)[i] & 0xFFL;
            case SHORT:
                return ((short[]) data)[i];
            case USHORT:
                return ((short[]) data)[i] & 0xFFFFL;
            case INT:
                return ((int[]) data)[i];
            case UINT:
                return ((int[]) data)[i] & 0xFFFFFFFFL;
            case INT64:
            case UINT64:
                return ((long[]) data)[i];
            case FLOAT:
                return (long) ((float[]) data)[i];
            case DOUBLE:
                return (long) ((double[]) data)[i];
            default:
                throw new IllegalStateException("a " + type.cdlName() + " array has no numbers");
        }
    }

    /** Element {@code i} of a numeric (or char) array as a double, unsigned types (uint64 too) widened to their value. */
    public double getDouble(int i) {
        switch (type) {
            case FLOAT:
                return ((float[]) data)[i];
            case DOUBLE:
                return ((double[]) data)[i];
            case UINT64: {
                long v = ((long[]) data)[i];
                return v >= 0 ? v : (double) (v >>> 1) * 2.0 + (v & 1);
            }
            default:
                return getLong(i);
        }
    }

    @Override
    public String toString() {
        return "TypedArray[" + type.cdlName() + " " + Arrays.toString(shape) + "]";
    }
}
