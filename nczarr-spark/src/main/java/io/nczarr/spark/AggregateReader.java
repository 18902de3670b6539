package io.nczarr.spark;

import io.nczarr.model.NcType;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.VariableReader;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;

/**
 * One task of an {@link AggregateScan}: reads each block of its partition (decoded chunks, as the row path
 * does), folds the values into per-group accumulators (a group's key is the same along a whole run of the
 * block's innermost grouped dimension, so the grid points are folded in runs, not looked up one by one) and
 * emits one row per group: the group's dimension values, then each aggregate with Spark's semantics (nulls
 * skipped, a float's NaN the largest value, {@code SUM} and {@code MIN}/{@code MAX} of no value null).
 */
final class AggregateReader implements PartitionReader<InternalRow> {
    private final Grid grid;
    private final AggregatePlan plan;
    private final ChunkPartition part;
    private Iterator<InternalRow> rows;
    private InternalRow current;

    AggregateReader(Grid grid, AggregatePlan plan, ChunkPartition part) {
        this.grid = grid;
        this.plan = plan;
        this.part = part;
    }

    @Override
    public boolean next() throws IOException {
        if (rows == null) {
            rows = compute().iterator();
        }
        if (!rows.hasNext()) {
            return false;
        }
        current = rows.next();
        return true;
    }

    @Override
    public InternalRow get() {
        return current;
    }

    @Override
    public void close() {
        // the dataset stays open in this JVM's cache for the next task
    }

    /** One group's running values: per aggregate a count, a sum and the least and greatest value. */
    private static final class Acc {
        final long[] index;
        final long[] count;
        final double[] dsum;
        final long[] lsum;
        final double[] dmin;
        final double[] dmax;
        final long[] lmin;
        final long[] lmax;

        Acc(long[] index, int n) {
            this.index = index;
            count = new long[n];
            dsum = new double[n];
            lsum = new long[n];
            dmin = new double[n];
            dmax = new double[n];
            lmin = new long[n];
            lmax = new long[n];
        }
    }

    private List<InternalRow> compute() throws IOException {
        Opened ds = CoreAccess.dataset(grid.options.url());
        List<ColumnSpec> vars = plan.variables();
        VariableReader[] readers = new VariableReader[vars.size()];
        for (int v = 0; v < readers.length; v++) {
            readers[v] = CoreAccess.find(ds, vars.get(v).varPath());
        }
        List<AggregatePlan.Agg> aggs = plan.aggs();
        Map<Long, Acc> groups = new LinkedHashMap<>();
        for (int b = 0; b < part.origins().length; b++) {
            long[] origin = part.origins()[b];
            int[] count = part.counts()[b];
            Object[] raw = new Object[readers.length];
            for (int v = 0; v < readers.length; v++) {
                raw[v] = CoreAccess.read(readers[v], origin, count);
            }
            int rank = count.length;
            long[] inner = new long[rank];
            long n = 1;
            for (int d = rank - 1; d >= 0; d--) {
                inner[d] = n;
                n *= count[d];
            }
            int last = -1;
            for (ColumnSpec g : plan.groups()) {
                last = Math.max(last, g.dim());
            }
            long run = last < 0 ? Math.max(1, n) : inner[last];
            for (long start = 0; start < n; start += run) {
                long key = 0;
                long[] index = new long[plan.groups().size()];
                for (int g = 0; g < index.length; g++) {
                    int d = plan.groups().get(g).dim();
                    index[g] = origin[d] + (start / inner[d]) % count[d];
                    key = key * grid.lengths[d] + index[g];
                }
                Acc acc = groups.computeIfAbsent(key, k -> new Acc(index, aggs.size()));
                for (int a = 0; a < aggs.size(); a++) {
                    AggregatePlan.Agg agg = aggs.get(a);
                    if (agg.kind() == AggregatePlan.Kind.COUNT_STAR) {
                        acc.count[a] += run;
                        continue;
                    }
                    int v = vars.indexOf(agg.column());
                    fold(acc, a, agg, raw[v], readers[v].encoding(), (int) start, (int) (start + run));
                }
            }
        }
        List<InternalRow> out = new ArrayList<>();
        for (Acc acc : groups.values()) {
            out.add(row(acc));
        }
        return out;
    }

