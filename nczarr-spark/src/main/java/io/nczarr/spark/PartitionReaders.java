package io.nczarr.spark;

import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.vectorized.ColumnarBatch;

/** Readers of {@link ChunkPartition}s on the executors: one column batch per block, or rows of them. */
final class PartitionReaders implements PartitionReaderFactory {
    private static final long serialVersionUID = 1L;

    private final Grid grid;
    private final List<ColumnSpec> columns;

    PartitionReaders(Grid grid, List<ColumnSpec> columns) {
        this.grid = grid;
        this.columns = List.copyOf(columns);
    }

    @Override
    public boolean supportColumnarReads(InputPartition partition) {
        // structure columns are read as rows (their records are not put into column vectors)
        return grid.options.columnar() && !grid.options.chunks() && !BlockDecoder.hasStructures(columns);
    }

    @Override
    public PartitionReader<ColumnarBatch> createColumnarReader(InputPartition partition) {
        return new Batches(grid, columns, (ChunkPartition) partition);
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        if (grid.options.chunks()) {
            return new ChunkRows(grid, columns, (ChunkPartition) partition);
        }
        Batches batches = new Batches(grid, columns, (ChunkPartition) partition);
        boolean structures = BlockDecoder.hasStructures(columns);
        return new PartitionReader<>() {
            private Iterator<InternalRow> rows;
            private int row;

            @Override
            public boolean next() throws IOException {
                while (rows == null || !rows.hasNext()) {
                    if (!batches.next()) {
                        return false;
                    }
                    rows = batches.get().rowIterator();
                    row = 0;
                }
                return true;
            }

            @Override
            public InternalRow get() {
                InternalRow r = rows.next();
                return structures ? withRecords(r, row++) : r;
            }

            /** A batch row with its structure columns' records in place of the vectors' nulls. */
            private InternalRow withRecords(InternalRow r, int at) {
                Object[] values = new Object[columns.size()];
                for (int i = 0; i < values.length; i++) {
                    InternalRow[] recs = batches.decoder.records(i);
                    if (recs != null) {
                        values[i] = recs[at];
                    } else if (!r.isNullAt(i)) {
                        values[i] = r.get(i, columns.get(i).sparkType());
                    }
                }
                return new GenericInternalRow(values);
            }

            @Override
            public void close() {
                batches.close();
            }
        };
    }

    /** The blocks of one partition, in order, each decoded when reached; stops at the row limit. */
    static final class Batches implements PartitionReader<ColumnarBatch> {
        private final Grid grid;
        private final List<ColumnSpec> columns;
        private final ChunkPartition part;
        private BlockDecoder decoder;
        private int block = -1;
        private long left;
        private ColumnarBatch current;

        Batches(Grid grid, List<ColumnSpec> columns, ChunkPartition part) {
            this.grid = grid;
            this.columns = columns;
            this.part = part;
            this.left = part.rowLimit() < 0 ? Long.MAX_VALUE : part.rowLimit();
        }

        @Override
        public boolean next() throws IOException {
            closeCurrent();
            if (left <= 0 || ++block >= part.origins().length) {
                return false;
            }
            if (decoder == null) {
                decoder = new BlockDecoder(grid, columns);
            }
            int rows = (int) Math.min(left, Integer.MAX_VALUE);
            current = decoder.decode(part.origins()[block], part.counts()[block], rows);
            left -= current.numRows();
            return true;
        }

        @Override
        public ColumnarBatch get() {
            return current;
        }

        private void closeCurrent() {
            if (current != null) {
                current.close();
                current = null;
            }
        }

        @Override
        public void close() {
            // the dataset stays open in this JVM's cache for the next task
            closeCurrent();
        }
    }
}
