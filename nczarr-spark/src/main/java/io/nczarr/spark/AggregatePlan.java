package io.nczarr.spark;

import io.nczarr.model.NcType;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.connector.expressions.Expression;
import org.apache.spark.sql.connector.expressions.NamedReference;
import org.apache.spark.sql.connector.expressions.aggregate.AggregateFunc;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.aggregate.Count;
import org.apache.spark.sql.connector.expressions.aggregate.CountStar;
import org.apache.spark.sql.connector.expressions.aggregate.Max;
import org.apache.spark.sql.connector.expressions.aggregate.Min;
import org.apache.spark.sql.connector.expressions.aggregate.Sum;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * A pushed-down aggregate ({@code SupportsPushDownAggregates}, partial: Spark merges the partitions' results):
 * {@code COUNT(*)}, {@code COUNT}, {@code MIN}, {@code MAX} and {@code SUM} (Spark turns {@code AVG} into
 * {@code SUM / COUNT}) of numeric variable columns, grouped by dimension columns (or not grouped), computed by
 * each task from its decoded chunks: one output row per group and partition instead of one per grid point.
 *
 * <p>Not pushed (Spark aggregates the rows, as before): a filter the scan does not fully apply (every filter:
 * Spark re-checks rows), DISTINCT, grouping by a variable, an aggregate of a dimension, a structure or text
 * column, {@code SUM}/{@code AVG} of a column narrower than {@code bigint} other than float/double (Spark casts a
 * partial sum back to the column's type, which could overflow), {@code uint64} columns, the chunks layout, the
 * option {@code pushAggregates false}.
 *
 * @param groups the group-by dimension columns
 * @param aggs the aggregates in Spark's order
 */
record AggregatePlan(List<ColumnSpec> groups, List<Agg> aggs) implements Serializable {

    enum Kind {
        COUNT_STAR,
        COUNT,
        MIN,
        MAX,
        SUM
    }

    /** One aggregate: its kind and column (null for {@code COUNT(*)}). */
    record Agg(Kind kind, ColumnSpec column) implements Serializable {
        /** The Spark type of the partial result. */
        DataType resultType() {
            switch (kind) {
                case COUNT_STAR:
                case COUNT:
                    return DataTypes.LongType;
                case SUM:
                    return column.sparkType() == DataTypes.LongType ? DataTypes.LongType : DataTypes.DoubleType;
                default:
                    return column.sparkType();
            }
        }
    }

    /** The plan of an aggregation, or null when it is not one the connector computes. */
    static AggregatePlan of(Grid grid, Aggregation aggregation) {
        if (grid.options.chunks() || !grid.options.pushAggregates()) {
            return null;
        }
        List<ColumnSpec> groups = new ArrayList<>();
        long keys = 1;
        for (Expression e : aggregation.groupByExpressions()) {
            ColumnSpec c = column(grid, e);
            if (c == null || !c.isDimension() || groups.contains(c)) {
                return null;
            }
            keys = Math.multiplyHigh(keys, grid.lengths[c.dim()]) != 0 ? -1 : keys * grid.lengths[c.dim()];
            if (keys < 0) {
                return null;
            }
            groups.add(c);
        }
        List<Agg> aggs = new ArrayList<>();
        for (AggregateFunc f : aggregation.aggregateExpressions()) {
            Agg a = agg(grid, f);
            if (a == null) {
                return null;
            }
            aggs.add(a);
        }
        return new AggregatePlan(List.copyOf(groups), List.copyOf(aggs));
    }

    private static Agg agg(Grid grid, AggregateFunc f) {
        if (f instanceof CountStar) {
            return new Agg(Kind.COUNT_STAR, null);
        }
        Kind kind;
        Expression arg;
        if (f instanceof Count c && !c.isDistinct()) {
            kind = Kind.COUNT;
            arg = c.column();
        } else if (f instanceof Min m) {
            kind = Kind.MIN;
            arg = m.column();
        } else if (f instanceof Max m) {
            kind = Kind.MAX;
            arg = m.column();
        } else if (f instanceof Sum s && !s.isDistinct()) {
            kind = Kind.SUM;
            arg = s.column();
        } else {
            return null;
        }
        ColumnSpec c = column(grid, arg);
        if (c == null || c.kind() != ColumnSpec.Kind.VARIABLE || !c.type().isNumeric() || c.type() == NcType.UINT64) {
            return null;
        }
        DataType t = c.sparkType();
        if (kind == Kind.SUM && t != DataTypes.LongType && t != DataTypes.FloatType && t != DataTypes.DoubleType) {
            return null;
        }
        return new Agg(kind, c);
    }

    private static ColumnSpec column(Grid grid, Expression e) {
        if (e instanceof NamedReference n && n.fieldNames().length == 1) {
            return grid.column(n.fieldNames()[0]);
        }
        return null;
    }

    /** The variable columns the aggregates read, each once. */
    List<ColumnSpec> variables() {
        List<ColumnSpec> out = new ArrayList<>();
        for (Agg a : aggs) {
            if (a.column() != null && !out.contains(a.column())) {
                out.add(a.column());
            }
        }
        return out;
    }

    /** The scan's output: the group columns, then one column per aggregate ({@code agg0, agg1, ...}). */
    StructType schema() {
        List<StructField> fields = new ArrayList<>();
        for (ColumnSpec g : groups) {
            fields.add(new StructField(g.name(), g.sparkType(), false, Metadata.empty()));
        }
        for (int i = 0; i < aggs.size(); i++) {
            fields.add(new StructField("agg" + i, aggs.get(i).resultType(), true, Metadata.empty()));
        }
        return new StructType(fields.toArray(new StructField[0]));
    }

    @Override
    public String toString() {
        return aggs.stream()
                        .map(a -> a.kind()
                                + (a.column() == null ? "" : "(" + a.column().name() + ")"))
                        .toList()
                + " by " + groups.stream().map(ColumnSpec::name).toList();
    }
}