    /** Folds the values {@code from .. to - 1} of one column into aggregate {@code a}. */
    private static void fold(Acc acc, int a, AggregatePlan.Agg agg, Object raw, CfEncoding enc, int from, int to) {
        ColumnSpec c = agg.column();
        NcType t = c.type();
        boolean floating = c.sparkType() == DataTypes.FloatType || c.sparkType() == DataTypes.DoubleType;
        boolean asFloat = c.sparkType() == DataTypes.FloatType;
        for (int i = from; i < to; i++) {
            double x = 0;
            long l = 0;
            if (floating || c.cf()) {
                x = Values.asDouble(raw, i, t);
                if (c.cf() && enc.isMissing(x)) {
                    continue;
                }
                if (c.packed()) {
                    x = enc.unpack(x);
                }
                if (asFloat) {
                    x = (float) x;
                }
            }
            if (!floating) {
                l = asLong(raw, i, t);
            }
            long seen = acc.count[a]++;
            switch (agg.kind()) {
                case SUM:
                    if (floating) {
                        acc.dsum[a] += x;
                    } else {
                        acc.lsum[a] += l;
                    }
                    break;
                case MIN:
                    if (floating) {
                        acc.dmin[a] = seen == 0 || Double.compare(x, acc.dmin[a]) < 0 ? x : acc.dmin[a];
                    } else {
                        acc.lmin[a] = seen == 0 ? l : Math.min(l, acc.lmin[a]);
                    }
                    break;
                case MAX:
                    if (floating) {
                        acc.dmax[a] = seen == 0 || Double.compare(x, acc.dmax[a]) > 0 ? x : acc.dmax[a];
                    } else {
                        acc.lmax[a] = seen == 0 ? l : Math.max(l, acc.lmax[a]);
                    }
                    break;
                default:
                    break;
            }
        }
    }

    /** An integer element as a long, unsigned types widened. */
    private static long asLong(Object raw, int i, NcType t) {
        switch (t) {
            case BYTE:
                return ((byte[]) raw)[i];
            case UBYTE:
                return ((byte[]) raw)[i] & 0xff;
            case SHORT:
                return ((short[]) raw)[i];
            case USHORT:
                return ((short[]) raw)[i] & 0xffff;
            case INT:
                return ((int[]) raw)[i];
            case UINT:
                return ((int[]) raw)[i] & 0xffffffffL;
            case INT64:
                return ((long[]) raw)[i];
            default:
                throw new IllegalArgumentException("not an integer type: " + t);
        }
    }

    private InternalRow row(Acc acc) {
        List<ColumnSpec> groups = plan.groups();
        List<AggregatePlan.Agg> aggs = plan.aggs();
        Object[] values = new Object[groups.size() + aggs.size()];
        for (int g = 0; g < groups.size(); g++) {
            Object v = grid.dimValue(groups.get(g), acc.index[g]);
            values[g] = v instanceof java.math.BigDecimal d ? Decimal.apply(d) : v;
        }
        for (int a = 0; a < aggs.size(); a++) {
            AggregatePlan.Agg agg = aggs.get(a);
            int at = groups.size() + a;
            if (agg.kind() == AggregatePlan.Kind.COUNT_STAR || agg.kind() == AggregatePlan.Kind.COUNT) {
                values[at] = acc.count[a];
            } else if (acc.count[a] > 0) {
                DataType t = agg.column().sparkType();
                boolean floating = t == DataTypes.FloatType || t == DataTypes.DoubleType;
                switch (agg.kind()) {
                    case SUM:
                        values[at] = floating ? (Object) acc.dsum[a] : (Object) acc.lsum[a];
                        break;
                    case MIN:
                        values[at] = floating ? typed(t, acc.dmin[a]) : typed(t, acc.lmin[a]);
                        break;
                    default:
                        values[at] = floating ? typed(t, acc.dmax[a]) : typed(t, acc.lmax[a]);
                        break;
                }
            }
        }
        return new GenericInternalRow(values);
    }

    private static Object typed(DataType t, double v) {
        return t == DataTypes.FloatType ? (Object) (float) v : (Object) v;
    }

    private static Object typed(DataType t, long v) {
        if (t == DataTypes.ByteType) {
            return (byte) v;
        }
        if (t == DataTypes.ShortType) {
            return (short) v;
        }
        if (t == DataTypes.IntegerType) {
            return (int) v;
        }
        return v;
    }
}
