package io.nczarr.store.kerchunk;

import io.nczarr.store.parquet.ReferenceRecords;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
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

    private final SingleFlightCache<Block, byte[]> cache;

    ParquetBlocks(long budget) {
        this.cache = new SingleFlightCache<>(budget, bytes -> bytes.length, false);
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
        return cache.get(b, fetch::read);
    }

    void clear() {
        cache.clear();
    }
}
