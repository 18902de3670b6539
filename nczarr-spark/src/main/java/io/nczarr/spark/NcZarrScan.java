package io.nczarr.spark;

import java.util.BitSet;
import java.util.List;
import java.util.OptionalLong;
import org.apache.spark.sql.connector.expressions.filter.Predicate;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.connector.read.Statistics;
import org.apache.spark.sql.connector.read.SupportsReportStatistics;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** A planned read: the pruned columns, the chunks the filters keep, grouped into partitions. */
final class NcZarrScan implements Scan, Batch, SupportsReportStatistics {
    private final Grid grid;
    private final List<ColumnSpec> columns;
    private final Predicate[] pushed;
    private final Planner.Plan plan;

    NcZarrScan(Grid grid, List<ColumnSpec> columns, BitSet[] keep, Predicate[] pushed, long limit) {
        this.grid = grid;
        this.columns = List.copyOf(columns);
        this.pushed = pushed;
        this.plan =
                Planner.plan(grid, keep, Grid.rowBytes(columns), grid.options.partitionBytes(), Planner.cores(), limit);
    }

    @Override
    public StructType readSchema() {
        StructField[] fields = new StructField[columns.size()];
        for (int i = 0; i < fields.length; i++) {
            ColumnSpec c = columns.get(i);
            fields[i] = new StructField(c.name(), c.sparkType(), c.nullable(), Metadata.empty());
        }
        return new StructType(fields);
    }

    @Override
    public String description() {
        return "nczarr " + grid.options.location() + " columns="
                + columns.stream().map(ColumnSpec::name).toList()
                + " partitions=" + plan.partitions().size() + " rows=" + plan.rows() + " prunedBy="
                + java.util.Arrays.toString(pushed);
    }

    @Override
    public Batch toBatch() {
        return this;
    }

    @Override
    public InputPartition[] planInputPartitions() {
        return plan.partitions().toArray(new InputPartition[0]);
    }

    @Override
    public PartitionReaderFactory createReaderFactory() {
        return new PartitionReaders(grid, columns);
    }

    @Override
    public Statistics estimateStatistics() {
        long bytes = plan.rows() * Grid.rowBytes(columns);
        long rows = grid.options.chunks()
                ? plan.partitions().stream().mapToLong(p -> p.origins().length).sum()
                : plan.rows();
        return new Statistics() {
            @Override
            public OptionalLong sizeInBytes() {
                return OptionalLong.of(bytes);
            }

            @Override
            public OptionalLong numRows() {
                return OptionalLong.of(rows);
            }
        };
    }

    /** The plan (tests). */
    Planner.Plan plan() {
        return plan;
    }
}
