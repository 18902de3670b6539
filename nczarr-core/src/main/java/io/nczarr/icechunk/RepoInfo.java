package io.nczarr.icechunk;

import com.google.flatbuffers.ArrayReadWriteBuf;
import com.google.flatbuffers.FlexBuffers;
import io.nczarr.error.MetadataException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The repo info object of a spec-2 repository ({@code $ROOT/repo}): branches and tags as indexes into the
 * list of snapshots, each snapshot's parent, time, message and metadata, and the repository configuration's
 * virtual chunk containers. Immutable.
 */
final class RepoInfo {
    /** A snapshot of the list: its id, its parent's index (-1: none), time, message and metadata. */
    record SnapshotEntry(String id, int parent, long flushedAtMicros, String message, Map<String, String> metadata) {
        Instant time() {
            return timeOf(flushedAtMicros);
        }

        static Instant timeOf(long micros) {
            return Instant.ofEpochSecond(Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000);
        }
    }

    final int specVersion;
    final Map<String, String> branches;
    final Map<String, String> tags;
    final List<SnapshotEntry> snapshots;
    /** Container name → URL prefix, as the repository's configuration declares them. */
    final Map<String, String> containers;

    private RepoInfo(
            int specVersion,
            Map<String, String> branches,
            Map<String, String> tags,
            List<SnapshotEntry> snapshots,
            Map<String, String> containers) {
        this.specVersion = specVersion;
        this.branches = Collections.unmodifiableMap(branches);
        this.tags = Collections.unmodifiableMap(tags);
        this.snapshots = Collections.unmodifiableList(snapshots);
        this.containers = Collections.unmodifiableMap(containers);
    }

    /** A spec-1 repository: no repo info object (refs are objects of their own; containers in config.yaml). */
    static RepoInfo v1(Map<String, String> containers) {
        return new RepoInfo(1, Map.of(), Map.of(), List.of(), containers);
    }

    static RepoInfo parse(FlatBuf fb) throws MetadataException {
        int root = fb.root();
        int spec = fb.u8Field(root, 0, 0, "Repo.spec_version");
        List<SnapshotEntry> snaps = new ArrayList<>();
        int sv = fb.required(root, 4, "Repo.snapshots");
        int n = fb.length(sv, 4, "Repo.snapshots");
        for (int i = 0; i < n; i++) {
            int t = fb.tableAt(sv, i, "Repo.snapshots[" + i + "]");
            int idPos = fb.field(t, 0, "SnapshotInfo.id");
            if (idPos == 0) {
                throw fb.bad("required SnapshotInfo.id is missing");
            }
            String id = Crockford.encode(fb.struct(idPos, 12, "SnapshotInfo.id"));
            int parent = fb.i32Field(t, 1, 0, "SnapshotInfo.parent_offset"); // absent: the default, 0
            if (parent < -1 || parent >= n) {
                throw fb.bad("snapshot " + id + " names parent " + parent + " of " + n);
            }
            long at = fb.u64Field(t, 2, 0, "SnapshotInfo.flushed_at");
            String message = fb.string(fb.required(t, 3, "SnapshotInfo.message"), "SnapshotInfo.message");
            snaps.add(new SnapshotEntry(id, parent, at, message, metadata(fb, fb.ref(t, 4, "SnapshotInfo.metadata"))));
        }
        Map<String, String> tags = refs(fb, fb.required(root, 1, "Repo.tags"), "Repo.tags", snaps);
        Map<String, String> branches = refs(fb, fb.required(root, 2, "Repo.branches"), "Repo.branches", snaps);
        int cfg = fb.ref(root, 9, "Repo.config");
        Map<String, String> containers = cfg == 0 ? Map.of() : containers(fb, fb.bytes(cfg, "Repo.config"));
        return new RepoInfo(spec, branches, tags, snaps, containers);
    }

    private static Map<String, String> refs(FlatBuf fb, int vec, String what, List<SnapshotEntry> snaps)
            throws MetadataException {
        Map<String, String> out = new TreeMap<>();
        int n = fb.length(vec, 4, what);
        for (int i = 0; i < n; i++) {
            int t = fb.tableAt(vec, i, what);
            String name = fb.string(fb.required(t, 0, "Ref.name"), "Ref.name");
            long idx = fb.u32Field(t, 1, 0, "Ref.snapshot_index");
            if (idx >= snaps.size()) {
                throw fb.bad(what + " '" + name + "' names snapshot " + idx + " of " + snaps.size());
            }
            out.put(name, snaps.get((int) idx).id());
        }
        return out;
    }

