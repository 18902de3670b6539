package io.nczarr.spark;

import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.spark.sql.sources.And;
import org.apache.spark.sql.sources.EqualNullSafe;
import org.apache.spark.sql.sources.EqualTo;
import org.apache.spark.sql.sources.Filter;
import org.apache.spark.sql.sources.GreaterThan;
import org.apache.spark.sql.sources.GreaterThanOrEqual;
import org.apache.spark.sql.sources.In;
import org.apache.spark.sql.sources.LessThan;
import org.apache.spark.sql.sources.LessThanOrEqual;
import org.apache.spark.sql.sources.Or;

/**
 * Filters on dimension columns as the set of indices each dimension keeps: every comparison is evaluated
 * on every coordinate value (so any 1-D coordinate, monotonic or not, and the index, and CF time), before
 * any chunk is requested. A filter that is not on one dimension column keeps everything (Spark applies
 * all filters again on the rows).
 */
final class DimFilters {
    private DimFilters() {}

    /** Per dimension the kept indices (null: all), and the filters that pruned. */
    record Result(BitSet[] keep, List<Filter> used) {}

    static Result apply(Grid grid, Filter[] filters) {
        BitSet[] keep = new BitSet[grid.lengths.length];
        List<Filter> used = new ArrayList<>();
        for (Filter f : filters) {
            ColumnSpec c = column(grid, f);
            if (c == null) {
                continue;
            }
            int len = (int) Math.min(grid.lengths[c.dim()], Integer.MAX_VALUE);
            BitSet b = new BitSet(len);
            for (int i = 0; i < len; i++) {
                if (matches(f, grid.dimValue(c, i))) {
                    b.set(i);
                }
            }
            if (keep[c.dim()] == null) {
                keep[c.dim()] = b;
            } else {
                keep[c.dim()].and(b);
            }
            used.add(f);
        }
        return new Result(keep, used);
    }

    /** The one dimension column a filter reads (index up to 2^31 only), or null. */
    private static ColumnSpec column(Grid grid, Filter f) {
        String[] refs = f.references();
        if (refs.length == 0) {
            return null;
        }
        ColumnSpec c = grid.column(refs[0]);
        if (c == null || !c.isDimension() || grid.lengths[c.dim()] > Integer.MAX_VALUE) {
            return null;
        }
        for (String r : refs) {
            if (grid.column(r) != c) {
                return null;
            }
        }
        return supported(f) ? c : null;
    }

    private static boolean supported(Filter f) {
        if (f instanceof And a) {
            return supported(a.left()) && supported(a.right());
        }
        if (f instanceof Or o) {
            return supported(o.left()) && supported(o.right());
        }
        return f instanceof EqualTo
                || f instanceof EqualNullSafe
                || f instanceof GreaterThan
                || f instanceof GreaterThanOrEqual
                || f instanceof LessThan
                || f instanceof LessThanOrEqual
                || f instanceof In;
    }

    /** What {@link #compare} returns for values it cannot order (the filter then keeps the index). */
    static final int UNORDERED = Integer.MIN_VALUE;

    /** Whether a (non-null) column value may pass a supported filter on that column. */
    static boolean matches(Filter f, Object v) {
        if (f instanceof And a) {
            return matches(a.left(), v) && matches(a.right(), v);
        }
        if (f instanceof Or o) {
            return matches(o.left(), v) || matches(o.right(), v);
        }
        if (f instanceof EqualTo e) {
            return test(v, e.value(), c -> c == 0);
        }
        if (f instanceof EqualNullSafe e) {
            return test(v, e.value(), c -> c == 0);
        }
        if (f instanceof GreaterThan g) {
            return test(v, g.value(), c -> c > 0);
        }
        if (f instanceof GreaterThanOrEqual g) {
            return test(v, g.value(), c -> c >= 0);
        }
        if (f instanceof LessThan l) {
            return test(v, l.value(), c -> c < 0);
        }
        if (f instanceof LessThanOrEqual l) {
            return test(v, l.value(), c -> c <= 0);
        }
        if (f instanceof In in) {
            for (Object o : in.values()) {
                if (test(v, o, c -> c == 0)) {
                    return true;
                }
            }
            return false;
        }
        return true;
    }

    private static boolean test(Object value, Object literal, IntPredicate outcome) {
        int c = compare(value, literal);
        return c == UNORDERED || outcome.test(c);
    }

    /**
     * Compares a column value with a filter literal: timestamps as epoch microseconds, integers as longs,
     * other numbers as doubles; {@link #UNORDERED} for a literal of another kind (null, a string) or NaN.
     */
    static int compare(Object value, Object literal) {
        Long lit = micros(literal);
        if (lit != null) {
            return value instanceof Long l ? Long.compare(l, lit) : UNORDERED;
        }
        if (!(literal instanceof Number n) || !(value instanceof Number v)) {
            return UNORDERED;
        }
        if (isIntegral(n) && isIntegral(v)) {
            return Long.compare(v.longValue(), n.longValue());
        }
        double a = v.doubleValue();
        double b = n.doubleValue();
        if (Double.isNaN(a) || Double.isNaN(b)) {
            return UNORDERED;
        }
        return a < b ? -1 : a > b ? 1 : 0;
    }

    private static boolean isIntegral(Number n) {
        return n instanceof Long || n instanceof Integer || n instanceof Short || n instanceof Byte;
    }

    /** A timestamp literal as epoch microseconds, or null. */
    private static Long micros(Object o) {
        if (o instanceof Timestamp t) {
            return Math.floorDiv(t.getTime(), 1000L) * 1_000_000L + t.getNanos() / 1000;
        }
        if (o instanceof Instant i) {
            return i.getEpochSecond() * 1_000_000L + i.getNano() / 1000;
        }
        return null;
    }
}
