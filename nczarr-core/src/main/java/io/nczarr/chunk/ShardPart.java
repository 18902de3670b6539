package io.nczarr.chunk;

import io.nczarr.codec.ShardIndex;
import io.nczarr.codec.ShardingCodec;
import io.nczarr.error.ChunkException;
import io.nczarr.error.NcZarrException;
import io.nczarr.model.ElementType;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.MemoryLimits;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * One shard a {@link ShardReader} read touches: the inner chunks wanted from it, then its index (and its whole
 * bytes when all or most of it is wanted), then the tasks that decode the wanted inner chunks into the result.
 * Failures name the dataset, the shard's key and the variable.
 */
final class ShardPart {
    private final ShardReader r;
    private final String key;
    private final long[] shardIdx;
    private final List<ChunkPlan> chunks = new ArrayList<>();
    private final List<Integer> local = new ArrayList<>();
    private boolean missing;
    private byte[] whole;
    private ShardIndex index;
    /** Range requests left for the read's second round (a remote shard needing several), else {@code null}. */
    List<Callable<Void>> later;

    ShardPart(ShardReader r, String key, long[] shardIdx) {
        this.r = r;
        this.key = key;
        this.shardIdx = shardIdx;
    }

    void add(ChunkPlan c, int localIndex) {
        chunks.add(c);
        local.add(localIndex);
    }

    /** How many inner chunks of this shard lie (at least partly) inside the array. */
    long innerChunksInArray() {
        long n = 1;
        for (int d = 0; d < r.grid.length; d++) {
            long left = r.arrayShape[d] - shardIdx[d] * r.shardShape[d];
            n *= Math.min(r.grid[d], (left + r.innerShape[d] - 1) / r.innerShape[d]);
        }
        return n;
    }

    /**
     * Whether the section wants more than half of this shard's inner chunks (those inside the array): then the
     * shard is read whole, its index taken from those bytes: one request instead of an index request and range
     * requests, for at most about twice the bytes.
     */
    boolean wantsWhole() {
        return 2L * chunks.size() > innerChunksInArray();
    }

    /** Reads the index (and the whole shard when {@link #wantsWhole}); a missing shard reads as fill. */
    void fetch(ShardingCodec codec) throws IOException {
        try {
            int n = codec.indexBytes();
            // the index as stored and as numbers (16 bytes per inner chunk): checked before either is made
            new ByteLimit(MemoryLimits.MAX_CHUNK_BYTES, r.vlenBound)
                    .check(r.store.location(), key, r.var.name(), "the shard index (" + n + " bytes stored)", 2L * n);
            Optional<byte[]> stored;
            if (wantsWhole()) {
                stored = r.store.get(key);
                if (stored.isPresent()) {
                    whole = stored.get();
                    if (whole.length < n) {
                        throw error("the " + whole.length + "-byte shard is shorter than its " + n + "-byte index");
                    }
                    int at = codec.indexAtEnd() ? whole.length - n : 0;
                    stored = Optional.of(Arrays.copyOfRange(whole, at, at + n));
                }
            } else {
                stored = codec.indexAtEnd() ? r.store.getSuffix(key, n) : r.store.getRange(key, 0, n);
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

    /**
     * Adds the tasks that decode this shard's wanted inner chunks (a whole shard: one per inner chunk; else one per
     * coalesced range request); missing and empty ones are filled here.
     */
    void plan(ShardingCodec codec, Object dest, List<Callable<Void>> tasks) throws IOException {
        long maxInner = V3Chunks.cap(r.var, r.innerElements, r.vlenBound);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < chunks.size(); i++) {
            int c = local.get(i);
            if (missing || index.isEmpty(c)) {
                ShardReader.copy(ChunkDecoder.fillChunk(r.var), chunks.get(i), dest);
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
            byte[] bytes = whole;
            for (Entry e : entries) {
                tasks.add(() -> {
                    decodeAndCopy(codec, e, bytes, (int) e.offset, dest);
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
                if (e.offset - end > ShardReader.MAX_GAP
                        || e.offset + e.length - first.offset > ShardReader.MAX_REQUEST) {
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

    /** Whether the tasks {@link #plan} made fetch anything (else they only decode bytes already here). */
    boolean fetchesMore() {
        return whole == null && !missing;
    }

    /** After this shard's tasks ran: its bytes can go. */
    void done() {
        whole = null;
    }

    private static long end(List<Entry> group) {
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
                Optional<byte[]> got = r.store.getRange(key, start, (int) (end - start));
                if (got.isEmpty()) {
                    throw error("the shard disappeared while it was read");
                }
                byte[] b = got.get();
                for (Entry e : group) {
                    if (e.offset + e.length > start + b.length) {
                        throw error("index entry " + e.chunk + " (offset " + e.offset + ", length " + e.length
                                + ") points past the end of the shard object");
                    }
                    decodeAndCopy(codec, e, b, (int) (e.offset - start), dest);
                }
            } catch (NcZarrException e) {
                throw withContext(e);
            }
            return null;
        };
    }

    /** Decodes the inner chunk stored in {@code bytes[off, off + e.length)} and copies its wanted runs. */
    private void decodeAndCopy(ShardingCodec codec, Entry e, byte[] bytes, int off, Object dest) throws IOException {
        ChunkData data;
        int n = (int) e.length;
        try {
            ElementType et = r.var.element();
            if (ChunkDecoder.isVlen(et)) {
                data = ChunkDecoder.vlenChunk(
                        codec.decodeInner(Arrays.copyOfRange(bytes, off, off + n), (int)
                                Math.min(Integer.MAX_VALUE - 16L, r.vlenBound)),
                        et,
                        r.innerElements);
            } else {
                // as the unsharded path: the last step decodes into this thread's reusable buffer
                int len = r.innerElements * et.itemSize();
                byte[] scratch = len <= ChunkBuffers.MAX_SCRATCH_BYTES ? ChunkBuffers.scratch(len) : null;
                // read in place inside the shard's bytes where the inner chain can (zstd)
                data = ChunkDecoder.fixedChunk(codec.decodeInnerInto(bytes, off, n, scratch), et);
            }
        } catch (IllegalArgumentException ex) {
            throw error(ex.getMessage());
        } catch (NcZarrException ex) {
            throw withContext(ex);
        }
        ShardReader.copy(data, e.plan, dest);
    }

    private ChunkException error(String detail) {
        return new ChunkException(r.store.location(), key, r.var.name(), "sharding_indexed: " + detail, null);
    }

    private NcZarrException withContext(NcZarrException e) {
        if (e.dataset() != null && e.key() != null && e.variable() != null) {
            return e;
        }
        return e.withContext(r.store.location(), key, r.var.name());
    }

    /** One inner chunk to read: its plan, index in the shard, and stored range. */
    private record Entry(ChunkPlan plan, int chunk, long offset, long length) {}
}
