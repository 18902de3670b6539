package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.nczarr.error.MetadataException;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Consolidated metadata ({@code .zmetadata}, written by zarr-python, xarray and netcdf-c 4.10):
 * every {@code .zgroup}/{@code .zarray}/{@code .zattrs} in one object, so no listing and no
 * per-object requests are needed. Other keys (NCZarr 1.0 {@code .ncz*} objects) fall through.
 */
final class ConsolidatedMetadata implements MetadataSource {
    /** Non-Zarr keys (NCZarr 1.0 {@code .ncz*}) are read through the ordinary, cached source. */
    private final MetadataSource others;

    private final Map<String, ObjectNode> objects = new HashMap<>();
    private final Map<String, TreeSet<String>> children = new HashMap<>();

    private ConsolidatedMetadata(MetadataSource others) {
        this.others = others;
    }

    /**
     * The consolidated view if {@code .zmetadata} exists at the root, else empty; objects it does not hold
     * come from {@code others} (which also answers the {@code .zmetadata} look).
     */
    static Optional<MetadataSource> open(Store store, MetadataSource others) throws IOException {
        Optional<ObjectNode> zm = others.object(".zmetadata");
        if (zm.isEmpty()) {
            return Optional.empty();
        }
        if (zm.get().has("record_size")) {
            // fsspec's LazyReferenceMapper: the chunks are references in <var>/refs.N.parq, not objects
            // here; read as a plain store, every variable would read as fill values
            throw new io.nczarr.error.UnsupportedFeatureException(
                    store.location(),
                    ".zmetadata",
                    null,
                    "Parquet references",
                    "this folder holds kerchunk Parquet references (.zmetadata has \"record_size\", chunk"
                            + " references live in <variable>/refs.<n>.parq): opened as a plain Zarr store it would"
                            + " read fill values instead of the data; open it as references: URL#mode=kerchunk",
                    null);
        }
        JsonNode meta = zm.get().get("metadata");
        if (meta == null || !meta.isObject()) {
            throw new MetadataException(store.location(), ".zmetadata", "no \"metadata\" object");
        }
        ConsolidatedMetadata c = new ConsolidatedMetadata(others);
        Iterator<Map.Entry<String, JsonNode>> it = meta.properties().iterator();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().isObject()) {
                throw new MetadataException(
                        store.location(), ".zmetadata", "entry '" + e.getKey() + "' is not an object");
            }
            String key = e.getKey();
            if (!io.nczarr.store.StoreKeys.isSafe(key)) {
                throw new MetadataException(store.location(), ".zmetadata", "illegal key '" + key + "'");
            }
            c.objects.put(key, (ObjectNode) e.getValue());
            String parent = "";
            // every group on the way to the key gets the next path element as a child
            int start = 0;
            int slash;
            while ((slash = key.indexOf('/', start)) >= 0) {
                c.children.computeIfAbsent(parent, k -> new TreeSet<>()).add(key.substring(start, slash));
                parent = key.substring(0, slash);
                start = slash + 1;
            }
            c.children.computeIfAbsent(parent, k -> new TreeSet<>()).add(key.substring(start));
        }
        return Optional.of(c);
    }

    private static boolean isZarrMetadataKey(String key) {
        return key.equals(".zgroup")
                || key.equals(".zarray")
                || key.equals(".zattrs")
                || key.endsWith("/.zgroup")
                || key.endsWith("/.zarray")
                || key.endsWith("/.zattrs");
    }

    @Override
    public Optional<ObjectNode> object(String key) throws IOException {
        if (isZarrMetadataKey(key)) {
            return Optional.ofNullable(objects.get(key));
        }
        return others.object(key);
    }

    @Override
    public List<String> children(String prefix) {
        TreeSet<String> c = children.get(prefix);
        return c == null ? List.of() : List.copyOf(c);
    }
}
