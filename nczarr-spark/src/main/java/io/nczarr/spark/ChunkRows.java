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
                    values[i] = array(c, CoreAccess.read(r, origin, count), r.encoding());
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
                case UINT64:
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
                out[i] = Values.boxed(raw, i, t);
                continue;
            }
            double x = Values.asDouble(raw, i, t);
            if (enc.isMissing(x)) {
                out[i] = null;
            } else if (c.packed()) {
                double u = enc.unpack(x);
                out[i] = asDouble ? (Object) u : (Object) (float) u;
            } else {
                out[i] = Values.boxed(raw, i, t);
            }
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
