package io.nczarr.model;

import java.nio.ByteOrder;

/**
 * A NumPy dtype string as Zarr v2 writes it: byte order ({@code < > |}), kind letter, item size
 * ({@code "<f8"}, {@code "|S5"}, {@code "|O"}).
 */
public record DType(String text, char byteOrder, char kind, int size) {

    /** Parses a dtype string; {@code null} when it is not of the form above. */
    public static DType parse(String text) {
        if (text == null || text.length() < 2) {
            return null;
        }
        char order = text.charAt(0);
        int i = 0;
        if (order == '<' || order == '>' || order == '|' || order == '=') {
            i = 1;
        } else {
            order = '|';
        }
        if (i >= text.length()) {
            return null;
        }
        char kind = text.charAt(i);
        String digits = text.substring(i + 1);
        int size;
        if (digits.isEmpty()) {
            if (kind != 'O') {
                return null;
            }
            size = 0;
        } else {
            try {
                size = Integer.parseInt(digits);
            } catch (NumberFormatException e) {
                return null;
            }
            if (size < 0) {
                return null;
            }
        }
        return new DType(text, order, kind, size);
    }

    /** The byte order of stored values ({@code |} and {@code =} read as little-endian). */
    public ByteOrder order() {
        return byteOrder == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN;
    }

    /** The numeric netCDF type for kinds b, i, u, f; {@code null} for others. */
    public NcType numericType() {
        switch (kind) {
            case 'b':
                return size == 1 ? NcType.UBYTE : null;
            case 'i':
                switch (size) {
                    case 1: return NcType.BYTE;
                    case 2: return NcType.SHORT;
                    case 4: return NcType.INT;
                    case 8: return NcType.INT64;
                    default: return null;
                }
            case 'u':
                switch (size) {
                    case 1: return NcType.UBYTE;
                    case 2: return NcType.USHORT;
                    case 4: return NcType.UINT;
                    case 8: return NcType.UINT64;
                    default: return null;
                }
            case 'f':
                switch (size) {
                    case 4: return NcType.FLOAT;
                    case 8: return NcType.DOUBLE;
                    default: return null;
                }
            default:
                return null;
        }
    }

    @Override
    public String toString() {
        return text;
    }
}
