package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.store.StoreKeys;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Zarr v3 consolidated metadata, inline in the root {@code zarr.json}
 * ({@code consolidated_metadata: {"kind": "inline", "metadata": {"a/b": {node}, ...}}}): answers
 * {@code a/b/zarr.json} and the children of every group without requests.
 */
final class V3Consolidated implements MetadataSource {
    private final Map<String, ObjectNode> nodes = new HashMap<>();
    private final Map<String, TreeSet<String>> children = new HashMap<>();

    private V3Consolidated() {}

    /** The consolidated view if the root node carries inline metadata, else empty. */
    static Optional<MetadataSource> of(String dataset, ObjectNode root) throws MetadataException {
        JsonNode cm = root.get("consolidated_metadata");
        if (cm == null || cm.isNull() || !cm.isObject()) {
            return Optional.empty();
        }
        JsonNode kind = cm.get("kind");
        JsonNode meta = cm.get("metadata");
        if (kind == null || !"inline".equals(kind.asText()) || meta == null || !meta.isObject()) {
            return Optional.empty();
        }
        V3Consolidated c = new V3Consolidated();
        c.nodes.put("zarr.json", root);
        for (Map.Entry<String, JsonNode> e : meta.properties()) {
            String key = e.getKey();
            if (!e.getValue().isObject()) {
                throw new MetadataException(
                        dataset, "zarr.json", "consolidated_metadata: entry '" + key + "' is not an object");
            }
            if (!StoreKeys.isSafe(key) || key.isEmpty()) {
                throw new MetadataException(dataset, "zarr.json", "consolidated_metadata: illegal key '" + key + "'");
            }
            c.nodes.put(key + "/zarr.json", (ObjectNode) e.getValue());
            int slash = key.lastIndexOf('/');
            String parent = slash < 0 ? "" : key.substring(0, slash);
            c.children.computeIfAbsent(parent, k -> new TreeSet<>()).add(key.substring(slash + 1));
        }
        return Optional.of(c);
    }

    @Override
    public Optional<ObjectNode> object(String key) {
        return Optional.ofNullable(nodes.get(key));
    }

    @Override
    public List<String> children(String prefix) {
        TreeSet<String> c = children.get(prefix);
        return c == null ? List.of() : List.copyOf(c);
    }
}
