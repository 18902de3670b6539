package io.nczarr.chunk;

import java.util.Arrays;

/**
 * One chunk a {@link SectionPlan} touches: its index and the runs of elements to copy from it.
 * A run is {@code count} elements along the last dimension: chunk elements {@code srcStart,
 * srcStart + srcStride, ...} (offsets in the chunk's storage order) go to destination elements
 * {@code destStart, destStart + 1, ...} (offsets in the section, C order).
 */
public final class ChunkPlan {

    /** Receives the runs of one chunk. */
    @FunctionalInterface
    public interface RunSink {
        void run(long srcStart, long srcStride, long destStart, int count);
    }

    private final SectionPlan plan;
    private final SectionPlan.Segment[] segs;

    ChunkPlan(SectionPlan plan, SectionPlan.Segment[] segs) {
        this.plan = plan;
        this.segs = segs;
    }

    /** The chunk's index per dimension (empty for rank 0). */
    public long[] index() {
        long[] idx = new long[segs.length];
        for (int d = 0; d < segs.length; d++) {
            idx[d] = segs[d].chunk();
        }
        return idx;
    }

    /** The section positions along dimension {@code d} that fall in this chunk. */
    public SectionPlan.Segment segment(int d) {
        return segs[d];
    }

    /** How many section elements come from this chunk. */
    public long elementCount() {
        long n = 1;
        for (SectionPlan.Segment s : segs) {
            n *= s.count();
        }
        return n;
    }

    /**
     * Hands every run of this chunk to {@code sink}, outer dimensions slowest. Rank 0 is a single
     * run of one element.
     */
    public void forEachRun(RunSink sink) {
        int rank = segs.length;
        if (rank == 0) {
            sink.run(0, 1, 0, 1);
            return;
        }
        int last = rank - 1;
        int runLength = segs[last].count();
        long[] chunkStrides = plan.chunkStrides(segs);
        long srcStride = (long) plan.stride(last) * chunkStrides[last];
        long[] chunkStart = new long[rank];
        for (int d = 0; d < rank; d++) {
            chunkStart[d] = plan.chunkStart(d, segs[d].chunk());
        }
        // m: the current section position per dimension; the last one is always the run's first
        int[] m = new int[rank];
        for (int d = 0; d < rank; d++) {
            m[d] = segs[d].first();
        }
        while (true) {
            long src = 0;
            long dst = 0;
            for (int d = 0; d < rank; d++) {
                long index = plan.origin(d) + (long) m[d] * plan.stride(d);
                src += (index - chunkStart[d]) * chunkStrides[d];
                dst += m[d] * plan.destStride(d);
            }
            sink.run(src, srcStride, dst, runLength);
            int d = last - 1;
            while (d >= 0 && ++m[d] == segs[d].first() + segs[d].count()) {
                m[d] = segs[d].first();
                d--;
            }
            if (d < 0) {
                return;
            }
        }
    }

    /**
     * Where this chunk lands in the section when it lands as one contiguous run: the whole chunk is in the
     * section (no edge of the array or the section cuts it, unit strides), it is stored in C order, and each of
     * its dimensions of more than one element steps through the section as through the chunk. Then its decoded
     * elements, in storage order, are the section's elements from the answer on; else -1 (rank 0 too).
     */
    public long wholeRun() {
        int rank = segs.length;
        if (rank == 0 || (plan.fortranOrder() && rank > 1)) {
            return -1;
        }
        long step = 1;
        long dst = 0;
        for (int d = rank - 1; d >= 0; d--) {
            int size = plan.chunkSize(d, segs[d].chunk());
            if (plan.stride(d) != 1
                    || segs[d].count() != size
                    || plan.origin(d) + segs[d].first() != plan.chunkStart(d, segs[d].chunk())
                    || (size > 1 && plan.destStride(d) != step)) {
                return -1;
            }
            step *= size;
            dst += segs[d].first() * plan.destStride(d);
        }
        return dst;
    }

    @Override
    public String toString() {
        return "ChunkPlan" + Arrays.toString(index());
    }
}
