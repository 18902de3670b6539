package io.nczarr.cdm;

import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import io.nczarr.read.ArraySection;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.ChunkGrid;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import ucar.ma2.Array;
import ucar.ma2.DataType;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Range;
import ucar.nc2.Attribute;
import ucar.nc2.Dimension;
import ucar.nc2.Variable;

/**
 * A netCDF-Java variable behind the core's typed read API: what the core's aggregation reading sees of a netCDF
 * aggregation file or fragment. Reads are serialised on {@code lock} (netCDF-Java's readers are not thread safe).
 */
final class CdmVariableReader implements VariableReader {
    private final Variable v;
    private final Object lock;
    private final String location;
    private volatile List<Attr> attributes;

    CdmVariableReader(Variable v, Object lock, String location) {
        this.v = v;
        this.lock = lock;
        this.location = location;
    }

    /** The netCDF type of a netCDF-Java data type ({@code unsigned}: its {@code _Unsigned}); null for others. */
    static NcType ncType(DataType t, boolean unsigned) {
        switch (t) {
            case BYTE:
            case ENUM1:
                return unsigned ? NcType.UBYTE : NcType.BYTE;
            case SHORT:
            case ENUM2:
                return unsigned ? NcType.USHORT : NcType.SHORT;
            case INT:
            case ENUM4:
                return unsigned ? NcType.UINT : NcType.INT;
            case LONG:
                return unsigned ? NcType.UINT64 : NcType.INT64;
            case FLOAT:
                return NcType.FLOAT;
            case DOUBLE:
                return NcType.DOUBLE;
            case CHAR:
                return NcType.CHAR;
            case STRING:
                return NcType.STRING;
            default:
                return null;
        }
    }

    /** A netCDF-Java attribute in the model's form (a one-string attribute is char text, as netCDF-C writes it). */
    static Attr attr(Attribute a) {
        if (a.isString()) {
            if (a.getLength() == 1) {
                return new Attr(a.getShortName(), NcType.CHAR, a.getStringValue());
            }
            String[] s = new String[a.getLength()];
            for (int i = 0; i < s.length; i++) {
                s[i] = a.getStringValue(i);
            }
            return new Attr(a.getShortName(), NcType.STRING, s);
        }
        NcType t = ncType(a.getDataType(), a.isUnsigned());
        if (t == null || t == NcType.CHAR || t == NcType.STRING) {
            return null;
        }
        Array values = a.getValues();
        return new Attr(a.getShortName(), t, values.get1DJavaArray(values.getElementType()));
    }

    Variable variable() {
        return v;
    }

    @Override
    public String path() {
        return "/" + v.getFullName();
    }

    @Override
    public String name() {
        return v.getShortName();
    }

    @Override
    public NcType type() {
        NcType t = ncType(v.getDataType(), v.isUnsigned());
        return t == null ? NcType.OPAQUE : t;
    }

    @Override
    public long[] shape() {
        int[] s = v.getShape();
        long[] out = new long[s.length];
        for (int d = 0; d < s.length; d++) {
            out[d] = s[d];
        }
        return out;
    }

    @Override
    public List<String> dimensions() {
        List<String> out = new ArrayList<>();
        for (Dimension d : v.getDimensions()) {
            out.add(d.isShared() && d.getShortName() != null ? "/" + d.getShortName() : "");
        }
        return out;
    }

    @Override
    public List<Attr> attributes() {
        List<Attr> a = attributes;
        if (a == null) {
            a = new ArrayList<>();
            for (Attribute at : v.getAttributes()) {
                Attr x = attr(at);
                if (x != null) {
                    a.add(x);
                }
            }
            a = List.copyOf(a);
            attributes = a;
        }
        return a;
    }

    @Override
    public CfEncoding encoding() {
        return CfEncoding.of(type(), attributes());
    }

    /** The whole variable as one chunk (netCDF-Java reads whatever section is asked). */
    @Override
    public ChunkGrid grid() {
        long[] shape = shape();
        int[] chunk = new int[shape.length];
        long[] grid = new long[shape.length];
        for (int d = 0; d < shape.length; d++) {
            chunk[d] = (int) Math.max(1, shape[d]);
            grid[d] = shape[d] == 0 ? 0 : 1;
        }
        return new ChunkGrid(shape, chunk, grid, null);
    }

    @Override
    public TypedArray read(ArraySection s) throws IOException {
        NcType t = ncType(v.getDataType(), v.isUnsigned());
        if (t == null) {
            throw new UnsupportedFeatureException(
                    location,
                    null,
                    v.getFullName(),
                    "netCDF type " + v.getDataType(),
                    "the variable's type " + v.getDataType() + " has no typed read",
                    null);
        }
        Array a;
        try {
            List<Range> ranges = new ArrayList<>();
            for (int d = 0; d < s.rank(); d++) {
                long first = s.origin()[d];
                int n = s.count()[d];
                int st = s.stride()[d];
                ranges.add(n == 0 ? Range.EMPTY : new Range((int) first, (int) (first + (long) (n - 1) * st), st));
            }
            synchronized (lock) {
                a = s.rank() == 0 ? v.read() : v.read(ranges);
            }
        } catch (InvalidRangeException e) {
            throw new IllegalArgumentException(location + ": variable '" + v.getFullName() + "': " + e.getMessage(), e);
        }
        return new TypedArray(t, s.count(), storage(t, a));
    }

    /** The values of a netCDF-Java array in the typed API's storage class. */
    static Object storage(NcType t, Array a) {
        switch (t) {
            case CHAR: {
                char[] c = (char[]) a.get1DJavaArray(char.class);
                byte[] b = new byte[c.length];
                for (int i = 0; i < c.length; i++) {
                    b[i] = (byte) c[i];
                }
                return b;
            }
            case STRING: {
                Object[] o = (Object[]) a.get1DJavaArray(Object.class);
                String[] out = new String[o.length];
                for (int i = 0; i < o.length; i++) {
                    out[i] = o[i] == null ? null : o[i].toString();
                }
                return out;
            }
            default:
                return a.get1DJavaArray(TypedArray.storage(t).getComponentType());
        }
    }

    @Override
    public String toString() {
        return "CdmVariableReader[" + v.getFullName() + "]";
    }
}
