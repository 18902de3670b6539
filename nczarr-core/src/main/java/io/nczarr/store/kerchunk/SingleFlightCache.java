package io.nczarr.store.kerchunk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.ToLongFunction;

/**
 * Values loaded once per key, however many readers want one at the same time (the others wait for that load),
 * then kept, least recently used first out, while their weights fit a budget. A failed load is not cached (the
 * next reader tries again) and completes the waiting readers with its failure, an {@link Error} included, so
 * no reader waits on a load that died. Shared by the coalesced blocks of reference files and the decoded
 * record files of Parquet references.
 */
final class SingleFlightCache<K, V> {
    /** The I/O of one key. */
    interface Loader<K, V> {
        V load(K key) throws IOException;
    }

    private final long budget;
    private final ToLongFunction<V> weight;
    /** Whether the value just loaded stays even when it alone exceeds the budget. */
    private final boolean keepNewest;
    /** Guarded by itself. */
    private final LinkedHashMap<K, CompletableFuture<V>> cache = new LinkedHashMap<>(16, 0.75f, true);

    private long cached;

    SingleFlightCache(long budget, ToLongFunction<V> weight, boolean keepNewest) {
        this.budget = budget;
        this.weight = weight;
        this.keepNewest = keepNewest;
    }

    V get(K key, Loader<K, V> loader) throws IOException {
        CompletableFuture<V> f;
        boolean mine = false;
        synchronized (cache) {
            f = cache.get(key);
            if (f == null) {
                f = new CompletableFuture<>();
                cache.put(key, f);
                mine = true;
            }
        }
        if (mine) {
            try {
                V v = loader.load(key);
                f.complete(v);
                synchronized (cache) {
                    cached += weight.applyAsLong(v);
                    evict(keepNewest ? key : null);
                }
                return v;
            } catch (IOException | RuntimeException | Error e) {
                synchronized (cache) {
                    cache.remove(key);
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

    /** Drops the least recently used loaded values (not {@code keep}) while over the budget. */
    private void evict(K keep) {
        var it = cache.entrySet().iterator();
        while (cached > budget && it.hasNext()) {
            Map.Entry<K, CompletableFuture<V>> e = it.next();
            CompletableFuture<V> f = e.getValue();
            if (!e.getKey().equals(keep) && f.isDone() && !f.isCompletedExceptionally()) {
                cached -= weight.applyAsLong(f.join());
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
