package io.nczarr.spark;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.sql.connector.expressions.aggregate.Aggregation;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.ScanBuilder;
import org.apache.spark.sql.connector.read.SupportsPushDownAggregates;
import org.apache.spark.sql.connector.read.SupportsPushDownLimit;
import org.apache.spark.sql.connector.read.SupportsPushDownRequiredColumns;
import org.apache.spark.sql.connector.read.SupportsPushDownV2Filters;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Pushdown: the columns Spark needs (variables not needed are never read), filters on dimension columns
 * (Spark's V2 predicates: the chunks they exclude are never requested; Spark still applies every filter to the rows, so a filter
 * prunes chunks but never decides a row alone), LIMIT and aggregates ({@link AggregatePlan}).
 */
final class NcZarrScanBuilder
        implements ScanBuilder,
                SupportsPushDownRequiredColumns,
                SupportsPushDownV2Filters,
                SupportsPushDownLimit,
                SupportsPushDownAggregates {
    private final Grid grid;
    private List<ColumnSpec> required;
    private BitSet[] keep;
    private Predicate[] pushed = new Predicate[0];
    private long limit = -1;
    private AggregatePlan aggregate;

    NcZarrScanBuilder(Grid grid) {
        this.grid = grid;
        this.required = grid.columns;
        this.keep = new BitSet[grid.lengths.length];
    }

    @Override
    public void pruneColumns(StructType requiredSchema) {
        List<ColumnSpec> cols = new ArrayList<>();
        for (StructField f : requiredSchema.fields()) {
            ColumnSpec c = grid.column(f.name());
            if (c != null) {
                cols.add(c);
            }
        }
        required = cols;
    }

    /** Spark's V2 predicates: those on one dimension column prune chunks; all are evaluated again on the rows. */
    @Override
    public Predicate[] pushPredicates(Predicate[] predicates) {
        DimPredicates.Result r = DimPredicates.apply(grid, predicates);
        keep = r.keep();
        pushed = r.used().toArray(new Predicate[0]);
        return predicates;
    }

    @Override
    public Predicate[] pushedPredicates() {
        return pushed.clone();
    }

    @Override
    public boolean pushLimit(int n) {
        if (grid.options.chunks()) {
            // a row is a chunk there, the planner counts grid points
            return false;
        }
        limit = n;
        return true;
    }

    @Override
    public boolean isPartiallyPushed() {
        return true;
    }

    /** Partial aggregates computed by the tasks ({@link AggregatePlan}); Spark merges them. */
    @Override
    public boolean pushAggregation(Aggregation aggregation) {
        aggregate = AggregatePlan.of(grid, aggregation);
        return aggregate != null;
    }

    @Override
    public Scan build() {
        if (aggregate != null) {
            return new AggregateScan(grid, aggregate, keep);
        }
        return new NcZarrScan(grid, required, keep, pushed, limit);
    }
}
