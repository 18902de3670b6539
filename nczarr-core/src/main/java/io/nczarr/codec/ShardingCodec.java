package io.nczarr.codec;

import io.nczarr.error.CodecException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Zarr v3's {@code sharding_indexed} on a whole shard held in memory: the index (at the start or
 * the end, decoded by its own chain) locates each inner chunk, which its inner chain decodes;
 * empty ones read as the fill value. The result is the shard's array in C order: fixed-size
 * elements, or for variable-length strings the vlen-utf8 layout the chunk reader parses.
 * Nested sharding is an inner chain holding this codec again.
 */
public final class ShardingCodec implements ArrayBytesCodec {

    private final int[] shardShape;
    private final int[] innerShape;
    private final int[] grid;
    private final int chunks;
    private final long innerElements;
    private final long shardElements;
    private final CodecPipeline inner;
    private final CodecPipeline index;
    private final int indexBytes;
    private final boolean indexAtEnd;
    /** bytes per element; 0 for variable-length strings */
    private final int itemSize;

    private final byte[] fillElement;
    private final byte[] fillString;

    ShardingCodec(
            int[] shardShape,
            int[] innerShape,
            CodecPipeline inner,
            CodecPipeline index,
            int indexBytes,
            boolean indexAtEnd,
            int itemSize,
            byte[] fillElement,
            byte[] fillString) {
        this.shardShape = shardShape.clone();
        this.innerShape = innerShape.clone();
        this.grid = new int[shardShape.length];
        int n = 1;
        long ie = 1;
        long se = 1;
        for (int d = 0; d < grid.length; d++) {
            grid[d] = shardShape[d] / innerShape[d];
            n *= grid[d];
            ie *= innerShape[d];
            se *= shardShape[d];
        }
        this.chunks = n;
        this.innerElements = ie;
        this.shardElements = se;
        this.inner = inner;
        this.index = index;
        this.indexBytes = indexBytes;
        this.indexAtEnd = indexAtEnd;
        this.itemSize = itemSize;
        this.fillElement = fillElement;
        this.fillString = fillString;
    }

    /** The inner chunk shape. */
    public int[] innerShape() {
        return innerShape.clone();
    }

    /** Inner chunks per shard along each dimension. */
    public int[] grid() {
        return grid.clone();
    }

    /** The stored size of the index. */
    public int indexBytes() {
        return indexBytes;
    }

    /** Whether the index is at the end of the shard object (else at the start). */
    public boolean indexAtEnd() {
        return indexAtEnd;
    }

    /** The inner chunks' codec chain. */
    public CodecPipeline innerPipeline() {
        return inner;
    }

    /** Decodes and parses a stored index. */
    public ShardIndex index(byte[] stored) throws IOException {
        if (stored.length != indexBytes) {
            throw new CodecException(
                    "sharding_indexed: the shard index has " + stored.length + " bytes, " + indexBytes + " expected");
        }
        return ShardIndex.parse(index.decodeInto(stored, null, 16 * chunks), chunks);
    }

    @Override
    public long encodedBytes(ChunkSpec decoded) {
        return ChunkSpec.UNKNOWN;
    }

    @Override
    public byte[] decode(byte[] shard, int maxDecodedBytes) throws IOException {
        if (shard.length < indexBytes) {
            throw new CodecException("sharding_indexed: the " + shard.length + "-byte shard is shorter than its "
                    + indexBytes + "-byte index");
        }
        int at = indexAtEnd ? shard.length - indexBytes : 0;
        ShardIndex idx = index(Arrays.copyOfRange(shard, at, at + indexBytes));
        for (int c = 0; c < chunks; c++) {
            if (!idx.isEmpty(c)) {
                idx.check(c, shard.length, shard.length);
            }
        }
        return itemSize == 0 ? decodeStrings(shard, idx, maxDecodedBytes) : decodeFixed(shard, idx, maxDecodedBytes);
    }

    /** Decodes one inner chunk's stored bytes to its array bytes (fixed size) or vlen layout. */
    public byte[] decodeInner(byte[] stored, int maxDecodedBytes) throws IOException {
        if (itemSize == 0) {
            return inner.decode(stored, maxDecodedBytes);
        }
        return decodeInnerInto(stored, null);
    }

    /**
     * One inner chunk of fixed-size elements, its last step decoded into {@code scratch} (the caller's
     * reusable buffer of at least the inner chunk's size, or {@code null}): returns {@code scratch} holding
     * the chunk, or a new array of exactly its size.
     */
    public byte[] decodeInnerInto(byte[] stored, byte[] scratch) throws IOException {
        return decodeInnerInto(stored, 0, stored.length, scratch);
    }

