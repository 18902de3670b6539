package io.nczarr.store;

import io.nczarr.store.parquet.ReferenceRecords;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Function;

/**
 * The decoded record files of one {@link ParquetReferenceStore}: each read from the folder's store and decoded
 * once, however many chunk reads want it at the same time (the others wait for that one), then kept, least
 * recently used first out, while the decoded records fit {@code budget} bytes. A record file that is not there
 * is remembered as such; a failed read or decode is not cached (the next read tries again and reports again).
 */
final class ParquetRecordCache {
    private final String location;
    private final Store folder;
    private final long budget;
    private final ByteLimit fileLimit;

    /** Guarded by itself. */
    private final LinkedHashMap<String, CompletableFuture<Optional<Loaded>>> cache =
            new LinkedHashMap<>(16, 0.75f, true);

    private final Function<ReferenceRecords, ParquetBlocks.Block[]> planner;
    private long cached;
    private long loads;

    /** A decoded record file and the coalesced block of each row ({@link ParquetBlocks#plan}). */
    record Loaded(ReferenceRecords records, ParquetBlocks.Block[] blocks) {
        long bytes() {
            return records.estimatedBytes() + 8L * blocks.length;
        }
    }

    ParquetRecordCache(
            String location,
            Store folder,
            long budget,
            ByteLimit fileLimit,
            Function<ReferenceRecords, ParquetBlocks.Block[]> planner) {
        this.location = location;
        this.folder = folder;
        this.budget = budget;
        this.fileLimit = fileLimit;
        this.planner = planner;
    }

    /** The records of {@code file} (a key of the folder store), empty when there is no such file. */
    Optional<Loaded> get(String file) throws IOException {
        CompletableFuture<Optional<Loaded>> f;
        boolean mine = false;
        synchronized (cache) {
            f = cache.get(file);
            if (f == null) {
                f = new CompletableFuture<>();
                cache.put(file, f);
                mine = true;
                loads++;
            }
        }
        if (mine) {
            try {
                Optional<Loaded> r = load(file);
                f.complete(r);
                synchronized (cache) {
                    cached += r.map(Loaded::bytes).orElse(0L);
                    evict(file);
                }
                return r;
            } catch (IOException | RuntimeException | Error e) {
                // an Error too: a reader waiting for this fetch must not wait forever
                synchronized (cache) {
                    cache.remove(file);
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

    private Optional<Loaded> load(String file) throws IOException {
        Optional<byte[]> bytes = folder.get(file, fileLimit);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        ReferenceRecords r = ReferenceRecords.read(bytes.get(), location, file, fileLimit);
        return Optional.of(new Loaded(r, planner.apply(r)));
    }

    /** Drops the least recently used loaded files (not {@code keep}, just loaded) while over the budget. */
    private void evict(String keep) {
        var it = cache.entrySet().iterator();
        while (cached > budget && it.hasNext()) {
            Map.Entry<String, CompletableFuture<Optional<Loaded>>> e = it.next();
            CompletableFuture<Optional<Loaded>> f = e.getValue();
            if (!e.getKey().equals(keep) && f.isDone() && !f.isCompletedExceptionally()) {
                cached -= f.join().map(Loaded::bytes).orElse(0L);
                it.remove();
            }
        }
    }

    /** How many record files were read so far (a cache miss each). */
    long loads() {
        synchronized (cache) {
            return loads;
        }
    }

    void clear() {
        synchronized (cache) {
            cache.clear();
            cached = 0;
        }
    }
}
