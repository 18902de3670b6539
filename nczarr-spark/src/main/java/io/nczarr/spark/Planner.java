package io.nczarr.spark;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import org.apache.spark.sql.SparkSession;

/**
 * Partitions from metadata only: the chunk grid of the selected variables (shard-aligned for sharded
 * arrays: the grid is the shard grid), the chunks no filter keeps dropped, neighbouring chunks (in C order)
 * grouped until a partition holds about the target decoded size, and at most the rows a LIMIT needs. The
 * target is the {@code partitionBytes} option, lowered so that every core gets a partition when the read is
 * smaller than cores × option (as Spark's file sources cut splits: {@code min(maxPartitionBytes, bytesPerCore)}).
 */
final class Planner {
    private Planner() {}

    /** Kept sub-range of one grid cell along one dimension. */
    private record Span(long origin, int count) {}

    record Plan(List<ChunkPartition> partitions, long rows) {}

    /**
     * @param keep per dimension the kept indices (null: all)
     * @param rowBytes decoded bytes of one row of the read columns
     * @param limit rows needed at most, or -1
     */
    static Plan plan(Grid grid, BitSet[] keep, long rowBytes, long partitionBytes, int cores, long limit) {
        int rank = grid.lengths.length;
        List<List<Span>> spans = new ArrayList<>();
        long keptRows = 1;
        for (int d = 0; d < rank; d++) {
            List<Span> s = spans(grid.lengths[d], grid.chunk[d], keep[d]);
            if (s.isEmpty()) {
                return new Plan(List.of(), 0);
            }
            spans.add(s);
            keptRows =
                    saturatedTimes(keptRows, s.stream().mapToLong(Span::count).sum());
        }
        long targetBytes = target(partitionBytes, cores, saturatedTimes(keptRows, rowBytes));
        List<ChunkPartition> out = new ArrayList<>();
        List<long[]> origins = new ArrayList<>();
        List<int[]> counts = new ArrayList<>();
        long partBytes = 0;
        long rows = 0;
        int[] at = new int[rank];
        while (true) {
            long[] origin = new long[rank];
            int[] count = new int[rank];
            for (int d = 0; d < rank; d++) {
                Span s = spans.get(d).get(at[d]);
                origin[d] = s.origin();
                count[d] = s.count();
            }
            long n = elements(count);
            origins.add(origin);
            counts.add(count);
            rows += n;
            partBytes += n * rowBytes;
            boolean enough = limit >= 0 && rows >= limit;
            if (partBytes >= targetBytes || enough) {
                out.add(partition(out.size(), origins, counts, limit));
                origins.clear();
                counts.clear();
                partBytes = 0;
            }
            if (enough) {
                break;
            }
            int d = rank - 1;
            while (d >= 0 && ++at[d] == spans.get(d).size()) {
                at[d] = 0;
                d--;
            }
            if (d < 0) {
                break;
            }
        }
        if (!origins.isEmpty()) {
            out.add(partition(out.size(), origins, counts, limit));
        }
        return new Plan(out, limit >= 0 ? Math.min(rows, limit) : rows);
    }

    private static ChunkPartition partition(int index, List<long[]> origins, List<int[]> counts, long limit) {
        return new ChunkPartition(index, origins.toArray(new long[0][]), counts.toArray(new int[0][]), limit);
    }

    /** The chunks along one dimension, each cut to the hull of its kept indices; chunks keeping none left out. */
    private static List<Span> spans(long length, int chunk, BitSet keep) {
        List<Span> out = new ArrayList<>();
        for (long start = 0; start < length; start += chunk) {
            long end = Math.min(length, start + chunk);
            if (keep == null) {
                out.add(new Span(start, (int) (end - start)));
                continue;
            }
            int first = keep.nextSetBit((int) start);
            if (first < 0 || first >= end) {
                continue;
            }
            int last = keep.previousSetBit((int) end - 1);
            out.add(new Span(first, last - first + 1));
        }
        return out;
    }

    /** The active session's default parallelism (its cores in local mode), 1 without a session. */
    static int cores() {
        return SparkSession.getActiveSession()
                .map(s -> s.sparkContext().defaultParallelism())
                .getOrElse(() -> 1);
    }

    /** The partition size aimed at: the option, or less so that each of {@code cores} gets a share of the read. */
    static long target(long partitionBytes, int cores, long readBytes) {
        long perCore = cores <= 1 ? readBytes : (readBytes + cores - 1) / cores;
        return Math.max(1, Math.min(partitionBytes, perCore));
    }

    private static long saturatedTimes(long a, long b) {
        return a != 0 && b > Long.MAX_VALUE / a ? Long.MAX_VALUE : a * b;
    }

    static long elements(int[] count) {
        long n = 1;
        for (int c : count) {
            n *= c;
        }
        return n;
    }
}
