package io.nczarr.spark;

import io.nczarr.model.NcType;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.vectorized.OnHeapColumnVector;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;
import org.apache.spark.sql.vectorized.ColumnVector;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/**
 * One block (a chunk, or the kept part of one) of the grid as a column batch: the variables' decoded
 * chunks go into column vectors in bulk where no conversion is needed, the dimension columns are filled
 * from the index and the coordinate values.
 */
final class BlockDecoder {
    private final Grid grid;
    private final List<ColumnSpec> columns;
    private final Map<String, VariableReader> vars = new HashMap<>();
    /** Per column of the last block: its records (structure columns), else null. */
    private InternalRow[][] records = new InternalRow[0][];

    BlockDecoder(Grid grid, List<ColumnSpec> columns) throws IOException {
        this.grid = grid;
        this.columns = columns;
        Opened dataset = CoreAccess.dataset(grid.options.url());
        for (ColumnSpec c : columns) {
            if (!c.isDimension()) {
                vars.put(c.varPath(), CoreAccess.find(dataset, c.varPath()));
            }
        }
    }

    /** The block's first {@code rows} rows (all when {@code rows} is larger) as a batch. */
    ColumnarBatch decode(long[] origin, int[] count, int rows) throws IOException {
        int n = (int) Math.min(rows, Planner.elements(count));
        ColumnVector[] vectors = new ColumnVector[columns.size()];
        records = new InternalRow[columns.size()][];
        for (int i = 0; i < vectors.length; i++) {
            ColumnSpec c = columns.get(i);
            OnHeapColumnVector v = new OnHeapColumnVector(Math.max(1, n), c.sparkType());
            if (c.isDimension()) {
                fillDimension(v, c, origin, count, n);
            } else {
                VariableReader r = vars.get(c.varPath());
                Object raw = CoreAccess.readTable(r, origin, count);
                if (c.type() == NcType.STRUCTURE) {
                    // rows only (PartitionReaders): the records, decoded here, replace the vector's nulls
                    records[i] = Records.decode(CoreAccess.compound(r), (byte[]) raw, 0, n);
                    v.putNulls(0, Math.max(1, n));
                } else if (c.type() == NcType.CHAR || c.type() == NcType.STRING) {
                    fillText(v, c.type(), raw, n, c.type() == NcType.CHAR ? CoreAccess.textLength(r) : 0);
                } else {
                    fillVariable(v, c, raw, r.encoding(), n);
                }
            }
            vectors[i] = v;
        }
        return new ColumnarBatch(vectors, n);
    }

    /** The decoded records of a structure column of the last block (null for other columns). */
    InternalRow[] records(int column) {
        return records[column];
    }

    /** Whether some column holds structures (those are read as rows, not column batches). */
    static boolean hasStructures(List<ColumnSpec> columns) {
        return columns.stream().anyMatch(c -> c.type() == NcType.STRUCTURE);
    }

    private void fillDimension(OnHeapColumnVector v, ColumnSpec c, long[] origin, int[] count, int n) {
        int d = c.dim();
        long inner = 1;
        for (int k = d + 1; k < count.length; k++) {
            inner *= count[k];
        }
        for (int r = 0; r < n; r++) {
            long index = origin[d] + (r / inner) % count[d];
            switch (c.kind()) {
                case INDEX:
                    v.putLong(r, index);
                    break;
                case TIME:
                    v.putLong(r, ((long[]) grid.dimValues[d])[(int) index]);
                    break;
                default:
                    putRaw(v, c.type(), grid.dimValues[d], (int) index, r);
            }
        }
    }

    private static void fillVariable(OnHeapColumnVector v, ColumnSpec c, Object raw, CfEncoding enc, int n) {
        NcType t = c.type();
        if (!c.cf()) {
            // raw: bulk copies where the Spark type is the stored one
            switch (t) {
                case BYTE:
                    v.putBytes(0, n, (byte[]) raw, 0);
                    return;
                case SHORT:
                    v.putShorts(0, n, (short[]) raw, 0);
                    return;
                case INT:
                    v.putInts(0, n, (int[]) raw, 0);
                    return;
                case INT64:
                    v.putLongs(0, n, (long[]) raw, 0);
                    return;
                case FLOAT:
                    v.putFloats(0, n, (float[]) raw, 0);
                    return;
                case DOUBLE:
                    v.putDoubles(0, n, (double[]) raw, 0);
                    return;
                default:
                    for (int r = 0; r < n; r++) {
                        putRaw(v, t, raw, r, r);
                    }
                    return;
            }
        }
        for (int r = 0; r < n; r++) {
            double x = Values.asDouble(raw, r, t);
            if (enc.isMissing(x)) {
                v.putNull(r);
            } else if (c.packed()) {
                double u = enc.unpack(x);
                if (c.sparkType() == DataTypes.DoubleType) {
                    v.putDouble(r, u);
                } else {
                    v.putFloat(r, (float) u);
                }
            } else {
                putRaw(v, t, raw, r, r);
            }
        }
    }

    /** Strings as UTF-8; a char value is its {@code len} bytes up to the first NUL. */
    private static void fillText(OnHeapColumnVector v, NcType t, Object raw, int n, int len) {
        for (int r = 0; r < n; r++) {
            if (t == NcType.STRING) {
                String s = ((String[]) raw)[r];
                if (s == null) {
                    v.putNull(r);
                } else {
                    v.putByteArray(r, s.getBytes(StandardCharsets.UTF_8));
                }
            } else {
                byte[] b = (byte[]) raw;
                int end = 0;
                while (end < len && b[r * len + end] != 0) {
                    end++;
                }
                v.putByteArray(r, b, r * len, end);
            }
        }
    }

    /** Element {@code i} of a raw array into row {@code r}, unsigned types widened. */
    private static void putRaw(OnHeapColumnVector v, NcType t, Object raw, int i, int r) {
        switch (t) {
            case BYTE:
                v.putByte(r, ((byte[]) raw)[i]);
                break;
            case UBYTE:
                v.putShort(r, (short) (((byte[]) raw)[i] & 0xff));
                break;
            case SHORT:
                v.putShort(r, ((short[]) raw)[i]);
                break;
            case USHORT:
                v.putInt(r, ((short[]) raw)[i] & 0xffff);
                break;
            case INT:
                v.putInt(r, ((int[]) raw)[i]);
                break;
            case UINT:
                v.putLong(r, ((int[]) raw)[i] & 0xffffffffL);
                break;
            case INT64:
                v.putLong(r, ((long[]) raw)[i]);
                break;
            case UINT64:
                v.putDecimal(r, Decimal.apply(Values.unsigned(((long[]) raw)[i])), 20);
                break;
            case FLOAT:
                v.putFloat(r, ((float[]) raw)[i]);
                break;
            case DOUBLE:
                v.putDouble(r, ((double[]) raw)[i]);
                break;
            default:
                throw new IllegalArgumentException("not a numeric type: " + t);
        }
    }
}
