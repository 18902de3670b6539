package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Executor;

/**
 * Where metadata objects come from: the store itself ({@link StoreMetadata}), or the consolidated
 * {@code .zmetadata} (which answers without further requests).
 */
interface MetadataSource {

    Optional<ObjectNode> object(String key) throws IOException;

    /** Child names of a group prefix (for walking pure Zarr). */
    List<String> children(String prefix) throws IOException;

    /**
     * A hint that these objects will be read soon: a remote source may start fetching them
     * concurrently. Only keys that will certainly be read belong here (no extra requests).
     */
    default void prefetch(Collection<String> keys) {}

    /** The keys {@code prefix/child/object} for every child and object, e.g. each variable's .zarray and .zattrs. */
    static List<String> objectsOf(String prefix, Collection<String> children, String... objects) {
        List<String> keys = new java.util.ArrayList<>(children.size() * objects.length);
        for (String child : children) {
            for (String o : objects) {
                keys.add(io.nczarr.store.StoreKeys.join(io.nczarr.store.StoreKeys.join(prefix, child), o));
            }
        }
        return keys;
    }

    static MetadataSource of(Store store, Executor prefetcher) {
        return new StoreMetadata(store, prefetcher);
    }
}
