package io.nczarr.store;

import io.nczarr.error.NcZarrException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A read-only dataset held in memory: a fixed set of objects given at construction. For tests,
 * and for objects that arrive inline rather than from a file or a bucket (kerchunk references).
 * Immutable, so thread-safe; {@link #get} hands out copies, so callers may modify what they get.
 */
public final class MemoryStore implements Store {

    private final String location;
    /** key -> bytes, sorted so that the keys below a prefix are one contiguous range */
    private final NavigableMap<String, byte[]> objects;

    /**
     * @param location the name errors give for this dataset (e.g. {@code "memory:test"})
     * @param objects key to bytes; copied
     * @throws IllegalArgumentException for a key that is empty, ends in {@code /} or fails {@link StoreKeys#check}
     */
    public MemoryStore(String location, Map<String, byte[]> objects) {
        this.location = location;
        NavigableMap<String, byte[]> copy = new TreeMap<>();
        for (Map.Entry<String, byte[]> e : objects.entrySet()) {
            String key = e.getKey();
            if (key.isEmpty() || key.endsWith("/") || key.contains("//")) {
                throw new IllegalArgumentException("illegal store key '" + key + "' (empty segment)");
            }
            copy.put(StoreKeys.check(key), e.getValue().clone());
        }
        this.objects = Collections.unmodifiableNavigableMap(copy);
    }

    /** Collects objects for a {@link MemoryStore}. */
    public static final class Builder {
        private final String location;
        private final Map<String, byte[]> objects = new LinkedHashMap<>();

        private Builder(String location) {
            this.location = location;
        }

        public Builder put(String key, byte[] bytes) {
            objects.put(key, bytes.clone());
            return this;
        }

        /** An object holding {@code text} as UTF-8 (metadata JSON). */
        public Builder put(String key, String text) {
            return put(key, text.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }

        public MemoryStore build() {
            return new MemoryStore(location, objects);
        }
    }

    public static Builder builder(String location) {
        return new Builder(location);
    }

    @Override
    public String location() {
        return location;
    }

    /** The object; not bounded, as the objects are in memory already. */
    @Override
    public Optional<byte[]> get(String key) {
        byte[] b = objects.get(StoreKeys.check(key));
        return b == null ? Optional.empty() : Optional.of(b.clone());
    }

    /** The object, checked against {@code limit} before it is copied. */
    @Override
    public Optional<byte[]> get(String key, ByteLimit limit) throws NcZarrException {
        byte[] b = objects.get(StoreKeys.check(key));
        if (b == null) {
            return Optional.empty();
        }
        limit.check(location, key, null, "object", b.length);
        return Optional.of(b.clone());
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) {
        StoreLimits.checkRange(offset, length);
        byte[] b = objects.get(StoreKeys.check(key));
        if (b == null) {
            return Optional.empty();
        }
        int from = (int) Math.min(b.length, offset);
        int to = (int) Math.min(b.length, (long) from + length);
        return Optional.of(Arrays.copyOfRange(b, from, to));
    }

    @Override
    public List<String> list(String prefix) {
        String p = StoreKeys.check(StoreKeys.trim(prefix));
        String below = p.isEmpty() ? "" : p + "/";
        // the keys below "p/" sort from "p/" up to "p0" ('0' follows '/')
        SortedMap<String, byte[]> range = p.isEmpty() ? objects : objects.subMap(below, p + "0");
        TreeSet<String> names = new TreeSet<>();
        for (String key : range.keySet()) {
            String rest = key.substring(below.length());
            int slash = rest.indexOf('/');
            names.add(slash < 0 ? rest : rest.substring(0, slash));
        }
        return Collections.unmodifiableList(new ArrayList<>(names));
    }

    @Override
    public void close() {
        // nothing held
    }

    @Override
    public String toString() {
        return "MemoryStore[" + location + ", " + objects.size() + " objects]";
    }
}
