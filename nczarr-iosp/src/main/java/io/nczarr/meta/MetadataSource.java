package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where metadata objects come from: the store itself, or the consolidated {@code .zmetadata}
 * (which answers without further requests).
 */
interface MetadataSource {

    Optional<ObjectNode> object(String key) throws IOException;

    /** Child names of a group prefix (for walking pure Zarr). */
    List<String> children(String prefix) throws IOException;

    /**
     * Objects and listings straight from the store, each fetched at most once per open (readers
     * look at some objects twice, e.g. the root {@code .zgroup}; on S3 every look is a request).
     */
    static MetadataSource of(Store store) {
        return new MetadataSource() {
            private final Map<String, Optional<ObjectNode>> objects = new ConcurrentHashMap<>();
            private final Map<String, List<String>> listings = new ConcurrentHashMap<>();

            @Override
            public Optional<ObjectNode> object(String key) throws IOException {
                Optional<ObjectNode> o = objects.get(key);
                if (o == null) {
                    o = Json.readObject(store, key);
                    objects.put(key, o);
                }
                return o;
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
        };
    }
}