    /** {@link #decodeInnerInto(byte[], byte[])} of the inner chunk stored in {@code bytes[offset, offset + length)}. */
    public byte[] decodeInnerInto(byte[] bytes, int offset, int length, byte[] scratch) throws IOException {
        int len = (int) (innerElements * itemSize);
        byte[] out = inner.decodeInto(bytes, offset, length, scratch, len);
        if (out != scratch && out.length != len) {
            throw new CodecException(
                    "sharding_indexed: an inner chunk decodes to " + out.length + " bytes, " + len + " expected");
        }
        return out;
    }

    private byte[] decodeFixed(byte[] shard, ShardIndex idx, int max) throws IOException {
        long total = shardElements * itemSize;
        if (total > max) {
            throw CodecSupport.tooLarge("sharding_indexed", total, max);
        }
        byte[] out = new byte[(int) total];
        int innerBytes = (int) (innerElements * itemSize);
        byte[] fill = new byte[innerBytes];
        for (int i = 0; i < innerBytes; i += itemSize) {
            System.arraycopy(fillElement, 0, fill, i, itemSize);
        }
        for (int c = 0; c < chunks; c++) {
            byte[] data = idx.isEmpty(c) ? fill : decodeInner(slice(shard, idx, c), innerBytes);
            place(data, c, out);
        }
        return out;
    }

    private static byte[] slice(byte[] shard, ShardIndex idx, int c) {
        int off = (int) idx.offset(c);
        return Arrays.copyOfRange(shard, off, off + (int) idx.length(c));
    }

    /** Copies inner chunk {@code c} (C order, fixed-size elements) to its place in the shard. */
    private void place(byte[] data, int c, byte[] out) {
        int rank = shardShape.length;
        long[] origin = origin(c);
        int row = innerShape.length == 0 ? 1 : innerShape[rank - 1];
        int rowBytes = row * itemSize;
        int rows = (int) (innerElements / Math.max(1, row));
        int[] pos = new int[Math.max(0, rank - 1)];
        for (int r = 0; r < rows; r++) {
            long dst = 0;
            for (int d = 0; d < rank; d++) {
                long at = origin[d] + (d < rank - 1 ? pos[d] : 0);
                dst = dst * shardShape[d] + at;
            }
            System.arraycopy(data, r * rowBytes, out, (int) (dst * itemSize), rowBytes);
            for (int d = rank - 2; d >= 0; d--) {
                if (++pos[d] < innerShape[d]) {
                    break;
                }
                pos[d] = 0;
            }
        }
    }

    /** The shard position of inner chunk {@code c}'s first element. */
    private long[] origin(int c) {
        long[] o = new long[grid.length];
        for (int d = grid.length - 1; d >= 0; d--) {
            o[d] = (long) (c % grid[d]) * innerShape[d];
            c /= grid[d];
        }
        return o;
    }

    private byte[] decodeStrings(byte[] shard, ShardIndex idx, int max) throws IOException {
        byte[][] items = new byte[(int) shardElements][];
        long total = 4;
        int rank = shardShape.length;
        for (int c = 0; c < chunks; c++) {
            byte[][] chunk = idx.isEmpty(c) ? null : vlenItems(decodeInner(slice(shard, idx, c), max));
            long[] origin = origin(c);
            for (int e = 0; e < innerElements; e++) {
                // element e of the inner chunk, C order, to its shard position
                long at = 0;
                long rest = e;
                long[] local = new long[rank];
                for (int d = rank - 1; d >= 0; d--) {
                    local[d] = rest % innerShape[d];
                    rest /= innerShape[d];
                }
                for (int d = 0; d < rank; d++) {
                    at = at * shardShape[d] + origin[d] + local[d];
                }
                byte[] v = chunk == null ? fillString : chunk[e];
                items[(int) at] = v;
                total += 4 + v.length;
                if (total > max) {
                    throw CodecSupport.tooLarge("sharding_indexed", total, max);
                }
            }
        }
        ByteBuffer b = ByteBuffer.allocate((int) total).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(items.length);
        for (byte[] v : items) {
            b.putInt(v.length).put(v);
        }
        return b.array();
    }

    /** The items of a vlen-utf8 chunk of {@code innerElements} items. */
    private byte[][] vlenItems(byte[] data) throws CodecException {
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        if (data.length < 4 || b.getInt(0) != innerElements) {
            throw new CodecException("sharding_indexed: an inner vlen chunk does not hold " + innerElements + " items");
        }
        byte[][] out = new byte[(int) innerElements][];
        int pos = 4;
        for (int i = 0; i < out.length; i++) {
            if (pos > data.length - 4) {
                throw new CodecException("sharding_indexed: an inner vlen chunk is truncated at item " + i);
            }
            int len = b.getInt(pos);
            pos += 4;
            if (len < 0 || len > data.length - pos) {
                throw new CodecException("sharding_indexed: inner vlen item " + i + " overruns its chunk");
            }
            out[i] = Arrays.copyOfRange(data, pos, pos + len);
            pos += len;
        }
        return out;
    }
}
