package io.nczarr.spark;

import io.nczarr.model.NcType;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.catalyst.expressions.UnsafeArrayData;
import org.apache.spark.sql.catalyst.util.ArrayData;
import org.apache.spark.sql.catalyst.util.GenericArrayData;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.ArrayType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Layout chunks: one row per block of a partition (a chunk, or a shard of a sharded array): its origin, its
 * shape and each variable's values in C order as an array, for ML and UDF pipelines.
 */
final class ChunkRows implements PartitionReader<InternalRow> {
    private final Grid grid;
    private final List<ColumnSpec> columns;
    private final ChunkPartition part;
    private final Map<String, VariableReader> vars = new HashMap<>();
    private int block = -1;
    private InternalRow current;

    ChunkRows(Grid grid, List<ColumnSpec> columns, ChunkPartition part) {
        this.grid = grid;
        this.columns = columns;
        this.part = part;
    }

    @Override
    public boolean next() throws IOException {
        if (++block >= part.origins().length) {
            return false;
        }
        long[] origin = part.origins()[block];
        int[] count = part.counts()[block];
        Object[] values = new Object[columns.size()];
        for (int i = 0; i < values.length; i++) {
            ColumnSpec c = columns.get(i);
            switch (c.kind()) {
                case ORIGIN:
                    values[i] = UnsafeArrayData.fromPrimitiveArray(origin);
                    break;
                case SHAPE:
                    values[i] = UnsafeArrayData.fromPrimitiveArray(count);
                    break;
                default:
                    VariableReader r = reader(c.varPath());
                    if (c.type() == NcType.STRUCTURE) {
                        values[i] = Records.array(CoreAccess.compound(r), (byte[]) CoreAccess.read(r, origin, count));
                    } else {
                        values[i] = c.type() == NcType.CHAR || c.type() == NcType.STRING
                                ? text(c.type(), CoreAccess.readTable(r, origin, count), r)
                                : array(c, CoreAccess.read(r, origin, count), r.encoding());
                    }
            }
        }
        current = new GenericInternalRow(values);
        return true;
    }

    private VariableReader reader(String path) throws IOException {
        VariableReader r = vars.get(path);
        if (r == null) {
            Opened ds = CoreAccess.dataset(grid.options.url());
            r = CoreAccess.find(ds, path);
            vars.put(path, r);
        }
        return r;
    }

    /** A variable's values as Spark array data: the primitive array as is where the types agree. */
    private static ArrayData array(ColumnSpec c, Object raw, CfEncoding enc) {
        NcType t = c.type();
        if (!c.cf()) {
            switch (t) {
                case BYTE:
                    return UnsafeArrayData.fromPrimitiveArray((byte[]) raw);
                case SHORT:
                    return UnsafeArrayData.fromPrimitiveArray((short[]) raw);
                case INT:
                    return UnsafeArrayData.fromPrimitiveArray((int[]) raw);
                case INT64:
                    return UnsafeArrayData.fromPrimitiveArray((long[]) raw);
                case FLOAT:
                    return UnsafeArrayData.fromPrimitiveArray((float[]) raw);
                case DOUBLE:
                    return UnsafeArrayData.fromPrimitiveArray((double[]) raw);
                default:
                    break;
            }
        }
        int n = java.lang.reflect.Array.getLength(raw);
        Object[] out = new Object[n];
        boolean asDouble = ((ArrayType) c.sparkType()).elementType() == DataTypes.DoubleType;
        for (int i = 0; i < n; i++) {
            if (!c.cf()) {
                out[i] = spark(Values.boxed(raw, i, t));
                continue;
            }
            double x = Values.asDouble(raw, i, t);
            if (enc.isMissing(x)) {
                out[i] = null;
            } else if (c.packed()) {
                double u = enc.unpack(x);
                out[i] = asDouble ? (Object) u : (Object) (float) u;
            } else {
                out[i] = spark(Values.boxed(raw, i, t));
            }
        }
        return new GenericArrayData(out);
    }

    /** A boxed value as Spark holds it (a uint64's BigDecimal as a Decimal). */
    private static Object spark(Object boxed) {
        return boxed instanceof java.math.BigDecimal b ? Decimal.apply(b) : boxed;
    }

    /** Strings (or char values up to their first NUL) as a Spark array of UTF-8 strings. */
    private static ArrayData text(NcType t, Object raw, VariableReader r) {
        if (t == NcType.STRING) {
            String[] s = (String[]) raw;
            Object[] out = new Object[s.length];
            for (int i = 0; i < s.length; i++) {
                out[i] = s[i] == null ? null : UTF8String.fromString(s[i]);
            }
            return new GenericArrayData(out);
        }
        byte[] b = (byte[]) raw;
        int len = CoreAccess.textLength(r);
        Object[] out = new Object[len == 0 ? 0 : b.length / len];
        for (int i = 0; i < out.length; i++) {
            int end = 0;
            while (end < len && b[i * len + end] != 0) {
                end++;
            }
            out[i] = UTF8String.fromBytes(b, i * len, end);
        }
        return new GenericArrayData(out);
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        // the dataset stays open in this JVM's cache for the next task
    }
}
