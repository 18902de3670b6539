package io.nczarr.chunk;

import io.nczarr.codec.ShardIndex;
import io.nczarr.codec.ShardingCodec;
import io.nczarr.error.ChunkException;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.ElementType;
import io.nczarr.model.VarModel;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.MemoryLimits;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * Partial reads of a Zarr v3 array whose chain is one {@code sharding_indexed} codec: the section
 * is planned on the inner chunk grid; each touched shard's index is fetched with one range request
 * (a suffix for an index at the end), then only the inner chunks needed, adjacent ones coalesced
 * into one request (gap at most {@link #MAX_GAP}, at most {@link #MAX_REQUEST} bytes, as
 * zarr-python 3.3 does). A section that needs every inner chunk of a shard reads it with one GET.
 * Index fetches run first, then the chunk requests, each phase in parallel on the read's executor;
 * nothing is kept between reads.
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

    private final Store store;
    private final VarModel var;
    private final int[] shardShape;
    private final int[] innerShape;
    private final int[] grid;
    private final long[] arrayShape;
    private final int innerElements;
    /** Bound of a decoded vlen-string inner chunk (its size is not known from the metadata): the chunk limit. */
    private final long vlenBound;

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
    }

    /** The inner chunk shape: the grid the section is planned on. */
    int[] innerShape() {
        return innerShape.clone();
    }

    /** Reads every chunk of {@code plan} (planned on the inner grid) into {@code dest}. */
    void read(SectionPlan plan, Object dest, ShardingCodec codec, Runner runner) throws IOException {
        Map<String, Shard> shards = new LinkedHashMap<>();
        for (ChunkPlan c : plan.chunks()) {
            long[] idx = c.index();
            long[] shardIdx = new long[idx.length];
            int local = 0;
            for (int d = 0; d < idx.length; d++) {
                shardIdx[d] = idx[d] / grid[d];
                local = local * grid[d] + (int) (idx[d] % grid[d]);
            }
            String key = var.array().v3().chunkKey(var.key(), shardIdx, idx.length);
            Shard s = shards.computeIfAbsent(key, k -> new Shard(k, shardIdx));
            s.chunks.add(c);
            s.local.add(local);
        }
        // A shard fetched whole (or missing) needs no further request: with several shards its task decodes
        // it at once, so decoding overlaps the other shards' transfers instead of waiting for the last one.
        // With one shard its inner chunks are decoded in parallel in the second phase instead.
        boolean decodeOnArrival = shards.size() > 1;
        List<Callable<Void>> fetches = new ArrayList<>();
        for (Shard s : shards.values()) {
            fetches.add(() -> {
                s.fetchIndex(codec);
                if (decodeOnArrival && (s.whole != null || s.missing)) {
                    List<Callable<Void>> own = new ArrayList<>();
                    s.plan(codec, dest, own);
                    for (Callable<Void> t : own) {
                        t.call();
                    }
                    s.whole = null; // done: the shard's bytes can go
                    s.read = true;
                }
                return null;
            });
        }
        runner.run(fetches);
        List<Callable<Void>> reads = new ArrayList<>();
        for (Shard s : shards.values()) {
            if (!s.read) {
                s.plan(codec, dest, reads);
            }
        }
        runner.run(reads);
    }

    /** One touched shard: the inner chunks wanted from it, then its index (and whole bytes if all are wanted). */
    private final class Shard {
        final String key;
        final long[] shardIdx;
        final List<ChunkPlan> chunks = new ArrayList<>();
        final List<Integer> local = new ArrayList<>();
        boolean missing;
        /** Read completely in its fetch task (see {@link #read}). */
        boolean read;

        byte[] whole;
        ShardIndex index;

        Shard(String key, long[] shardIdx) {
            this.key = key;
            this.shardIdx = shardIdx;
        }

        /** How many inner chunks of this shard lie (at least partly) inside the array. */
        long innerChunksInArray() {
            long n = 1;
            for (int d = 0; d < grid.length; d++) {
                long left = arrayShape[d] - shardIdx[d] * shardShape[d];
                n *= Math.min(grid[d], (left + innerShape[d] - 1) / innerShape[d]);
            }
            return n;
        }

        void fetchIndex(ShardingCodec codec) throws IOException {
            try {
                int n = codec.indexBytes();
                // the index as stored and as numbers (16 bytes per inner chunk): checked before either is made
                new ByteLimit(MemoryLimits.MAX_CHUNK_BYTES, vlenBound)
                        .check(store.location(), key, var.name(), "the shard index (" + n + " bytes stored)", 2L * n);
                Optional<byte[]> stored;
                if (chunks.size() == innerChunksInArray()) {
                    stored = store.get(key);
                    if (stored.isPresent()) {
                        whole = stored.get();
                        if (whole.length < n) {
                            throw error("the " + whole.length + "-byte shard is shorter than its " + n + "-byte index");
                        }
                        int at = codec.indexAtEnd() ? whole.length - n : 0;
                        stored = Optional.of(Arrays.copyOfRange(whole, at, at + n));
                    }
                } else {
                    stored = codec.indexAtEnd() ? store.getSuffix(key, n) : store.getRange(key, 0, n);
                }
                if (stored.isEmpty()) {
                    missing = true;
                    return;
                }
                if (stored.get().length != n) {
                    throw error("the " + stored.get().length + "-byte shard is shorter than its " + n + "-byte index");
                }
                index = codec.index(stored.get());
            } catch (NcZarrException e) {
                throw withContext(e);
            }
        }

        /** Adds the tasks that read this shard's chunks; missing and empty ones are filled here. */
        void plan(ShardingCodec codec, Object dest, List<Callable<Void>> tasks) throws IOException {
            long maxInner = V3Chunks.cap(var, innerElements, vlenBound);
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < chunks.size(); i++) {
                int c = local.get(i);
                if (missing || index.isEmpty(c)) {
                    copy(ChunkDecoder.fillChunk(var), chunks.get(i), dest);
                    continue;
                }
                try {
                    index.check(c, whole != null ? whole.length : Long.MAX_VALUE, maxInner);
                } catch (NcZarrException e) {
                    throw withContext(e);
                }
                entries.add(new Entry(chunks.get(i), c, index.offset(c), index.length(c)));
            }
            if (whole != null) {
                for (Entry e : entries) {
                    tasks.add(() -> {
                        int off = (int) e.offset;
                        decodeAndCopy(codec, e, Arrays.copyOfRange(whole, off, off + (int) e.length), dest);
                        return null;
                    });
                }
                return;
            }
            entries.sort(Comparator.comparingLong(Entry::offset));
            List<Entry> group = new ArrayList<>();
            for (Entry e : entries) {
                if (!group.isEmpty()) {
                    Entry first = group.get(0);
                    long end = end(group);
                    if (e.offset - end > MAX_GAP || e.offset + e.length - first.offset > MAX_REQUEST) {
                        tasks.add(rangeTask(codec, List.copyOf(group), dest));
                        group.clear();
                    }
                }
                group.add(e);
            }
            if (!group.isEmpty()) {
                tasks.add(rangeTask(codec, List.copyOf(group), dest));
            }
        }

        private long end(List<Entry> group) {
            long end = 0;
            for (Entry e : group) {
                end = Math.max(end, e.offset + e.length);
            }
            return end;
        }

        /** One request for a run of nearby inner chunks, then each decoded and copied. */
        private Callable<Void> rangeTask(ShardingCodec codec, List<Entry> group, Object dest) {
            return () -> {
                long start = group.get(0).offset;
                long end = end(group);
                try {
                    Optional<byte[]> got = store.getRange(key, start, (int) (end - start));
                    if (got.isEmpty()) {
                        throw error("the shard disappeared while it was read");
                    }
                    byte[] b = got.get();
                    for (Entry e : group) {
                        if (e.offset + e.length > start + b.length) {
                            throw error("index entry " + e.chunk + " (offset " + e.offset + ", length " + e.length
                                    + ") points past the end of the shard object");
                        }
                        int off = (int) (e.offset - start);
                        decodeAndCopy(codec, e, Arrays.copyOfRange(b, off, off + (int) e.length), dest);
                    }
                } catch (NcZarrException e) {
                    throw withContext(e);
                }
                return null;
            };
        }

        private void decodeAndCopy(ShardingCodec codec, Entry e, byte[] stored, Object dest) throws IOException {
            ChunkData data;
            try {
                ElementType et = var.element();
                if (ChunkDecoder.isVlen(et)) {
                    data = ChunkDecoder.vlenChunk(
                            codec.decodeInner(stored, (int) Math.min(Integer.MAX_VALUE - 16L, vlenBound)),
                            et,
                            innerElements);
                } else {
                    // as the unsharded path: the last step decodes into this thread's reusable buffer
                    int len = innerElements * et.itemSize();
                    byte[] scratch = len <= ChunkBuffers.MAX_SCRATCH_BYTES ? ChunkBuffers.scratch(len) : null;
                    data = ChunkDecoder.fixedChunk(codec.decodeInnerInto(stored, scratch), et);
                }
            } catch (IllegalArgumentException ex) {
                throw error(ex.getMessage());
            } catch (NcZarrException ex) {
                throw withContext(ex);
            }
            copy(data, e.plan, dest);
        }

        private ChunkException error(String detail) {
            return new ChunkException(store.location(), key, var.name(), "sharding_indexed: " + detail, null);
        }

        private NcZarrException withContext(NcZarrException e) {
            if (e.dataset() != null && e.key() != null && e.variable() != null) {
                return e;
            }
            return e.withContext(store.location(), key, var.name());
        }
    }

    private static void copy(ChunkData data, ChunkPlan chunk, Object dest) {
        chunk.forEachRun((src, srcStride, dst, n) -> data.copy((int) src, (int) srcStride, dest, (int) dst, n));
    }

    /** One inner chunk to read: its plan, index in the shard, and stored range. */
    private record Entry(ChunkPlan plan, int chunk, long offset, long length) {}
}
