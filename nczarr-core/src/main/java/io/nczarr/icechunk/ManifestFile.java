package io.nczarr.icechunk;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import io.nczarr.error.MetadataException;
import java.nio.charset.StandardCharsets;

/**
 * A manifest object ({@code manifests/ID}), kept as its decompressed FlatBuffer and searched in place: the
 * arrays by node id, then an array's references by chunk index (both binary searches, as the spec sorts
 * them). Thread-safe (immutable; the location dictionary is loaded once).
 */
final class ManifestFile {
    /** Longest virtual location decompressed from a dictionary-compressed one. */
    static final int MAX_LOCATION = 64 * 1024;

    private final FlatBuf fb;
    private final int arrays;
    private final int count;
    private final byte[] dictionary;
    private final int compression;

    private ManifestFile(FlatBuf fb, int arrays, int count, byte[] dictionary, int compression) {
        this.fb = fb;
        this.arrays = arrays;
        this.count = count;
        this.dictionary = dictionary;
        this.compression = compression;
    }

    static ManifestFile parse(FlatBuf fb, String expectedId) throws MetadataException {
        int root = fb.root();
        int idPos = fb.field(root, 0, "Manifest.id");
        if (idPos == 0) {
            throw fb.bad("required Manifest.id is missing");
        }
        String id = Crockford.encode(fb.struct(idPos, 12, "Manifest.id"));
        if (!id.equals(expectedId)) {
            throw fb.bad("the manifest says it is " + id);
        }
        int arrays = fb.required(root, 1, "Manifest.arrays");
        int n = fb.length(arrays, 4, "Manifest.arrays");
        int dict = fb.ref(root, 2, "Manifest.location_dictionary");
        int compression = fb.u8Field(root, 3, 1, "Manifest.compression_algorithm");
        return new ManifestFile(
                fb, arrays, n, dict == 0 ? null : fb.bytes(dict, "Manifest.location_dictionary"), compression);
    }

    /** The reference of chunk {@code index} of the array {@code nodeId}, or null when there is none. */
    ChunkRef find(byte[] nodeId, long[] index) throws MetadataException {
        int lo = 0;
        int hi = count - 1;
        int array = 0;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int t = fb.tableAt(arrays, mid, "Manifest.arrays");
            int idPos = fb.field(t, 0, "ArrayManifest.node_id");
            if (idPos == 0) {
                throw fb.bad("required ArrayManifest.node_id is missing");
            }
            int c = fb.compare(idPos, nodeId, "ArrayManifest.node_id");
            if (c == 0) {
                array = t;
                break;
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (array == 0) {
            return null;
        }
        int refs = fb.required(array, 1, "ArrayManifest.refs");
        lo = 0;
        hi = fb.length(refs, 4, "ArrayManifest.refs") - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int r = fb.tableAt(refs, mid, "ArrayManifest.refs");
            int c = compareIndex(fb.required(r, 0, "ChunkRef.index"), index);
            if (c == 0) {
                return ref(r);
            }
            if (c < 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return null;
    }

    private int compareIndex(int vec, long[] index) throws MetadataException {
        int n = fb.length(vec, 4, "ChunkRef.index");
        for (int d = 0; d < Math.min(n, index.length); d++) {
            int c = Long.compare(fb.u32(vec + 4 + 4 * d, "ChunkRef.index"), index[d]);
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(n, index.length);
    }

    private ChunkRef ref(int r) throws MetadataException {
        int inline = fb.ref(r, 1, "ChunkRef.inline");
        if (inline != 0) {
            return ChunkRef.inline(fb.bytes(inline, "ChunkRef.inline"));
        }
        long offset = fb.u64Field(r, 2, 0, "ChunkRef.offset");
        long length = fb.u64Field(r, 3, 0, "ChunkRef.length");
        if (offset < 0 || length < 0 || offset + length < 0) {
            throw fb.bad("chunk reference with offset " + offset + " and length " + length);
        }
        int chunkId = fb.field(r, 4, "ChunkRef.chunk_id");
        if (chunkId != 0) {
            String id = Crockford.encode(fb.struct(chunkId, 12, "ChunkRef.chunk_id"));
            return new ChunkRef(ChunkRef.Kind.NATIVE, null, id, offset, length, null, null, 0);
        }
        int loc = fb.ref(r, 5, "ChunkRef.location");
        String location;
        if (loc != 0) {
            location = fb.string(loc, "ChunkRef.location");
        } else {
            int cl = fb.ref(r, 8, "ChunkRef.compressed_location");
            if (cl == 0) {
                throw fb.bad("a chunk reference that is neither inline, native nor virtual");
            }
            location = decompressLocation(fb.bytes(cl, "ChunkRef.compressed_location"));
        }
        int etag = fb.ref(r, 6, "ChunkRef.checksum_etag");
        long modified = fb.u32Field(r, 7, 0, "ChunkRef.checksum_last_modified");
        return new ChunkRef(
                ChunkRef.Kind.VIRTUAL,
                null,
                null,
                offset,
                length,
                location,
                etag == 0 ? null : fb.string(etag, "ChunkRef.checksum_etag"),
                modified);
    }

    private String decompressLocation(byte[] compressed) throws MetadataException {
        if (compression == 0) {
            return new String(compressed, StandardCharsets.UTF_8);
        }
        if (compression != 1) {
            throw fb.bad("unknown location compression " + compression);
        }
        byte[] out = new byte[MAX_LOCATION];
        try {
            long n;
            if (dictionary != null) {
                try (ZstdDictDecompress d = new ZstdDictDecompress(dictionary)) {
                    n = Zstd.decompressFastDict(out, 0, compressed, 0, compressed.length, d);
                }
            } else {
                n = Zstd.decompressByteArray(out, 0, out.length, compressed, 0, compressed.length);
            }
            if (Zstd.isError(n)) {
                throw fb.bad("a compressed virtual location does not decompress (" + Zstd.getErrorName(n) + ")");
            }
            return new String(out, 0, (int) n, StandardCharsets.UTF_8);
        } catch (ZstdException e) {
            throw fb.bad("a compressed virtual location does not decompress (" + e.getMessage() + ")");
        }
    }
}
