package io.nczarr.icechunk;

import io.nczarr.error.NcZarrException;
import io.nczarr.error.PreconditionFailedException;
import io.nczarr.error.StoreException;
import io.nczarr.http.HttpSettings;
import io.nczarr.source.Origin;
import io.nczarr.source.TrustSettings;
import io.nczarr.store.ByteLimit;
import io.nczarr.store.Store;
import io.nczarr.store.StoreKeys;
import io.nczarr.store.StoreResources;
import io.nczarr.store.kerchunk.ReferenceTargets;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * One snapshot of an Icechunk repository (spec 2) as a read-only Zarr v3 {@link Store}: {@code zarr.json} of
 * each node is the node's user data, a chunk key ({@code a/b/c/0/1}) is looked up in the manifest whose
 * extents cover the chunk, and answered from the inline bytes, the native chunk object ({@code chunks/ID}) or
 * the virtual location (under an authorized container, then the trust rules). A chunk without a reference is
 * an absent key (the reader uses the fill value). Opening costs two reads: the repo info and the snapshot;
 * the first chunk of an array one more (its manifest, then cached). Thread-safe.
 */
public final class IcechunkStore implements Store {
    private final Store base;
    private final Repository repo;
    private final Selection selection;
    private final SnapshotFile snapshot;
    private final Containers containers;
    private final ReferenceTargets targets;
    private final ByteLimit chunkLimit;
    /** Node key ({@code ""}, {@code a/b}) → node. */
    private final Map<String, SnapshotFile.Node> nodes = new HashMap<>();
    /** Node key → the names of its child nodes, sorted. */
    private final Map<String, TreeSet<String>> children = new HashMap<>();

    private final Map<String, ChunkKeys> encodings = new HashMap<>();

    private IcechunkStore(
            Store base,
            Repository repo,
            Selection selection,
            SnapshotFile snapshot,
            Containers containers,
            ReferenceTargets targets,
            ByteLimit chunkLimit) {
        this.base = base;
        this.repo = repo;
        this.selection = selection;
        this.snapshot = snapshot;
        this.containers = containers;
        this.targets = targets;
        this.chunkLimit = chunkLimit;
        for (SnapshotFile.Node n : snapshot.nodes) {
            String key = n.path().equals("/") ? "" : n.path().substring(1);
            nodes.put(key, n);
            children.computeIfAbsent(key, k -> new TreeSet<>());
            if (!key.isEmpty()) {
                int slash = key.lastIndexOf('/');
                String parent = slash < 0 ? "" : key.substring(0, slash);
                children.computeIfAbsent(parent, k -> new TreeSet<>()).add(key.substring(slash + 1));
            }
            if (n.array()) {
                encodings.put(key, ChunkKeys.of(n.zarrJson(), n.ndim()));
            }
        }
    }

    /**
     * The snapshot {@code url}'s fragment selects ({@link Selection}) of the repository whose root {@code base}
     * is. {@code base} is closed with this store (and now, if opening fails).
     */
    public static IcechunkStore open(Store base, DatasetUrl url, StoreResources resources) throws IOException {
        try {
            Repository repo = new Repository(
                    base, resources.limits().metadata(), resources.limits().maxMetadataBytes());
            Map<String, String> params =
                    Parameters.of(url.parameters(), resources.environment()::property, base.location());
            Selection sel = Selection.of(params, base.location());
            RepoInfo info = repo.info();
            String id = sel.snapshotId(info, repo);
            SnapshotFile snap = repo.snapshot(id);
            Containers containers = Containers.of(info.containers, params, base.location());
            TrustSettings trust = resources.trust();
            List<String> allow = new ArrayList<>(trust.allow());
            allow.addAll(containers.authorizedPrefixes()); // the user authorized them: documents may reach them
            TrustSettings widened = new TrustSettings(allow, trust.localRoots(), trust.credentials());
            Origin origin =
                    (resources.origin() != null ? resources.origin() : Origin.user(url, widened)).within(document(url));
            HttpSettings http;
            try {
                http = HttpSettings.resolve(url.parameters(), resources.environment()::property);
            } catch (IllegalArgumentException e) {
                throw new StoreException(base.location(), null, e.getMessage(), false, e);
            }
            ReferenceTargets targets =
                    new ReferenceTargets(resources.withOrigin(null), url.parameters(), s3Authority(url), http, origin);
            return new IcechunkStore(
                    base,
                    repo,
                    sel,
                    snap,
                    containers,
                    targets,
                    resources.limits().object());
        } catch (IOException | RuntimeException e) {
            base.close();
            throw e;
        }
    }

