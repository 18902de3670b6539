package io.nczarr.model;

import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import java.nio.ByteOrder;

/**
 * How one array element is stored in a decoded chunk and which netCDF type it becomes.
 *
 * @param ncType the netCDF type users see
 * @param layout how the bytes of one element are laid out
 * @param itemSize bytes per element in a decoded chunk (0 for variable-length strings)
 * @param order byte order of multi-byte values
 * @param compound the record type of a {@link NcType#STRUCTURE} element, else {@code null}
 */
public record ElementType(NcType ncType, Layout layout, int itemSize, ByteOrder order, CompoundType compound) {

    public ElementType(NcType ncType, Layout layout, int itemSize, ByteOrder order) {
        this(ncType, layout, itemSize, order, null);
    }

    /** Records of a compound type: {@code itemsize} packed bytes each, members in their own byte orders. */
    public static ElementType record(CompoundType type) {
        return new ElementType(NcType.STRUCTURE, Layout.RECORD, type.itemsize(), ByteOrder.LITTLE_ENDIAN, type);
    }

    /** Variable-length byte strings (numcodecs {@code vlen-bytes}, Zarr v3 {@code bytes}): opaque values. */
    public static ElementType vlenBytes() {
        return new ElementType(NcType.OPAQUE, Layout.VLEN_BYTES, 0, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Raw bytes of a fixed length (zarr-extensions {@code r<N>}, zarr-python's {@code raw_bytes}): opaque values
     * of {@code length} bytes each.
     */
    public static ElementType fixedOpaque(int length) {
        return new ElementType(NcType.OPAQUE, Layout.FIXED_OPAQUE, length, ByteOrder.LITTLE_ENDIAN);
    }

    public enum Layout {
        /** Fixed-size numbers (bool and char are one byte each). */
        NUMERIC,
        /** {@code |Sn}: n bytes, NUL-padded, UTF-8. */
        FIXED_BYTES,
        /** {@code <Un}: n UTF-32 code units. */
        FIXED_UNICODE,
        /** {@code |O} with the numcodecs vlen-utf8 encoding. */
        VLEN_UTF8,
        /** {@code |O} with the numcodecs vlen-bytes encoding: opaque byte strings. */
        VLEN_BYTES,
        /** Fixed-size records ({@link CompoundType}): complex numbers, structured dtypes. */
        RECORD,
        /** Raw bytes of a fixed length ({@code r<N>}, {@code raw_bytes}): opaque values. */
        FIXED_OPAQUE
    }

    /**
     * Maps a dtype. NCZarr and pure Zarr differ in one place: netcdf-c 4.9.0 writes char
     * variables as {@code <U1} with ONE byte per element, so in NCZarr {@code U1} means char.
     *
     * @return the element type, or {@code null} for an unsupported dtype
     */
    public static ElementType of(NumpyDtype dt, boolean nczarr) {
        if (isHalfFloat(dt)) {
            // float16 has no netCDF type: chunks are widened to float32 (exactly) as they decode
            return new ElementType(NcType.FLOAT, Layout.NUMERIC, 4, ByteOrder.LITTLE_ENDIAN);
        }
        if (CompoundType.isComplex(dt)) {
            // complex64/128: a record of two floats, real and imag
            return record(CompoundType.complex(dt));
        }
        if (dt.kind() == 'M' || dt.kind() == 'm') {
            // datetime64 / timedelta64: int64 counts of the dtype's unit
            return new ElementType(NcType.INT64, Layout.NUMERIC, 8, dt.order());
        }
        NcType numeric = numericType(dt);
        if (numeric != null) {
            return new ElementType(numeric, Layout.NUMERIC, dt.itemsize(), dt.order());
        }
        switch (dt.kind()) {
            case 'S':
                if (dt.length() == 1) {
                    return new ElementType(NcType.CHAR, Layout.NUMERIC, 1, ByteOrder.LITTLE_ENDIAN);
                }
                return dt.length() == 0
                        ? null
                        : new ElementType(NcType.STRING, Layout.FIXED_BYTES, dt.itemsize(), dt.order());
            case 'U':
                if (nczarr && dt.length() == 1) {
                    return new ElementType(NcType.CHAR, Layout.NUMERIC, 1, ByteOrder.LITTLE_ENDIAN);
                }
                return dt.length() == 0
                        ? null
                        : new ElementType(NcType.STRING, Layout.FIXED_UNICODE, dt.itemsize(), dt.order());
            case 'O':
                return new ElementType(NcType.STRING, Layout.VLEN_UTF8, 0, ByteOrder.LITTLE_ENDIAN);
            default:
                return null;
        }
    }

    /** {@code <f2} or {@code >f2}: stored as half precision, read as float. */
    public static boolean isHalfFloat(NumpyDtype dt) {
        return dt.kind() == 'f' && dt.itemsize() == 2;
    }

    /** The numeric netCDF type of a bool, integer or float dtype ({@code |b1} reads as ubyte); {@code null} for others. */
    public static NcType numericType(NumpyDtype dt) {
        switch (dt.kind()) {
            case 'b':
                return NcType.UBYTE;
            case 'i':
                switch (dt.itemsize()) {
                    case 1:
                        return NcType.BYTE;
                    case 2:
                        return NcType.SHORT;
                    case 4:
                        return NcType.INT;
                    default:
                        return NcType.INT64;
                }
            case 'u':
                switch (dt.itemsize()) {
                    case 1:
                        return NcType.UBYTE;
                    case 2:
                        return NcType.USHORT;
                    case 4:
                        return NcType.UINT;
                    default:
                        return NcType.UINT64;
                }
            case 'f':
                switch (dt.itemsize()) {
                    case 4:
                        return NcType.FLOAT;
                    case 8:
                        return NcType.DOUBLE;
                    default:
                        return null; // half precision has no netCDF type
                }
            default:
                return null;
        }
    }
}
