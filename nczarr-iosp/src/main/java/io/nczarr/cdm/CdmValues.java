package io.nczarr.cdm;

import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.nc2.Attribute;

/** Conversions between the model's values and netCDF-Java 4.5.5 arrays and attributes. */
final class CdmValues {
    private CdmValues() {}

    /** How CDM 4.5.5 marks unsigned integer variables. */
    static final String UNSIGNED = "_Unsigned";
    /** The chunking attribute CDM's own HDF5 reader adds. */
    static final String CHUNK_SIZES = "_ChunkSizes";

    static DataType dataType(NcType t) {
        switch (t) {
            case BYTE:
            case UBYTE:
                return DataType.BYTE;
            case SHORT:
            case USHORT:
                return DataType.SHORT;
            case INT:
            case UINT:
                return DataType.INT;
            case INT64:
            case UINT64:
                return DataType.LONG;
            case FLOAT:
                return DataType.FLOAT;
            case DOUBLE:
                return DataType.DOUBLE;
            case CHAR:
                return DataType.CHAR;
            case STRUCTURE:
                return DataType.STRUCTURE;
            case OPAQUE:
                return DataType.OPAQUE;
            default:
                return DataType.STRING;
        }
    }

    /** Wraps a primitive result array; chars become CDM chars, unsigned types are flagged. */
    static Array array(NcType type, int[] shape, Object data) {
        if (type == NcType.OPAQUE) {
            // as netCDF-Java's own readers give opaque data: one ByteBuffer per element
            byte[][] b = (byte[][]) data;
            java.nio.ByteBuffer[] bb = new java.nio.ByteBuffer[b.length];
            for (int i = 0; i < b.length; i++) {
                bb[i] = java.nio.ByteBuffer.wrap(b[i]);
            }
            return new ucar.ma2.ArrayObject(java.nio.ByteBuffer.class, shape, bb);
        }
        Object storage = data;
        if (type == NcType.CHAR) {
            byte[] b = (byte[]) data;
            char[] c = new char[b.length];
            for (int i = 0; i < b.length; i++) {
                c[i] = (char) (b[i] & 0xff);
            }
            storage = c;
        }
        Array a = Array.factory(dataType(type), shape, storage);
        if (type.isUnsigned()) {
            a.setUnsigned(true);
        }
        return a;
    }

    static Attribute attribute(Attr a) {
        switch (a.type()) {
            case CHAR:
                return new Attribute(a.name(), (String) a.value());
            case STRING: {
                String[] s = (String[]) a.value();
                return new Attribute(a.name(), Array.factory(DataType.STRING, new int[] {s.length}, s));
            }
            default: {
                int n = java.lang.reflect.Array.getLength(a.value());
                Array arr = Array.factory(dataType(a.type()), new int[] {n}, a.value());
                if (a.type().isUnsigned()) {
                    arr.setUnsigned(true);
                }
                return new Attribute(a.name(), arr);
            }
        }
    }
}
