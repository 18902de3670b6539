package io.nczarr.chunk;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Decoded byte strings, one {@code byte[]} per element: variable-length ones (numcodecs {@code vlen-bytes}), or
 * fixed-length raw bytes ({@link #fixed}).
 */
final class BytesChunk implements ChunkData {
    private final byte[][] values;

    private BytesChunk(byte[][] values) {
        this.values = values;
    }

    @Override
    public void copy(int srcStart, int srcStride, Object dest, int destStart, int count) {
        byte[][] a = (byte[][]) dest;
        for (int i = 0; i < count; i++) {
            a[destStart + i] = values[srcStart + i * srcStride];
        }
    }

    /**
     * Raw bytes of {@code length} bytes each, packed in {@code data} (which may be a reused buffer: elements are
     * copied out as {@link ChunkData#copy} is called, each into an array of its own).
     */
    static ChunkData fixed(byte[] data, int length) {
        return (srcStart, srcStride, dest, destStart, count) -> {
            byte[][] a = (byte[][]) dest;
            for (int i = 0; i < count; i++) {
                int at = (srcStart + i * srcStride) * length;
                a[destStart + i] = java.util.Arrays.copyOfRange(data, at, at + length);
            }
        };
    }

    /**
     * numcodecs VLenBytes: int32 LE item count, then (int32 LE length, bytes) per item.
     *
     * @throws IllegalArgumentException when the bytes do not hold {@code n} items
     */
    static BytesChunk parse(byte[] data, int n) {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (data.length < 4) {
            throw new IllegalArgumentException("vlen-bytes chunk of " + data.length + " bytes has no header");
        }
        int items = b.getInt(0);
        if (items != n) {
            throw new IllegalArgumentException("vlen-bytes chunk holds " + items + " items, " + n + " expected");
        }
        byte[][] out = new byte[n][];
        int pos = 4;
        for (int i = 0; i < n; i++) {
            if (pos + 4 > data.length) {
                throw new IllegalArgumentException("vlen-bytes chunk is truncated at item " + i);
            }
            int len = b.getInt(pos);
            pos += 4;
            if (len < 0 || len > data.length - pos) {
                throw new IllegalArgumentException("vlen-bytes item " + i + " length " + len + " overruns the chunk");
            }
            out[i] = java.util.Arrays.copyOfRange(data, pos, pos + len);
            pos += len;
        }
        return new BytesChunk(out);
    }
}