    /**
     * Whether the store {@code url} names (opened without the icechunk mode) holds an Icechunk repository: a
     * {@code repo} object with the Icechunk magic, or a spec-1 {@code refs/branch.main/ref.json}. Never throws.
     */
    public static boolean isRepository(DatasetUrl url, StoreResources resources) {
        try (Store s = io.nczarr.store.Stores.open(url, resources)) {
            Optional<byte[]> head = s.getRange("repo", 0, ObjectFormat.MAGIC.length);
            if (head.isPresent()) {
                return java.util.Arrays.equals(head.get(), ObjectFormat.MAGIC);
            }
            return s.getRange("refs/branch.main/ref.json", 0, 1).isPresent();
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    /** The repo info object's URL: the document virtual locations are named in. */
    private static URI document(DatasetUrl url) throws StoreException {
        if (url.localPath() != null) {
            return url.localPath().resolve("repo").toUri();
        }
        URI u = url.uri();
        String path = u.getPath() == null ? "" : u.getPath();
        try {
            return new URI(
                    u.getScheme(), u.getRawAuthority(), (path.endsWith("/") ? path : path + "/") + "repo", null, null);
        } catch (URISyntaxException e) {
            throw new StoreException(url.toString(), null, e.getReason(), false, null);
        }
    }

    private static String s3Authority(DatasetUrl url) {
        URI u = url.uri();
        if (u == null
                || "s3".equalsIgnoreCase(u.getScheme())
                || !url.declaredStoreKind()
                        .map(k -> k == DatasetUrl.StoreKind.S3)
                        .orElse(false)) {
            return null;
        }
        return u.getScheme().toLowerCase(Locale.ROOT) + "://" + u.getRawAuthority();
    }

    /** The snapshot read: id, and how it was selected. */
    public String snapshotId() {
        return snapshot.id;
    }

    /** E.g. {@code snapshot 4P3NW2VE6XK1T93DZWSG (branch main), 2026-11-27T21:01:08.949628Z: initial}. */
    public String describe() {
        return "snapshot " + snapshot.id + " (" + selection + "), "
                + RepoInfo.SnapshotEntry.timeOf(snapshot.flushedAtMicros) + ": " + snapshot.message;
    }

    @Override
    public String location() {
        return base.location();
    }

    @Override
    public Optional<byte[]> get(String key) throws IOException {
        StoreKeys.check(key);
        SnapshotFile.Node n = nodeOfMetadata(key);
        if (n != null) {
            return Optional.of(n.zarrJson().clone());
        }
        Located c = locate(key);
        if (c == null) {
            return Optional.empty();
        }
        chunkLimit.checkArray(location(), key, c.array(), "chunk", c.ref().length());
        return Optional.of(read(c, key, 0, (int) c.ref().length()));
    }

    @Override
    public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("negative offset or length");
        }
        StoreKeys.check(key);
        SnapshotFile.Node n = nodeOfMetadata(key);
        if (n != null) {
            byte[] b = n.zarrJson();
            int from = (int) Math.min(offset, b.length);
            return Optional.of(java.util.Arrays.copyOfRange(b, from, (int) Math.min(b.length, from + (long) length)));
        }
        Located c = locate(key);
        if (c == null) {
            return Optional.empty();
        }
        long size = c.ref().length();
        long from = Math.min(offset, size);
        int n2 = (int) Math.min(length, size - from);
        return Optional.of(read(c, key, from, n2));
    }

