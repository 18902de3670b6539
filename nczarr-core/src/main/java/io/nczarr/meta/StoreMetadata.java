package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.store.PoolFailures;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.FutureTask;

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
        Fetch mine = new Fetch(key, false);
        Fetch f = objects.putIfAbsent(key, mine);
        if (f == null) {
            f = mine;
            f.run();
        } else if (!remote) {
            f.run();
        }
        Optional<ObjectNode> o = f.await();
        if (f.prefetched) {
            // read once by the walk: a large group's objects are not all held until the open ends
            objects.remove(key, f);
        }
        return o;
    }

    @Override
    public void prefetch(Collection<String> keys) {
        if (prefetcher == null || (!remote && keys.size() < LOCAL_MIN_BATCH)) {
            return;
        }
        fetchAhead(keys, true);
    }

    /**
     * Asks a remote store for objects that may not exist, all at once, and keeps them for every later look
     * (unlike {@link #prefetch}, whose objects are dropped after their first read): the root objects that tell
     * the format cost one round trip instead of one each. Nothing happens on a local store.
     */
    void probe(Collection<String> keys) {
        if (prefetcher != null && remote) {
            fetchAhead(keys, false);
        }
    }

    private void fetchAhead(Collection<String> keys, boolean dropAfterRead) {
        for (String key : keys) {
            Fetch mine = new Fetch(key, dropAfterRead);
            if (objects.putIfAbsent(key, mine) == null) {
                try {
                    prefetcher.execute(mine);
                } catch (RuntimeException | Error e) {
                    // not queued (a pool shut down, no thread to be had): the reader fetches it itself
                    objects.remove(key, mine);
                    return;
                }
            }
        }
    }

    /**
     * One object's fetch, run once by whichever thread comes first (a prefetch task or the reader). A
     * {@link FutureTask}: whatever the fetch throws, an {@link OutOfMemoryError} included, completes it
     * without allocating, so a reader waiting for it never waits forever.
     */
    private final class Fetch extends FutureTask<Optional<ObjectNode>> {
        final boolean prefetched;
        private final String key;

        Fetch(String key, boolean prefetched) {
            super(() -> Json.readObject(store, key));
            this.key = key;
            this.prefetched = prefetched;
        }

        Optional<ObjectNode> await() throws IOException {
            try {
                return PoolFailures.await(this);
            } catch (ExecutionException e) {
                Throwable c = e.getCause();
                if (c instanceof IOException io) {
                    throw io;
                }
                if (c instanceof RuntimeException r) {
                    throw r;
                }
                if (c instanceof Error err) {
                    // an OutOfMemoryError of a prefetch thread: the open turns it into a LimitExceededException
                    throw err;
                }
                throw new IOException(store.location() + ": reading " + key + " failed: " + c, c);
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
