package io.nczarr.icechunk;

import io.nczarr.error.MetadataException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * A snapshot object ({@code snapshots/ID}): the nodes of the hierarchy, each with its path, its {@code
 * zarr.json} bytes (the node's user data) and, for arrays, the manifests holding its chunk references with
 * the chunk-index extents each covers. Immutable.
 */
final class SnapshotFile {
    /** A manifest and the region of the array's chunk grid it covers: {@code from[d] <= i[d] < to[d]}. */
    record ManifestRef(String id, long[] from, long[] to) {
        boolean covers(long[] index) {
            if (index.length != from.length) {
                return false;
            }
            for (int d = 0; d < index.length; d++) {
                if (index[d] < from[d] || index[d] >= to[d]) {
                    return false;
                }
            }
            return true;
        }
    }

    /** A group or array of the snapshot. */
    record Node(String path, byte[] nodeId, boolean array, byte[] zarrJson, int ndim, List<ManifestRef> manifests) {}

    final String id;
    /** Spec 1 only (spec 2 keeps parents in the repo info): the parent snapshot, or null. */
    final String parentId;

    final long flushedAtMicros;
    final String message;
    final Map<String, String> metadata;
    final List<Node> nodes;

    private SnapshotFile(
            String id, String parentId, long at, String message, Map<String, String> metadata, List<Node> nodes) {
        this.id = id;
        this.parentId = parentId;
        this.flushedAtMicros = at;
        this.message = message;
        this.metadata = metadata;
        this.nodes = Collections.unmodifiableList(nodes);
    }

    static SnapshotFile parse(FlatBuf fb, int specVersion) throws MetadataException {
        int root = fb.root();
        int idPos = fb.field(root, 0, "Snapshot.id");
        if (idPos == 0) {
            throw fb.bad("required Snapshot.id is missing");
        }
        String id = Crockford.encode(fb.struct(idPos, 12, "Snapshot.id"));
        int nv = fb.required(root, 2, "Snapshot.nodes");
        int n = fb.length(nv, 4, "Snapshot.nodes");
        List<Node> nodes = new ArrayList<>(n);
        String previous = null;
        for (int i = 0; i < n; i++) {
            Node node = node(fb, fb.tableAt(nv, i, "Snapshot.nodes[" + i + "]"));
            if (previous != null && byteOrder(previous, node.path()) >= 0) {
                throw fb.bad("nodes not sorted by path ('" + previous + "' before '" + node.path() + "')");
            }
            previous = node.path();
            nodes.add(node);
        }
        long at = fb.u64Field(root, 3, 0, "Snapshot.flushed_at");
        String message = fb.string(fb.required(root, 4, "Snapshot.message"), "Snapshot.message");
        Map<String, String> metadata = specVersion >= 2
                ? RepoInfo.metadata(fb, fb.ref(root, 5, "Snapshot.metadata"))
                : RepoInfo.v1Metadata(fb, fb.ref(root, 5, "Snapshot.metadata"));
        int parent = fb.field(root, 1, "Snapshot.parent_id");
        String parentId = parent == 0 ? null : Crockford.encode(fb.struct(parent, 12, "Snapshot.parent_id"));
        return new SnapshotFile(id, parentId, at, message, metadata, nodes);
    }

    /** Icechunk sorts paths by their UTF-8 bytes. */
    private static int byteOrder(String a, String b) {
        byte[] x = a.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] y = b.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.util.Arrays.compareUnsigned(x, y);
    }

    private static Node node(FlatBuf fb, int t) throws MetadataException {
        int idPos = fb.field(t, 0, "NodeSnapshot.id");
        if (idPos == 0) {
            throw fb.bad("required NodeSnapshot.id is missing");
        }
        byte[] nodeId = fb.struct(idPos, 8, "NodeSnapshot.id");
        String path = fb.string(fb.required(t, 1, "NodeSnapshot.path"), "NodeSnapshot.path");
        if (!path.startsWith("/") || (path.length() > 1 && (path.endsWith("/") || path.contains("//")))) {
            throw fb.bad("node path '" + path + "' is not an absolute canonical path");
        }
        for (String seg : path.substring(1).split("/", -1)) {
            if (seg.equals(".") || seg.equals("..")) {
                throw fb.bad("node path '" + path + "' is not an absolute canonical path");
            }
        }
        byte[] zarrJson = fb.bytes(fb.required(t, 2, "NodeSnapshot.user_data"), "NodeSnapshot.user_data");
        int type = fb.u8Field(t, 3, 0, "NodeSnapshot.node_data_type");
        int data = fb.required(t, 4, "NodeSnapshot.node_data");
        if (type == 2) {
            return new Node(path, nodeId, false, zarrJson, 0, List.of());
        }
        if (type != 1) {
            throw fb.bad("node '" + path + "' has node data of unknown type " + type);
        }
        int ndim;
        int shapeV2 = fb.ref(data, 3, "ArrayNodeData.shape_v2");
        if (shapeV2 != 0) {
            ndim = fb.length(shapeV2, 4, "ArrayNodeData.shape_v2");
        } else {
            ndim = fb.length(fb.required(data, 0, "ArrayNodeData.shape"), 16, "ArrayNodeData.shape");
        }
        int mv = fb.required(data, 2, "ArrayNodeData.manifests");
        int m = fb.length(mv, 4, "ArrayNodeData.manifests");
        List<ManifestRef> refs = new ArrayList<>(m);
        for (int i = 0; i < m; i++) {
            int r = fb.tableAt(mv, i, "ArrayNodeData.manifests");
            int oid = fb.field(r, 0, "ManifestRef.object_id");
            if (oid == 0) {
                throw fb.bad("required ManifestRef.object_id is missing");
            }
            String mid = Crockford.encode(fb.struct(oid, 12, "ManifestRef.object_id"));
            int ev = fb.required(r, 1, "ManifestRef.extents");
            int e = fb.length(ev, 8, "ManifestRef.extents");
            if (e != ndim) {
                throw fb.bad("array '" + path + "' has " + ndim + " dimensions but manifest " + mid + " has " + e
                        + " extents");
            }
            long[] from = new long[e];
            long[] to = new long[e];
            for (int d = 0; d < e; d++) {
                from[d] = fb.u32(ev + 4 + 8 * d, "ChunkIndexRange.from");
                to[d] = fb.u32(ev + 8 + 8 * d, "ChunkIndexRange.to");
            }
            refs.add(new ManifestRef(mid, from, to));
        }
        checkDisjoint(fb, path, refs);
        return new Node(path, nodeId, true, zarrJson, ndim, Collections.unmodifiableList(refs));
    }

    /** Overlapping extents would make a chunk's manifest ambiguous: refused (checked up to 1000 manifests). */
    private static void checkDisjoint(FlatBuf fb, String path, List<ManifestRef> refs) throws MetadataException {
        if (refs.size() > 1000) {
            return;
        }
        for (int i = 0; i < refs.size(); i++) {
            for (int j = i + 1; j < refs.size(); j++) {
                ManifestRef a = refs.get(i);
                ManifestRef b = refs.get(j);
                boolean overlap = true;
                for (int d = 0; d < a.from().length && overlap; d++) {
                    overlap = a.from()[d] < b.to()[d] && b.from()[d] < a.to()[d];
                }
                if (overlap) {
                    throw fb.bad(
                            "array '" + path + "': the extents of manifests " + a.id() + " and " + b.id() + " overlap");
                }
            }
        }
    }
}
