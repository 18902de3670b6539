package io.nczarr.store;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * A view of a store whose whole-object reads are bounded by a limit of their own, e.g. the metadata
 * limit for a metadata reader that knows nothing of limits. Ranges and listings pass through; the view
 * does not own the store, so closing it does nothing.
 */
final class BoundedStore implements Store {
    private final Store store;
    private final ByteLimit limit;

    BoundedStore(Store store, ByteLimit limit) {
        this.store = store;
        this.limit = limit;
    }

    @Override
    public String location() {
        return store.location();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        return store.get(key, limit);
    }

    @Override
    public Optional<byte[]> get(String key, ByteLimit other) throws IOException {
        return store.get(key, other);
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        return store.getRange(key, offset, length);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return store.list(prefix);
    }

    @Override
    public boolean listingIsCheap() {
        return store.listingIsCheap();
    }

    @Override
    public int preferredConcurrency() {
        return store.preferredConcurrency();
    }

    @Override
    public void close() {
        // the view does not own the store
    }

    @Override
    public String toString() {
        return store + " bounded by " + limit.property() + "=" + limit.bytes();
    }
}