    /** A chunk key's array and reference. */
    private record Located(String array, ChunkRef ref) {}

    private SnapshotFile.Node nodeOfMetadata(String key) {
        if (key.equals("zarr.json")) {
            return nodes.get("");
        }
        if (key.endsWith("/zarr.json")) {
            return nodes.get(key.substring(0, key.length() - "/zarr.json".length()));
        }
        return null;
    }

    private Located locate(String key) throws IOException {
        // the array is the longest node key that is a prefix of the key
        for (int slash = key.lastIndexOf('/'); slash > 0; slash = key.lastIndexOf('/', slash - 1)) {
            String arrayKey = key.substring(0, slash);
            SnapshotFile.Node n = nodes.get(arrayKey);
            if (n == null) {
                continue;
            }
            if (!n.array()) {
                return null;
            }
            long[] index = encodings.get(arrayKey).index(key.substring(slash + 1));
            if (index == null) {
                return null;
            }
            for (SnapshotFile.ManifestRef m : n.manifests()) {
                if (m.covers(index)) {
                    ChunkRef r = repo.manifest(m.id()).find(n.nodeId(), index);
                    return r == null ? null : new Located(n.path(), r);
                }
            }
            return null;
        }
        SnapshotFile.Node root = nodes.get("");
        if (root != null && root.array()) {
            long[] index = encodings.get("").index(key);
            for (SnapshotFile.ManifestRef m : index == null ? List.<SnapshotFile.ManifestRef>of() : root.manifests()) {
                if (m.covers(index)) {
                    ChunkRef r = repo.manifest(m.id()).find(root.nodeId(), index);
                    return r == null ? null : new Located("/", r);
                }
            }
        }
        return null;
    }

    private byte[] read(Located c, String key, long from, int length) throws IOException {
        ChunkRef r = c.ref();
        switch (r.kind()) {
            case INLINE:
                return java.util.Arrays.copyOfRange(r.inline(), (int) from, (int) from + length);
            case NATIVE:
                return repo.chunk(r.chunkId(), r.offset() + from, length, c.array(), key);
            default: {
                String where = containers.resolve(r.location(), location(), c.array(), key);
                URI target;
                try {
                    target = new URI(where);
                } catch (URISyntaxException e) {
                    throw new StoreException(
                            location(),
                            key,
                            "array " + c.array() + ": virtual location " + io.nczarr.error.Redaction.redact(where)
                                    + " is not a URL",
                            false,
                            null);
                }
                try {
                    return targets.read(
                            target,
                            r.offset() + from,
                            length,
                            VirtualChecksums.preconditions(r),
                            VirtualChecksums.of(r, location(), c.array(), key));
                } catch (PreconditionFailedException e) {
                    throw VirtualChecksums.changed(location(), c.array(), key, where, e);
                } catch (NcZarrException e) {
                    throw e.withContext(location(), key, c.array());
                }
            }
        }
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        String p = StoreKeys.trim(prefix);
        TreeSet<String> c = children.get(p);
        if (c == null) {
            return List.of();
        }
        TreeSet<String> out = new TreeSet<>(c);
        out.add("zarr.json");
        return new ArrayList<>(out);
    }

    @Override
    public boolean listingIsCheap() {
        return true;
    }

    @Override
    public int preferredConcurrency() {
        return base.preferredConcurrency();
    }

    /** The declared containers and whether the user authorized them (for {@code nczarr log}). */
    public Map<String, String> containers() {
        Map<String, String> out = new TreeMap<>();
        for (Containers.Container c : containers.all()) {
            out.put(c.name(), c.declared() + (c.authorized() ? " -> " + c.readAt() : " (not authorized)"));
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        try {
            targets.close();
        } finally {
            base.close();
        }
    }
}
