package io.nczarr.chunk;

import io.nczarr.codec.ShardingCodec;
import io.nczarr.model.VarModel;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Partial reads of a Zarr v3 array whose chain is one {@code sharding_indexed} codec: the section
 * is planned on the inner chunk grid; a shard the section wants all or most of ({@link ShardPart#wantsWhole})
 * is read with one request, index and inner chunks together; of any other, the index is fetched with one range
 * request (a suffix for an index at the end), then only the inner chunks needed, adjacent ones coalesced into
 * one request (gap at most {@link #MAX_GAP}, at most {@link #MAX_REQUEST} bytes, as zarr-python 3.3 does).
 *
 * <p>With several shards, each shard is one task of the read's executor that fetches and decodes it on its own,
 * so decoding overlaps the other shards' transfers and no read waits for the slowest index; only on a remote
 * store a shard needing several range requests hands them back, to be run in parallel after the index fetches.
 * With one shard, its index is read in the calling thread and its inner chunks are decoded in parallel.
 * Nothing is kept between reads.
 */
final class ShardReader {

    /** Largest gap between two inner chunks still fetched in one request. */
    static final long MAX_GAP = 1 << 20;
    /** Largest coalesced request (a single larger inner chunk is still one request). */
    static final long MAX_REQUEST = 16 << 20;

    /** Runs a batch of tasks (the chunk reader's executor logic). */
    interface Runner {
        void run(List<? extends Callable<Void>> tasks) throws IOException;
    }

    final Store store;
    final VarModel var;
    final int[] shardShape;
    final int[] innerShape;
    final int[] grid;
    final long[] arrayShape;
    final int innerElements;
    /** Bound of a decoded vlen-string inner chunk (its size is not known from the metadata): the chunk limit. */
    final long vlenBound;
    /** A remote store: requests are round trips, worth running in parallel. */
    private final boolean remote;

    ShardReader(Store store, VarModel var, int[] innerShape, long vlenBound) {
        this.store = store;
        this.vlenBound = vlenBound;
        this.var = var;
        this.shardShape = var.array().chunks().clone();
        this.innerShape = innerShape.clone();
        this.arrayShape = var.array().shape().clone();
        this.grid = new int[innerShape.length];
        long n = 1;
        for (int d = 0; d < grid.length; d++) {
            grid[d] = shardShape[d] / innerShape[d];
            n *= innerShape[d];
        }
        this.innerElements = (int) n;
        this.remote = store.preferredConcurrency() > 0;
    }

    /** The inner chunk shape: the grid the section is planned on. */
    int[] innerShape() {
        return innerShape.clone();
    }

    /** Reads every chunk of {@code plan} (planned on the inner grid) into {@code dest}. */
    void read(SectionPlan plan, Object dest, ShardingCodec codec, Runner runner) throws IOException {
        Map<String, ShardPart> shards = new LinkedHashMap<>();
        for (ChunkPlan c : plan.chunks()) {
            long[] idx = c.index();
            long[] shardIdx = new long[idx.length];
            int local = 0;
            for (int d = 0; d < idx.length; d++) {
                shardIdx[d] = idx[d] / grid[d];
                local = local * grid[d] + (int) (idx[d] % grid[d]);
            }
            String key = var.array().v3().chunkKey(var.key(), shardIdx, idx.length);
            shards.computeIfAbsent(key, k -> new ShardPart(this, k, shardIdx)).add(c, local);
        }
        if (shards.size() == 1) {
            ShardPart s = shards.values().iterator().next();
            s.fetch(codec);
            List<Callable<Void>> tasks = new ArrayList<>();
            s.plan(codec, dest, tasks);
            runner.run(tasks);
            return;
        }
        List<Callable<Void>> perShard = new ArrayList<>();
        for (ShardPart s : shards.values()) {
            perShard.add(() -> {
                s.fetch(codec);
                List<Callable<Void>> own = new ArrayList<>();
                s.plan(codec, dest, own);
                if (remote && s.fetchesMore() && own.size() > 1) {
                    s.later = own; // requests of their own: in parallel with the other shards' below
                } else {
                    for (Callable<Void> t : own) {
                        t.call();
                    }
                }
                s.done();
                return null;
            });
        }
        runner.run(perShard);
        List<Callable<Void>> later = new ArrayList<>();
        for (ShardPart s : shards.values()) {
            if (s.later != null) {
                later.addAll(s.later);
            }
        }
        if (!later.isEmpty()) {
            runner.run(later);
        }
    }

    /** Copies the runs of {@code chunk} from a decoded inner chunk into the result. */
    static void copy(ChunkData data, ChunkPlan chunk, Object dest) {
        chunk.forEachRun((src, srcStride, dst, n) -> data.copy((int) src, (int) srcStride, dest, (int) dst, n));
    }
}
