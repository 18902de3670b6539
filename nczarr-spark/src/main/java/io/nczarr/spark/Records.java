package io.nczarr.spark;

import io.nczarr.dtype.CompoundType;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Structure (compound) values as Spark {@link StructType}s: NCZarr/netCDF-4 compounds, Zarr v2 structured dtypes,
 * Zarr v3 {@code struct}, complex numbers ({@code real}, {@code imag}). A record's fields are typed as the core
 * types them (the netCDF-Java binding's {@code CdmStructures} does the same): numbers as {@link Values#sparkType}
 * (bool as {@code ubyte}, datetime64/timedelta64 as their {@code int64} counts), a nested record as a nested
 * struct, a sub-array field ({@code ["b", "<f8", [2]]}) as an {@code array} (nested arrays for more than one axis)
 * and a char field as text: its last axis is the string ({@code |S3} is one string of up to 3 bytes, cut at the
 * first NUL; {@code |S1} one of up to 1), as char variables read. Values are decoded from the packed records the
 * core returns, each field at its offset in its own byte order; they are never CF-decoded.
 */
final class Records {
    private Records() {}

    /** The Spark type of one record of {@code type}. */
    static StructType sparkType(CompoundType type) {
        List<StructField> fields = new ArrayList<>();
        for (CompoundType.Member m : type.members()) {
            fields.add(new StructField(m.name(), memberType(m), false, Metadata.empty()));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    /** The netCDF type of a leaf field ({@code |S1} is char, datetimes int64 counts, bool ubyte). */
    static NcType leafType(NumpyDtype dt) {
        if (dt.kind() == 'S') {
            return NcType.CHAR;
        }
        if (dt.kind() == 'M' || dt.kind() == 'm') {
            return NcType.INT64;
        }
        NcType t = ElementType.numericType(dt);
        if (t == null) {
            throw new IllegalArgumentException("field dtype " + dt.text() + " has no netCDF type");
        }
        return t;
    }

    private static DataType memberType(CompoundType.Member m) {
        int[] shape = axes(m);
        DataType t = m.nested() != null ? sparkType(m.nested()) : Values.sparkType(leafType(m.type()));
        for (int i = 0; i < shape.length; i++) {
            t = DataTypes.createArrayType(t, false);
        }
        return t;
    }

    /** The axes a field's values are arrays along: its shape, without a char field's last (text) axis. */
    private static int[] axes(CompoundType.Member m) {
        int[] s = m.shape();
        if (m.nested() == null && leafType(m.type()) == NcType.CHAR && s.length > 0) {
            return Arrays.copyOf(s, s.length - 1);
        }
        return s;
    }

    /** The records {@code first .. first + n - 1} of a read ({@code records}: packed, {@code itemsize} each). */
    static InternalRow[] decode(CompoundType type, byte[] records, int first, int n) {
        InternalRow[] out = new InternalRow[n];
        ByteBuffer b = ByteBuffer.wrap(records);
        for (int r = 0; r < n; r++) {
            out[r] = record(type, b, (first + r) * type.itemsize());
        }
        return out;
    }

    /** Every record of a read as Spark array data. */
    static GenericArrayData array(CompoundType type, byte[] records) {
        return new GenericArrayData(decode(type, records, 0, records.length / Math.max(1, type.itemsize())));
    }

    private static InternalRow record(CompoundType type, ByteBuffer b, int base) {
        List<CompoundType.Member> members = type.members();
        Object[] values = new Object[members.size()];
        for (int i = 0; i < values.length; i++) {
            CompoundType.Member m = members.get(i);
            values[i] = field(m, b, base + m.offset());
        }
        return new GenericInternalRow(values);
    }

    private static Object field(CompoundType.Member m, ByteBuffer b, int at) {
        int[] axes = axes(m);
        int text = axes.length < m.shape().length ? m.shape()[m.shape().length - 1] : 1;
        // bytes one value (a number, a nested record, or a string of `text` chars) takes
        int size = m.nested() != null ? m.nested().itemsize() : m.type().itemsize() * text;
        return values(m, b, at, axes, 0, size, text);
    }

    /** The value (or nested arrays of values) along axes {@code d ..} starting at byte {@code at}. */
    private static Object values(CompoundType.Member m, ByteBuffer b, int at, int[] axes, int d, int size, int text) {
        if (d == axes.length) {
            return m.nested() != null ? record(m.nested(), b, at) : leaf(m.type(), b, at, text);
        }
        int inner = size;
        for (int k = d + 1; k < axes.length; k++) {
            inner *= axes[k];
        }
        Object[] out = new Object[axes[d]];
        for (int i = 0; i < out.length; i++) {
            out[i] = values(m, b, at + i * inner, axes, d + 1, size, text);
        }
        return new GenericArrayData(out);
    }

    /** One leaf value as Spark holds it (unsigned types widened, uint64 as a decimal, char as a string). */
    private static Object leaf(NumpyDtype dt, ByteBuffer b, int at, int text) {
        NcType t = leafType(dt);
        ByteOrder order = dt.itemsize() > 1 ? dt.order() : ByteOrder.BIG_ENDIAN;
        ByteBuffer o = b.duplicate().order(order);
        switch (t) {
            case CHAR: {
                int end = 0;
                while (end < text && b.get(at + end) != 0) {
                    end++;
                }
                return UTF8String.fromBytes(b.array(), at, end);
            }
            case BYTE:
                return o.get(at);
            case UBYTE:
                return (short) (o.get(at) & 0xff);
            case SHORT:
                return o.getShort(at);
            case USHORT:
                return o.getShort(at) & 0xffff;
            case INT:
                return o.getInt(at);
            case UINT:
                return o.getInt(at) & 0xffffffffL;
            case INT64:
                return o.getLong(at);
            case UINT64:
                return Decimal.apply(Values.unsigned(o.getLong(at)));
            case FLOAT:
                return o.getFloat(at);
            case DOUBLE:
                return o.getDouble(at);
            default:
                throw new IllegalArgumentException("no Spark value for a " + t.cdlName() + " field");
        }
    }
}
