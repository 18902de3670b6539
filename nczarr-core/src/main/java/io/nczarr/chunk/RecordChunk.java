package io.nczarr.chunk;

/**
 * Decoded fixed-size records ({@link io.nczarr.model.ElementType.Layout#RECORD}): each element is
 * {@code itemSize} packed bytes, copied as they are into a {@code byte[]} result of records (the
 * binding reads the members at their offsets, in their own byte orders). A missing chunk is the
 * fill record repeated ({@code null} = zero bytes).
 */
final class RecordChunk implements ChunkData {
    private final byte[] data;
    private final int itemSize;
    private final boolean fill;

    private RecordChunk(byte[] data, int itemSize, boolean fill) {
        this.data = data;
        this.itemSize = itemSize;
        this.fill = fill;
    }

    /** Records decoded from a chunk. */
    static RecordChunk of(byte[] data, int itemSize) {
        return new RecordChunk(data, itemSize, false);
    }

    /** Every element is {@code record} ({@code null}: all zero bytes). */
    static RecordChunk fill(byte[] record, int itemSize) {
        return new RecordChunk(record == null ? new byte[itemSize] : record, itemSize, true);
    }

    @Override
    public void copy(int srcStart, int srcStride, Object dest, int destStart, int count) {
        byte[] a = (byte[]) dest;
        for (int i = 0; i < count; i++) {
            int src = fill ? 0 : (srcStart + i * srcStride) * itemSize;
            System.arraycopy(data, src, a, (destStart + i) * itemSize, itemSize);
        }
    }
}
