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

    /**
     * An attribute of a variable of type {@code varType}. The {@code _FillValue} of an unsigned integer variable
     * ({@code 65535US}, {@code 200UB}, {@code 4000000000U}) is given in the next wider signed type holding the
     * unsigned value (int 65535, short 200, long 4000000000): cdm 4.5.5's CF enhancement ({@code
     * EnhanceScaleMissingImpl}) reads a same-width fill as its signed bit pattern (-1) when there is no {@code
     * scale_factor}, while the data of the unsigned variable compare as unsigned (65535), so {@code isMissing(65535)}
     * was false. From the wider type it takes the unsigned value. uint64 has no wider type and stays as it is.
     */
    static Attribute variableAttribute(Attr a, NcType varType) {
        if (a.name().equals("_FillValue") && a.type() == varType && a.value() != null) {
            switch (varType) {
                case UBYTE: {
                    byte[] b = (byte[]) a.value();
                    short[] w = new short[b.length];
                    for (int i = 0; i < b.length; i++) {
                        w[i] = (short) (b[i] & 0xff);
                    }
                    return new Attribute(a.name(), Array.factory(DataType.SHORT, new int[] {w.length}, w));
                }
                case USHORT: {
                    short[] s = (short[]) a.value();
                    int[] w = new int[s.length];
                    for (int i = 0; i < s.length; i++) {
                        w[i] = s[i] & 0xffff;
                    }
                    return new Attribute(a.name(), Array.factory(DataType.INT, new int[] {w.length}, w));
                }
                case UINT: {
                    int[] s = (int[]) a.value();
                    long[] w = new long[s.length];
                    for (int i = 0; i < s.length; i++) {
                        w[i] = s[i] & 0xffffffffL;
                    }
                    return new Attribute(a.name(), Array.factory(DataType.LONG, new int[] {w.length}, w));
                }
                default:
                    break;
            }
        }
        return attribute(a);
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
