package io.nczarr.model;

import java.nio.ByteOrder;

/**
 * How one array element is stored in a decoded chunk and which netCDF type it becomes.
 *
 * @param ncType the netCDF type users see
 * @param layout how the bytes of one element are laid out
 * @param itemSize bytes per element in a decoded chunk (0 for variable-length strings)
 * @param order byte order of multi-byte values
 */
public record ElementType(NcType ncType, Layout layout, int itemSize, ByteOrder order) {

    public enum Layout {
        /** Fixed-size numbers (bool and char are one byte each). */
        NUMERIC,
        /** {@code |Sn}: n bytes, NUL-padded, UTF-8. */
        FIXED_BYTES,
        /** {@code <Un}: n UTF-32 code units. */
        FIXED_UNICODE,
        /** {@code |O} with the numcodecs vlen-utf8 encoding. */
        VLEN_UTF8
    }

    /**
     * Maps a dtype. NCZarr and pure Zarr differ in one place: netcdf-c 4.9.0 writes char
     * variables as {@code <U1} with ONE byte per element, so in NCZarr {@code U1} means char.
     *
     * @return the element type, or {@code null} for an unsupported dtype
     */
    public static ElementType of(DType dt, boolean nczarr) {
        NcType numeric = dt.numericType();
        if (numeric != null) {
            return new ElementType(numeric, Layout.NUMERIC, dt.size(), dt.order());
        }
        switch (dt.kind()) {
            case 'S':
                if (dt.size() == 1) {
                    return new ElementType(NcType.CHAR, Layout.NUMERIC, 1, ByteOrder.LITTLE_ENDIAN);
                }
                return dt.size() == 0 ? null : new ElementType(NcType.STRING, Layout.FIXED_BYTES, dt.size(), dt.order());
            case 'U':
                if (nczarr && dt.size() == 1) {
                    return new ElementType(NcType.CHAR, Layout.NUMERIC, 1, ByteOrder.LITTLE_ENDIAN);
                }
                if (dt.size() == 0 || dt.size() > (Integer.MAX_VALUE / 4)) {
                    return null;
                }
                return new ElementType(NcType.STRING, Layout.FIXED_UNICODE, 4 * dt.size(), dt.order());
            case 'O':
                return new ElementType(NcType.STRING, Layout.VLEN_UTF8, 0, ByteOrder.LITTLE_ENDIAN);
            default:
                return null;
        }
    }
}
