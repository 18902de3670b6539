package io.nczarr.spark;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.function.IntPredicate;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.Literal;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Decimal;

/**
 * Spark's V2 predicates on dimension columns as the set of indices each dimension keeps: every comparison is
 * evaluated on every coordinate value (so any 1-D coordinate, monotonic or not, and the index, and CF time), before
 * any chunk is requested. Supported: {@code = <=> < <= > >= IN} between one dimension column and literals (either
 * side), and their {@code AND}/{@code OR}; a predicate that is not on one dimension column, or uses anything else,
 * keeps everything (Spark evaluates every predicate again on the rows, so pruning may only keep too much, never too
 * little).
 */
final class DimPredicates {
    private DimPredicates() {}

    /** Per dimension the kept indices (null: all), and the predicates that pruned. */
    record Result(BitSet[] keep, List<Predicate> used) {}

    /** What {@link #compare} returns for values it cannot order (the predicate then keeps the index). */
    static final int UNORDERED = Integer.MIN_VALUE;

    static Result apply(Grid grid, Predicate[] predicates) {
        BitSet[] keep = new BitSet[grid.lengths.length];
        List<Predicate> used = new ArrayList<>();
        for (Predicate p : predicates) {
            ColumnSpec c = column(grid, p);
            if (c == null) {
                continue;
            }
            int len = (int) Math.min(grid.lengths[c.dim()], Integer.MAX_VALUE);
            BitSet b = new BitSet(len);
            for (int i = 0; i < len; i++) {
                if (matches(p, grid.dimValue(c, i), c)) {
                    b.set(i);
                }
            }
            if (keep[c.dim()] == null) {
                keep[c.dim()] = b;
            } else {
                keep[c.dim()].and(b);
            }
            used.add(p);
        }
        return new Result(keep, used);
    }

    /** The one dimension column a supported predicate reads (index up to 2^31 only), or null. */
    private static ColumnSpec column(Grid grid, Predicate p) {
        List<String> refs = new ArrayList<>();
        if (!supported(p, refs) || refs.isEmpty()) {
            return null;
        }
        ColumnSpec c = grid.column(refs.get(0));
        if (c == null || !c.isDimension() || grid.lengths[c.dim()] > Integer.MAX_VALUE) {
            return null;
        }
        for (String r : refs) {
            if (grid.column(r) != c) {
                return null;
            }
        }
        return c;
    }

    /** Whether every node is a supported comparison of a column with literals; collects the columns. */
    private static boolean supported(Predicate p, List<String> refs) {
        switch (p.name()) {
            case "AND":
            case "OR":
                return p.children().length == 2
                        && p.children()[0] instanceof Predicate l
                        && p.children()[1] instanceof Predicate r
                        && supported(l, refs)
                        && supported(r, refs);
            case "=":
            case "<=>":
            case "<":
            case "<=":
            case ">":
            case ">=":
                if (p.children().length != 2) {
                    return false;
                }
                return operand(p.children()[0], p.children()[1], refs)
                        || operand(p.children()[1], p.children()[0], refs);
            case "IN":
                Expression[] ch = p.children();
                if (ch.length < 1 || !(ch[0] instanceof NamedReference n) || n.fieldNames().length != 1) {
                    return false;
                }
                for (int i = 1; i < ch.length; i++) {
                    if (!(ch[i] instanceof Literal<?>)) {
                        return false;
                    }
                }
                refs.add(n.fieldNames()[0]);
                return true;
            default:
                return false;
        }
    }

    private static boolean operand(Expression ref, Expression lit, List<String> refs) {
        if (ref instanceof NamedReference n && n.fieldNames().length == 1 && lit instanceof Literal<?>) {
            refs.add(n.fieldNames()[0]);
            return true;
        }
        return false;
    }

    /** Whether a (non-null) column value may pass a supported predicate on that column. */
    static boolean matches(Predicate p, Object v, ColumnSpec c) {
        Expression[] ch = p.children();
        switch (p.name()) {
            case "AND":
                return matches((Predicate) ch[0], v, c) && matches((Predicate) ch[1], v, c);
            case "OR":
                return matches((Predicate) ch[0], v, c) || matches((Predicate) ch[1], v, c);
            case "IN":
                for (int i = 1; i < ch.length; i++) {
                    if (test(v, (Literal<?>) ch[i], c, x -> x == 0)) {
                        return true;
                    }
                }
                return false;
            default:
                boolean flipped = ch[0] instanceof Literal<?>;
                Literal<?> lit = (Literal<?>) (flipped ? ch[0] : ch[1]);
                String op = flipped ? flip(p.name()) : p.name();
                switch (op) {
                    case "<":
                        return test(v, lit, c, x -> x < 0);
                    case "<=":
                        return test(v, lit, c, x -> x <= 0);
                    case ">":
                        return test(v, lit, c, x -> x > 0);
                    case ">=":
                        return test(v, lit, c, x -> x >= 0);
                    default:
                        return test(v, lit, c, x -> x == 0);
                }
        }
    }

    private static String flip(String op) {
        switch (op) {
            case "<":
                return ">";
            case "<=":
                return ">=";
            case ">":
                return "<";
            case ">=":
                return "<=";
            default:
                return op;
        }
    }

    private static boolean test(Object value, Literal<?> literal, ColumnSpec c, IntPredicate outcome) {
        int x = compare(value, literal, c);
        return x == UNORDERED || outcome.test(x);
    }

    /**
     * Compares a column value with a literal as Spark holds it: a time column only with timestamp literals (epoch
     * microseconds), integers as longs, other numbers as doubles; {@link #UNORDERED} for a literal of another kind
     * (null, a string, a date) or NaN.
     */
    static int compare(Object value, Literal<?> literal, ColumnSpec c) {
        Object lit = literal.value();
        boolean timestamp =
                literal.dataType() == DataTypes.TimestampType || literal.dataType() == DataTypes.TimestampNTZType;
        if ((c.kind() == ColumnSpec.Kind.TIME) != timestamp) {
            return UNORDERED;
        }
        if (lit instanceof Decimal d) {
            lit = d.toDouble();
        }
        if (!(lit instanceof Number n) || !(value instanceof Number v)) {
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
}
