package io.nczarr.icechunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.google.flatbuffers.FlatBufferBuilder;
import io.nczarr.error.MetadataException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Objects icechunk 2.3.0 did not write for the test data, built here with the FlatBuffers builder from the
 * spec's schema: a manifest with zstd-dictionary compressed virtual locations, and a snapshot whose manifest
 * extents overlap.
 */
class HandBuiltObjectsTest {
    static final byte[] NODE = {1, 2, 3, 4, 5, 6, 7, 8};
    static final byte[] MANIFEST_ID = {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9};

    static int struct(FlatBufferBuilder b, byte[] bytes) {
        b.prep(1, bytes.length);
        for (int i = bytes.length - 1; i >= 0; i--) {
            b.putByte(bytes[i]);
        }
        return b.offset();
    }

    static int chunkRef(FlatBufferBuilder b, int index, byte[] compressedLocation) {
        int loc = b.createByteVector(compressedLocation);
        int etag = index == 4 ? b.createString("\"9b2cf535f27731c974343645a3985328\"") : 0;
        b.startVector(4, 1, 4);
        b.addInt(index);
        int idx = b.endVector();
        b.startTable(10);
        b.addOffset(0, idx, 0);
        b.addLong(2, 1000L + index, 0);
        b.addLong(3, 16, 0);
        b.addOffset(8, loc, 0);
        if (index == 4) { // the checksums of a virtual reference (spec: fields 6 and 7)
            b.addOffset(6, etag, 0);
            b.addInt(7, (int) 3_000_000_000L, 0); // a u32: past 2^31
        }
        return b.endTable();
    }

    @Test
    void dictionaryCompressedLocations() throws Exception {
        byte[] dict =
                "s3://bucket/archive/sst/file_0000.nc s3://bucket/archive/sst/file_".getBytes(StandardCharsets.UTF_8);
        FlatBufferBuilder b = new FlatBufferBuilder();
        int[] refs = new int[3];
        try (ZstdDictCompress c = new ZstdDictCompress(dict, 3)) {
            for (int i = 0; i < 3; i++) {
                byte[] loc = ("s3://bucket/archive/sst/file_000" + i + ".nc").getBytes(StandardCharsets.UTF_8);
                refs[i] = chunkRef(b, i * 2, Zstd.compress(loc, c));
            }
        }
        int refVec = b.createVectorOfTables(refs);
        b.startTable(3);
        b.addOffset(1, refVec, 0);
        b.addStruct(0, struct(b, NODE), 0);
        int array = b.endTable();
        int arrays = b.createVectorOfTables(new int[] {array});
        int dictVec = b.createByteVector(dict);
        b.startTable(5);
        b.addOffset(1, arrays, 0);
        b.addOffset(2, dictVec, 0);
        b.addStruct(0, struct(b, MANIFEST_ID), 0);
        b.finish(b.endTable());
        FlatBuf fb = new FlatBuf(b.sizedByteArray(), "repo", "manifests/X");
        String id = Crockford.encode(MANIFEST_ID);
        ManifestFile m = ManifestFile.parse(fb, id);
        ChunkRef r = m.find(NODE, new long[] {4});
        assertEquals(ChunkRef.Kind.VIRTUAL, r.kind());
        assertEquals("s3://bucket/archive/sst/file_0002.nc", r.location());
        assertEquals(1004L, r.offset());
        assertEquals(16L, r.length());
        assertEquals("\"9b2cf535f27731c974343645a3985328\"", r.etag());
        assertEquals(3_000_000_000L, r.lastModifiedSeconds());
        ChunkRef plain = m.find(NODE, new long[] {0});
        assertNull(plain.etag());
        assertEquals(0L, plain.lastModifiedSeconds());
        assertNull(m.find(NODE, new long[] {1}), "no reference: fill");
        assertNull(m.find(new byte[8], new long[] {0}), "another array");
        MetadataException e =
                assertThrows(MetadataException.class, () -> ManifestFile.parse(fb, "0000000000000000000Z"));
        assertTrue(e.getMessage().contains("manifests/X"), e.getMessage());
    }

    @Test
    void overlappingManifestExtentsAreRefused() throws Exception {
        FlatBufferBuilder b = new FlatBufferBuilder();
        int[] mrefs = new int[2];
        for (int i = 0; i < 2; i++) {
            b.startVector(8, 1, 4);
            b.addInt(i == 0 ? 4 : 6); // to (the struct is written backwards: to, then from)
            b.addInt(i == 0 ? 0 : 3); // from
            int extents = b.endVector();
            b.startTable(2);
            b.addOffset(1, extents, 0);
            b.addStruct(0, struct(b, new byte[] {(byte) i, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1}), 0);
            mrefs[i] = b.endTable();
        }
        int manifests = b.createVectorOfTables(mrefs);
        b.startTable(2);
        b.addLong(0, 60, 0);
        b.addInt(1, 6, 0);
        int shapeV2Elem = b.endTable();
        int shapeV2 = b.createVectorOfTables(new int[] {shapeV2Elem});
        int shape = b.createVectorOfTables(new int[0]);
        b.startTable(4);
        b.addOffset(0, shape, 0);
        b.addOffset(2, manifests, 0);
        b.addOffset(3, shapeV2, 0);
        int data = b.endTable();
        int path = b.createString("/a");
        int user = b.createByteVector("{}".getBytes(StandardCharsets.UTF_8));
        b.startTable(6);
        b.addOffset(1, path, 0);
        b.addOffset(2, user, 0);
        b.addByte(3, (byte) 1, 0);
        b.addOffset(4, data, 0);
        b.addStruct(0, struct(b, NODE), 0);
        int node = b.endTable();
        int nodes = b.createVectorOfTables(new int[] {node});
        int message = b.createString("m");
        int empty = b.createVectorOfTables(new int[0]);
        b.startTable(9);
        b.addOffset(2, nodes, 0);
        b.addOffset(4, message, 0);
        b.addOffset(5, empty, 0);
        b.addOffset(6, empty, 0);
        b.addStruct(0, struct(b, MANIFEST_ID), 0);
        b.finish(b.endTable());
        FlatBuf fb = new FlatBuf(b.sizedByteArray(), "repo", "snapshots/S");
        MetadataException e = assertThrows(MetadataException.class, () -> SnapshotFile.parse(fb, 2));
        assertTrue(e.getMessage().contains("overlap") && e.getMessage().contains("snapshots/S"), e.getMessage());
    }
}
