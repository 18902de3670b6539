package io.nczarr.spark;

import java.util.BitSet;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.read.Batch;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.types.StructType;

/**
 * A scan whose tasks return partial aggregates ({@link AggregatePlan}): partitions are planned as for rows
 * (whole chunks grouped to the target size), each task reads its chunks and emits one row per group.
 */
final class AggregateScan implements Scan, Batch {
    private final Grid grid;
    private final AggregatePlan aggregate;
    private final Planner.Plan plan;

    AggregateScan(Grid grid, AggregatePlan aggregate, BitSet[] keep) {
        this.grid = grid;
        this.aggregate = aggregate;
        this.plan = Planner.plan(
                grid, keep, Grid.rowBytes(aggregate.variables()), grid.options.partitionBytes(), Planner.cores(), -1);
    }

    @Override
    public StructType readSchema() {
        return aggregate.schema();
    }

    @Override
    public String description() {
        return "nczarr " + grid.options.location() + " aggregate=" + aggregate + " partitions="
                + plan.partitions().size() + " rows=" + plan.rows();
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
        return new Factory(grid, aggregate);
    }

    /** The pushed aggregate (tests). */
    AggregatePlan aggregate() {
        return aggregate;
    }

    private record Factory(Grid grid, AggregatePlan aggregate) implements PartitionReaderFactory {
        @Override
        public PartitionReader<InternalRow> createReader(InputPartition partition) {
            return new AggregateReader(grid, aggregate, (ChunkPartition) partition);
        }
    }
}
