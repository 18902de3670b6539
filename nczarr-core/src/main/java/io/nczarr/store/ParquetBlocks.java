package io.nczarr.store;

import io.nczarr.store.parquet.ReferenceRecords;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * Coalesced reads of the chunk ranges of Parquet references, as {@link ReferenceStore} does for JSON ones: the
 * ranges of one record file that point into the same remote target and lie at most {@link ReferenceStore#GAP}
 * bytes apart are grouped into blocks of at most {@link ReferenceStore#BLOCK} bytes ({@link #plan}); the first
 * read of a chunk in a block fetches the whole block once (concurrent readers of it wait for that request) and
 * the block's bytes stay in an LRU cache of at most {@code budget} bytes for its other chunks.
 */
final class ParquetBlocks {
    /** {@code length} bytes at {@code offset} of {@code target}. */
    record Block(URI target, long offset, int length) {}

    /** The I/O of one block. */
    interface Fetch {
        byte[] read(Block b) throws IOException;
    }

    private final long budget;
    /** Guarded by itself. */
    private final LinkedHashMap<Block, CompletableFuture<byte[]>> cache = new LinkedHashMap<>(16, 0.75f, true);

    private long cached;

    ParquetBlocks(long budget) {
        this.budget = budget;
    }

    /**
     * The block of each row of {@code r} ({@code null}: read the row alone): rows with a remote target ({@code
     * remote} gives it, or {@code null} for a local or unusable path) and a range of 1..BLOCK bytes, sorted by
     * target and offset and grouped while the next range starts at most GAP bytes after the group's end and the
     * group stays within BLOCK bytes; a group of one row gets no block.
     */
    static Block[] plan(ReferenceRecords r, Function<String, URI> remote) {
        int n = r.rows();
        Block[] out = new Block[n];
        List<Integer> rows = new ArrayList<>();
        URI[] targets = new URI[n];
        for (int i = 0; i < n; i++) {
            long size = r.size(i);
            if (r.raw(i) == null && r.path(i) != null && size > 0 && size <= ReferenceStore.BLOCK && r.offset(i) >= 0) {
                targets[i] = remote.apply(r.path(i));
                if (targets[i] != null) {
                    rows.add(i);
                }
            }
        }
        rows.sort(Comparator.comparing((Integer i) -> targets[i].toString()).thenComparingLong(r::offset));
        int i = 0;
        while (i < rows.size()) {
            int first = rows.get(i);
            long start = r.offset(first);
            long end = start + r.size(first);
            int j = i + 1;
            while (j < rows.size()) {
                int k = rows.get(j);
                long e = Math.max(end, r.offset(k) + r.size(k));
                if (!targets[k].equals(targets[first])
                        || r.offset(k) > end + ReferenceStore.GAP
                        || e - start > ReferenceStore.BLOCK) {
                    break;
                }
                end = e;
                j++;
            }
            if (j - i > 1) {
                Block b = new Block(targets[first], start, (int) (end - start));
                for (int k = i; k < j; k++) {
                    out[rows.get(k)] = b;
                }
            }
            i = j;
        }
        return out;
    }

    /** The bytes of {@code b}: fetched once, however many readers want them at the same time, then cached. */
    byte[] bytes(Block b, Fetch fetch) throws IOException {
        CompletableFuture<byte[]> f;
        boolean mine = false;
        synchronized (cache) {
            f = cache.get(b);
            if (f == null) {
                f = new CompletableFuture<>();
                cache.put(b, f);
                mine = true;
            }
        }
        if (mine) {
            try {
                byte[] bytes = fetch.read(b);
                f.complete(bytes);
                synchronized (cache) {
                    cached += b.length();
                    evict();
                }
                return bytes;
            } catch (IOException | RuntimeException | Error e) {
                // an Error too: a reader waiting for this fetch must not wait forever
                synchronized (cache) {
                    cache.remove(b);
                }
                f.completeExceptionally(e);
                throw e;
            }
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        } catch (CancellationException e) {
            throw new InterruptedIOException("cancelled");
        }
    }

    private void evict() {
        var it = cache.entrySet().iterator();
        while (cached > budget && it.hasNext()) {
            Map.Entry<Block, CompletableFuture<byte[]>> e = it.next();
            if (e.getValue().isDone() && !e.getValue().isCompletedExceptionally()) {
                cached -= e.getKey().length();
                it.remove();
            }
        }
    }

    void clear() {
        synchronized (cache) {
            cache.clear();
            cached = 0;
        }
    }
}
