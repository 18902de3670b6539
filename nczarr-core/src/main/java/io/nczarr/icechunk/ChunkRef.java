package io.nczarr.icechunk;

/**
 * One chunk reference of a manifest: inline bytes, a native chunk ({@code chunks/ID}, {@code offset}, {@code
 * length}) or a virtual one (a byte range of {@code location}, with the ETag or modification time the target
 * had when the reference was made, when recorded).
 */
record ChunkRef(
        Kind kind,
        byte[] inline,
        String chunkId,
        long offset,
        long length,
        String location,
        String etag,
        long lastModifiedSeconds) {
    enum Kind {
        INLINE,
        NATIVE,
        VIRTUAL
    }

    static ChunkRef inline(byte[] bytes) {
        return new ChunkRef(Kind.INLINE, bytes, null, 0, bytes.length, null, null, 0);
    }
}
