package io.nczarr.codec;

/** The inverse of Blosc's bit shuffle (bitshuffle's {@code bshuf_trans_bit_elem}), for {@link BloscCodec}. */
final class BitUnshuffle {
    private BitUnshuffle() {}

    /** Byte i of x holds row i of an 8x8 bit matrix (bit j = column j); returns its transpose. */
    static long transpose8x8(long x) {
        long t = (x ^ (x >>> 7)) & 0x00AA00AA00AA00AAL;
        x = x ^ t ^ (t << 7);
        t = (x ^ (x >>> 14)) & 0x0000CCCC0000CCCCL;
        x = x ^ t ^ (t << 14);
        t = (x ^ (x >>> 28)) & 0x00000000F0F0F0F0L;
        return x ^ t ^ (t << 28);
    }

    /**
     * Inverse of bitshuffle's {@code bshuf_trans_bit_elem}: for element count {@code m} (a multiple
     * of 8) the input holds {@code 8 * ts} bit rows of {@code m / 8} bytes; row {@code 8 * byte + bit}
     * has, at bit position {@code e % 8} of its byte {@code e / 8}, that bit of element {@code e}.
     * c-blosc 1.x (frame version &lt;= 2) bit-shuffles a block only when its element count is a
     * multiple of 8 and copies it as-is otherwise; later frames shuffle the largest multiple of 8
     * elements. The bytes after the shuffled elements are copied unchanged.
     */
    static void bitunshuffle(int version, int ts, int size, byte[] src, byte[] dst, int dOff) {
        int elems = size / ts;
        if (version <= 2) {
            if (elems % 8 != 0) {
                System.arraycopy(src, 0, dst, dOff, size);
                return;
            }
        } else {
            elems -= elems % 8;
        }
        int done = elems * ts;
        int rowBytes = elems / 8;
        // per group of 8 elements and element byte: the 8 bit rows' bytes form an 8x8 bit matrix
        // whose transpose is those 8 elements' bytes (a bit loop per element was 10x slower)
        for (int byteIdx = 0; byteIdx < ts; byteIdx++) {
            int row0 = byteIdx * 8 * rowBytes;
            for (int q = 0; q < rowBytes; q++) {
                long x = 0;
                for (int bit = 0, r = row0 + q; bit < 8; bit++, r += rowBytes) {
                    x |= (src[r] & 0xFFL) << (8 * bit);
                }
                x = transpose8x8(x);
                for (int m = 0, d = dOff + q * 8 * ts + byteIdx; m < 8; m++, d += ts) {
                    dst[d] = (byte) (x >>> (8 * m));
                }
            }
        }
        System.arraycopy(src, done, dst, dOff + done, size - done);
    }

    /**
     * How many elements of a block of {@code size} bytes are bit-shuffled (a multiple of 8): c-blosc 1.x (frame
     * version &lt;= 2) shuffles a block only when its element count is a multiple of 8, later frames the largest
     * multiple of 8 elements.
     */
    static int shuffledElements(int version, int ts, int size) {
        int elems = size / ts;
        return version <= 2 ? (elems % 8 != 0 ? 0 : elems) : elems - elems % 8;
    }

    /**
     * The bit unshuffle's first pass ({@link BloscBlocks}): the {@code 8 * ts} bit rows of {@code elems} (a
     * multiple of 8) elements in {@code src} become {@code ts} byte rows in {@code dst} (row {@code i} holds byte
     * {@code i} of every element, the byte shuffle's layout), from group {@code fromGroup} of 8 elements on. Each
     * transposed 8x8 bit block is 8 adjacent bytes of one row (in one pass to the elements they are 8 bytes
     * {@code ts} apart, which was slower).
     */
    static void toByteRows(int ts, int elems, byte[] src, byte[] dst, int fromGroup) {
        int rowBytes = elems / 8;
        for (int byteIdx = 0; byteIdx < ts; byteIdx++) {
            int row0 = byteIdx * 8 * rowBytes;
            for (int q = fromGroup; q < rowBytes; q++) {
                long x = 0;
                for (int bit = 0, r = row0 + q; bit < 8; bit++, r += rowBytes) {
                    x |= (src[r] & 0xFFL) << (8 * bit);
                }
                x = transpose8x8(x);
                for (int m = 0, d = byteIdx * elems + 8 * q; m < 8; m++, d++) {
                    dst[d] = (byte) (x >>> (8 * m));
                }
            }
        }
    }
}
