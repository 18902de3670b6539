package io.nczarr.chunk;

import io.nczarr.store.Store;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store counting the requests of the read tests: per request and key ({@code "get k"}, {@code "range k"},
 * {@code "suffix k"}) in {@link #requests}, and the keys fetched in any way in {@link #fetched}.
 */
final class CountingStore implements Store {
    final Store inner;
    final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
    final Set<String> fetched = ConcurrentHashMap.newKeySet();

    CountingStore(Store inner) {
        this.inner = inner;
    }

    private void count(String what, String key) {
        requests.computeIfAbsent(what + " " + key, k -> new AtomicInteger()).incrementAndGet();
        fetched.add(key);
    }

    int total() {
        return requests.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public String location() {
        return inner.location();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        count("get", key);
        return inner.get(key);
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        count("range", key);
        return inner.getRange(key, offset, length);
    }

    @Override
    public Optional<byte[]> getSuffix(String key, int length) throws IOException {
        count("suffix", key);
        return inner.getSuffix(key, length);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return inner.list(prefix);
    }

    @Override
    public void close() throws IOException {
        inner.close();
    }
}
