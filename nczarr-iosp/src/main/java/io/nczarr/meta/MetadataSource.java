package io.nczarr.meta;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * Where metadata objects come from: the store itself, or the consolidated {@code .zmetadata}
 * (which answers without further requests).
 */
interface MetadataSource {

    Optional<ObjectNode> object(String key) throws IOException;

    /** Child names of a group prefix (for walking pure Zarr). */
    List<String> children(String prefix) throws IOException;

    static MetadataSource of(Store store) {
        return new MetadataSource() {
            @Override
            public Optional<ObjectNode> object(String key) throws IOException {
                return Json.readObject(store, key);
            }

            @Override
            public List<String> children(String prefix) throws IOException {
                return store.list(prefix);
            }
        };
    }
}