    /** Commit metadata (spec 2: each value FlexBuffers) as JSON-like text, sorted by name. */
    static Map<String, String> metadata(FlatBuf fb, int vec) throws MetadataException {
        return metadataItems(fb, vec, (name, v) -> flexText(fb, v, "metadata '" + name + "'"));
    }

    /** Commit metadata of a spec-1 snapshot (each value MessagePack) as JSON text, in the stored order. */
    static Map<String, String> v1Metadata(FlatBuf fb, int vec) throws MetadataException {
        return metadataItems(fb, vec, (name, v) -> {
            try {
                return MsgPack.toJson(v);
            } catch (IllegalArgumentException e) {
                throw fb.bad("metadata '" + name + "': " + e.getMessage());
            }
        });
    }

    /** How one spec writes a metadata item's value bytes. */
    private interface ValueText {
        String of(String name, byte[] value) throws MetadataException;
    }

    /** The {@code MetadataItem} vector {@code vec} (0: none) as name → value text, in the stored order. */
    private static Map<String, String> metadataItems(FlatBuf fb, int vec, ValueText text) throws MetadataException {
        if (vec == 0) {
            return Map.of();
        }
        Map<String, String> out = new LinkedHashMap<>();
        int n = fb.length(vec, 4, "metadata");
        for (int i = 0; i < n; i++) {
            int t = fb.tableAt(vec, i, "metadata");
            String name = fb.string(fb.required(t, 0, "MetadataItem.name"), "MetadataItem.name");
            byte[] v = fb.bytes(fb.required(t, 1, "MetadataItem.value"), "MetadataItem.value");
            out.put(name, text.of(name, v));
        }
        return out;
    }

    private static String flexText(FlatBuf fb, byte[] v, String what) throws MetadataException {
        try {
            return FlexBuffers.getRoot(new ArrayReadWriteBuf(v, v.length)).toString();
        } catch (RuntimeException e) {
            throw fb.bad(what + " is not a FlexBuffer");
        }
    }

    /** {@code virtual_chunk_containers} of the FlexBuffers configuration: name → url_prefix. */
    private static Map<String, String> containers(FlatBuf fb, byte[] config) throws MetadataException {
        Map<String, String> out = new TreeMap<>();
        try {
            FlexBuffers.Reference root = FlexBuffers.getRoot(new ArrayReadWriteBuf(config, config.length));
            if (!root.isMap()) {
                throw fb.bad("Repo.config is not a FlexBuffers map");
            }
            FlexBuffers.Reference vcc = root.asMap().get("virtual_chunk_containers");
            if (!vcc.isMap()) {
                return out;
            }
            FlexBuffers.Map m = vcc.asMap();
            FlexBuffers.KeyVector keys = m.keys();
            for (int i = 0; i < keys.size(); i++) {
                String name = keys.get(i).toString();
                FlexBuffers.Reference c = m.get(i);
                if (c.isMap() && c.asMap().get("url_prefix").isString()) {
                    out.put(name, c.asMap().get("url_prefix").asString());
                }
            }
        } catch (RuntimeException e) {
            throw fb.bad(
                    "Repo.config is not a readable FlexBuffer (" + e.getClass().getSimpleName() + ")");
        }
        return out;
    }

    /** The index of the snapshot {@code id}, or -1. */
    int indexOf(String id) {
        for (int i = 0; i < snapshots.size(); i++) {
            if (snapshots.get(i).id().equals(id)) {
                return i;
            }
        }
        return -1;
    }

    /** The snapshot {@code id} and its ancestors, newest first (bounded by the list: a cycle ends it). */
    List<SnapshotEntry> ancestry(String id) {
        List<SnapshotEntry> out = new ArrayList<>();
        int i = indexOf(id);
        while (i >= 0 && out.size() <= snapshots.size()) {
            SnapshotEntry e = snapshots.get(i);
            out.add(e);
            i = e.parent();
        }
        return out;
    }
}
