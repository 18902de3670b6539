package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A decoded shard index: per inner chunk in C order, a little-endian uint64 offset and length
 * into the shard object; both all ones = the chunk is empty (reads as fill).
 */
public final class ShardIndex {
    private final long[] entries;

    private ShardIndex(long[] entries) {
        this.entries = entries;
    }

    /** Parses {@code 16 * chunks} decoded index bytes. */
    public static ShardIndex parse(byte[] decoded, int chunks) throws CodecException {
        if (decoded.length != 16L * chunks) {
            throw new CodecException("sharding_indexed: the shard index decodes to " + decoded.length + " bytes, "
                    + 16L * chunks + " expected for " + chunks + " inner chunks");
        }
        long[] e = new long[2 * chunks];
        ByteBuffer.wrap(decoded).order(ByteOrder.LITTLE_ENDIAN).asLongBuffer().get(e);
        return new ShardIndex(e);
    }

    public int chunks() {
        return entries.length / 2;
    }

    public boolean isEmpty(int chunk) {
        return entries[2 * chunk] == -1L && entries[2 * chunk + 1] == -1L;
    }

    public long offset(int chunk) {
        return entries[2 * chunk];
    }

    public long length(int chunk) {
        return entries[2 * chunk + 1];
    }

    /**
     * Checks that a non-empty entry lies inside an object of {@code objectLength} bytes and is at
     * most {@code maxLength} bytes long.
     */
    public void check(int chunk, long objectLength, long maxLength) throws CodecException {
        long off = offset(chunk);
        long len = length(chunk);
        if (off < 0 || len < 0 || len > maxLength || off > objectLength - len) {
            throw new CodecException("sharding_indexed: index entry " + chunk + " (offset "
                    + Long.toUnsignedString(off) + ", length " + Long.toUnsignedString(len)
                    + ") points outside the " + objectLength + "-byte shard");
        }
    }
}
