package io.nczarr.store.parquet;

/**
 * Parquet's RLE / bit-packed hybrid encoding (definition levels, dictionary indices): runs of
 * {@code varint(count << 1)} + one value in {@code ceil(bitWidth / 8)} bytes, or {@code varint(groups << 1 | 1)}
 * + {@code groups * 8} values bit-packed least significant bit first. Every run header costs at least one
 * byte, so a decode ends within the input's length whatever the input says.
 */
final class RleHybrid {
    private RleHybrid() {}

    /**
     * Decodes {@code count} values of {@code bitWidth} bits (0..32) from {@code buf[from, end)} into {@code
     * out[0, count)}.
     *
     * @return where the encoded values end
     */
    static int decode(byte[] buf, int from, int end, int bitWidth, int[] out, int count) throws ParquetFormatException {
        if (bitWidth < 0 || bitWidth > 32) {
            throw new ParquetFormatException("bit width " + bitWidth + " out of 0..32");
        }
        int pos = from;
        int done = 0;
        int valueBytes = (bitWidth + 7) / 8;
        while (done < count) {
            long header = 0;
            for (int shift = 0; ; shift += 7) {
                if (pos >= end) {
                    throw new ParquetFormatException(
                            "RLE/bit-packed data ends after " + done + " of " + count + " values");
                }
                if (shift > 28) {
                    throw new ParquetFormatException("RLE run header longer than 5 bytes");
                }
                byte b = buf[pos++];
                header |= (long) (b & 0x7f) << shift;
                if (b >= 0) {
                    break;
                }
            }
            if ((header & 1) == 0) {
                long run = header >>> 1;
                if (valueBytes > end - pos) {
                    throw new ParquetFormatException("truncated RLE run value");
                }
                int v = 0;
                for (int i = 0; i < valueBytes; i++) {
                    v |= (buf[pos++] & 0xff) << (8 * i);
                }
                int take = (int) Math.min(run, count - done);
                java.util.Arrays.fill(out, done, done + take, v);
                done += take;
            } else {
                long values = (header >>> 1) * 8;
                int take = (int) Math.min(values, count - done);
                long bits = (long) take * bitWidth;
                long groupBytes = (header >>> 1) * bitWidth;
                if ((bits + 7) / 8 > end - pos) {
                    throw new ParquetFormatException("truncated bit-packed run");
                }
                long bitPos = (long) pos * 8;
                long mask = (1L << bitWidth) - 1;
                for (int i = 0; i < take; i++) {
                    long at = bitPos + (long) i * bitWidth;
                    int byteAt = (int) (at >>> 3);
                    int shift = (int) (at & 7);
                    long word = 0;
                    int need = (shift + bitWidth + 7) / 8;
                    for (int k = 0; k < need && byteAt + k < end; k++) {
                        word |= (buf[byteAt + k] & 0xffL) << (8 * k);
                    }
                    out[done + i] = (int) ((word >>> shift) & mask);
                }
                done += take;
                pos += (int) Math.min(groupBytes, end - pos);
            }
        }
        return pos;
    }
}
