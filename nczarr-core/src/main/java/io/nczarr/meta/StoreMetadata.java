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

/**
 * Metadata objects and listings straight from the store, each fetched at most once per open
 * (readers look at some objects twice, e.g. the root {@code .zgroup}; on S3 every look is a
 * request). For stores that want requests in flight (S3), {@link #prefetch} fetches the objects a
 * group lists concurrently on the store's request pool, so an open costs a few round trips
 * instead of two per variable.
 */
final class StoreMetadata implements MetadataSource {

    private final Store store;
    /** The store's request pool when it wants requests in flight (S3); else {@code null}: no prefetch. */
    private final Executor prefetcher;

    private final Map<String, CompletableFuture<Optional<ObjectNode>>> objects = new ConcurrentHashMap<>();
    private final Map<String, List<String>> listings = new ConcurrentHashMap<>();

    /** @param prefetcher where to fetch announced objects concurrently; {@code null}: no prefetch */
    StoreMetadata(Store store, Executor prefetcher) {
        this.store = store;
        this.prefetcher = prefetcher;
    }

    @Override
    public Optional<ObjectNode> object(String key) throws IOException {
        CompletableFuture<Optional<ObjectNode>> mine = new CompletableFuture<>();
        CompletableFuture<Optional<ObjectNode>> f = objects.putIfAbsent(key, mine);
        if (f == null) {
            fetch(key, mine);
            f = mine;
        }
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw e;
        }
    }

    @Override
    public void prefetch(Collection<String> keys) {
        if (prefetcher == null) {
            return;
        }
        for (String key : keys) {
            CompletableFuture<Optional<ObjectNode>> mine = new CompletableFuture<>();
            if (objects.putIfAbsent(key, mine) == null) {
                prefetcher.execute(() -> fetch(key, mine));
            }
        }
    }

    private void fetch(String key, CompletableFuture<Optional<ObjectNode>> into) {
        try {
            into.complete(Json.readObject(store, key));
        } catch (IOException | RuntimeException e) {
            into.completeExceptionally(e);
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
