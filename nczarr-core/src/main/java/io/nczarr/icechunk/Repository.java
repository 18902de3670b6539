package io.nczarr.icechunk;

import io.nczarr.error.MetadataException;
import io.nczarr.error.StoreException;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.Store;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The metadata objects of one Icechunk repository read through a {@link Store} of its root: the repo info,
 * snapshots and manifests, each checked (header, type, bounds) and parsed. Manifests are cached, least
 * recently used first out, within {@code cacheBytes} of decompressed payload. Thread-safe.
 */
final class Repository {
    private final Store root;
    private final ByteLimit limit;
    private final long cacheBytes;
    /** Guarded by itself; access order. */
    private final Map<String, ManifestFile> manifests = new LinkedHashMap<>(16, 0.75f, true);

    private final Map<String, Integer> sizes = new LinkedHashMap<>();
    /** Manifest id → the lock its one read holds (a snapshot names a bounded number of manifests). */
    private final Map<String, Object> loading = new java.util.concurrent.ConcurrentHashMap<>();

    private long cached;
    private volatile int specVersion = ObjectFormat.MAX_SPEC;

    Repository(Store root, ByteLimit limit, long cacheBytes) {
        this.root = root;
        this.limit = limit;
        this.cacheBytes = cacheBytes;
    }

    String location() {
        return root.location();
    }

    Store root() {
        return root;
    }

    /**
     * The repo info ({@code repo}); for a spec-1 repository (no such object; {@code refs/branch.main/ref.json} or
     * {@code config.yaml} instead) a spec-1 one with only the containers of its {@code config.yaml} ({@link
     * V1Config}): its refs are objects of their own ({@link #v1Ref}).
     */
    RepoInfo info() throws IOException {
        Optional<byte[]> b = root.get("repo", limit);
        if (b.isEmpty()) {
            Optional<byte[]> config = root.get(V1Config.KEY, limit);
            if (config.isPresent()
                    || root.get("refs/branch.main/ref.json", limit).isPresent()) {
                specVersion = 1;
                return RepoInfo.v1(config.isEmpty() ? Map.of() : V1Config.containers(config.get(), location()));
            }
            throw new StoreException(
                    location(), "repo", "not an Icechunk repository: it has no repo object", false, null);
        }
        ObjectFormat.Header h = ObjectFormat.header(b.get(), location(), "repo");
        specVersion = h.specVersion();
        if (h.specVersion() < 2) {
            throw new UnsupportedFeatureException(
                    location(), "repo", null, "Icechunk spec 1 repositories", "a repo object of spec version 1", null);
        }
        return RepoInfo.parse(ObjectFormat.payload(b.get(), ObjectFormat.REPO_INFO, location(), "repo", limit));
    }

    /** Spec 1: the snapshot {@code refs/branch.NAME/ref.json} or {@code refs/tag.NAME/ref.json} names. */
    String v1Ref(String kind, String name) throws IOException {
        String key = "refs/" + kind + "." + name + "/ref.json";
        if (name.contains("/") || name.startsWith(".")) {
            throw new MetadataException(location(), key, "'" + name + "' is not a " + kind + " name");
        }
        Optional<byte[]> b = root.get(key, limit);
        if (b.isEmpty()) {
            throw new MetadataException(location(), key, "no " + kind + " '" + name + "' (spec-1 repository)");
        }
        try {
            String id = JSON.readTree(b.get()).path("snapshot").asText("");
            Crockford.decode(id, 12);
            return id;
        } catch (IOException | IllegalArgumentException e) {
            throw new MetadataException(location(), key, "corrupt ref: no snapshot id in it");
        }
    }

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    int specVersion() {
        return specVersion;
    }

    SnapshotFile snapshot(String id) throws IOException {
        String key = "snapshots/" + id;
        byte[] b = root.get(key, limit)
                .orElseThrow(() -> new MetadataException(
                        location(),
                        key,
                        "missing snapshot: the repository names snapshot " + id + " but has no such object"));
        SnapshotFile s =
                SnapshotFile.parse(ObjectFormat.payload(b, ObjectFormat.SNAPSHOT, location(), key, limit), specVersion);
        if (!s.id.equals(id)) {
            throw new MetadataException(location(), key, "corrupt Icechunk object: the snapshot says it is " + s.id);
        }
        return s;
    }

    ManifestFile manifest(String id) throws IOException {
        synchronized (manifests) {
            ManifestFile m = manifests.get(id);
            if (m != null) {
                return m;
            }
        }
        // one read per manifest: the parallel reads of an array's first chunks wait for the first one's
        synchronized (loading.computeIfAbsent(id, k -> new Object())) {
            synchronized (manifests) {
                ManifestFile m = manifests.get(id);
                if (m != null) {
                    return m;
                }
            }
            return load(id);
        }
    }

    private ManifestFile load(String id) throws IOException {
        String key = "manifests/" + id;
        byte[] b = root.get(key, limit)
                .orElseThrow(() -> new MetadataException(
                        location(),
                        key,
                        "missing manifest: the snapshot names manifest " + id
                                + " but the repository has no such object"));
        FlatBuf fb = ObjectFormat.payload(b, ObjectFormat.MANIFEST, location(), key, limit);
        ManifestFile m = ManifestFile.parse(fb, id);
        synchronized (manifests) {
            if (!manifests.containsKey(id)) {
                manifests.put(id, m);
                sizes.put(id, fb.size());
                cached += fb.size();
                var it = manifests.keySet().iterator();
                while (cached > cacheBytes && it.hasNext()) {
                    String old = it.next();
                    if (old.equals(id)) {
                        continue;
                    }
                    it.remove();
                    cached -= sizes.remove(old);
                }
            }
        }
        return m;
    }

    /** {@code length} bytes at {@code offset} of the native chunk object {@code chunks/ID}. */
    byte[] chunk(String id, long offset, int length, String array, String key) throws IOException {
        String object = "chunks/" + id;
        Optional<byte[]> b = root.getRange(object, offset, length);
        if (b.isEmpty()) {
            throw new StoreException(
                    location(),
                    key,
                    "array " + array + ": the chunk reference names " + object + ", which does not exist",
                    false,
                    null);
        }
        if (b.get().length != length) {
            throw new StoreException(
                    location(),
                    key,
                    "array " + array + ": " + object + " ends before byte " + (offset + length)
                            + " of the chunk reference",
                    false,
                    null);
        }
        return b.get();
    }
}
