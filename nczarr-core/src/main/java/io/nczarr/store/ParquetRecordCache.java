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
    private final LinkedHashMap<String, CompletableFuture<Optional<ReferenceRecords>>> cache =
            new LinkedHashMap<>(16, 0.75f, true);

    private long cached;
    private long loads;

    ParquetRecordCache(String location, Store folder, long budget, ByteLimit fileLimit) {
        this.location = location;
        this.folder = folder;
        this.budget = budget;
        this.fileLimit = fileLimit;
    }

    /** The records of {@code file} (a key of the folder store), empty when there is no such file. */
    Optional<ReferenceRecords> get(String file) throws IOException {
        CompletableFuture<Optional<ReferenceRecords>> f;
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
                Optional<ReferenceRecords> r = load(file);
                f.complete(r);
                synchronized (cache) {
                    cached += r.map(ReferenceRecords::estimatedBytes).orElse(0L);
                    evict(file);
                }
                return r;
            } catch (IOException | RuntimeException e) {
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
            throw e;
        } catch (CancellationException e) {
            throw new InterruptedIOException("cancelled");
        }
    }

    private Optional<ReferenceRecords> load(String file) throws IOException {
        Optional<byte[]> bytes = folder.get(file, fileLimit);
        if (bytes.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(ReferenceRecords.read(bytes.get(), location, file, fileLimit));
    }

    /** Drops the least recently used loaded files (not {@code keep}, just loaded) while over the budget. */
    private void evict(String keep) {
        var it = cache.entrySet().iterator();
        while (cached > budget && it.hasNext()) {
            Map.Entry<String, CompletableFuture<Optional<ReferenceRecords>>> e = it.next();
            CompletableFuture<Optional<ReferenceRecords>> f = e.getValue();
            if (!e.getKey().equals(keep) && f.isDone() && !f.isCompletedExceptionally()) {
                cached -= f.join().map(ReferenceRecords::estimatedBytes).orElse(0L);
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
