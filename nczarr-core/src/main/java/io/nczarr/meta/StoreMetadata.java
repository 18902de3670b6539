package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Metadata objects and listings straight from the store, each fetched at most once per open
 * (readers look at some objects twice, e.g. the root {@code .zgroup}; on S3 every look is a
 * request). {@link #prefetch} fetches the objects a group lists concurrently: on the store's request
 * pool for stores that want requests in flight (S3), so an open costs a few round trips instead of
 * two per variable; on the decode pool for local stores when a group has many children, where the
 * reading thread also takes objects not yet started instead of waiting for them.
 */
final class StoreMetadata implements MetadataSource {

    /** A local group with fewer objects to read than this is read by the calling thread alone. */
    static final int LOCAL_MIN_BATCH = 32;

    private final Store store;
    /** Where announced objects are fetched concurrently; {@code null}: no prefetch. */
    private final Executor prefetcher;
    /** Remote stores keep their request limit: the reading thread waits for queued objects. */
    private final boolean remote;

    private final Map<String, Fetch> objects = new ConcurrentHashMap<>();
    private final Map<String, List<String>> listings = new ConcurrentHashMap<>();

    /** @param prefetcher where to fetch announced objects concurrently; {@code null}: no prefetch */
    StoreMetadata(Store store, Executor prefetcher) {
        this.store = store;
        this.prefetcher = prefetcher;
        this.remote = store.preferredConcurrency() > 1;
    }

    @Override
    public Optional<ObjectNode> object(String key) throws IOException {
        Fetch mine = new Fetch(key);
        Fetch f = objects.putIfAbsent(key, mine);
        if (f == null) {
            f = mine;
            f.run();
        } else if (!remote) {
            f.run();
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    @Override
    public void prefetch(Collection<String> keys) {
        if (prefetcher == null || (!remote && keys.size() < LOCAL_MIN_BATCH)) {
            return;
        }
        for (String key : keys) {
            Fetch mine = new Fetch(key);
            if (objects.putIfAbsent(key, mine) == null) {
                prefetcher.execute(mine);
            }
        }
    }

    /** One object's fetch, run once by whichever thread comes first (a prefetch task or the reader). */
    private final class Fetch extends CompletableFuture<Optional<ObjectNode>> implements Runnable {
        private final String key;
        private final AtomicBoolean started = new AtomicBoolean();

        Fetch(String key) {
            this.key = key;
        }

        @Override
        public void run() {
            if (!started.compareAndSet(false, true)) {
                return;
            }
            try {
                complete(Json.readObject(store, key));
            } catch (IOException | RuntimeException | Error e) {
                // an Error too: a reader waiting for this object must not wait forever
                completeExceptionally(e);
            }
        }
    }

    @Override
    public List<String> children(String prefix) throws IOException {
        List<String> c = listings.get(prefix);
        if (c == null) {
            c = List.copyOf(store.list(prefix));
            listings.put(prefix, c);
        }
        return c;
    }
}
