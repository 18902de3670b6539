package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * imagecodecs {@code imagecodecs_lz4h5} (VirtualiZarr's name for HDF5's LZ4 filter 32004): an 8-byte
 * big-endian decoded size, a 4-byte big-endian block size, then per block a 4-byte big-endian stored
 * size and the block, raw when that size equals the block's decoded size, else one LZ4 block.
 */
final class Lz4H5Codec implements BytesBytesCodec {

    private static final String ID = "imagecodecs_lz4h5";

    static Lz4H5Codec create(CodecConfig config) throws CodecException {
        config.requireOnly("level", "blocksize");
        return new Lz4H5Codec();
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 12) {
            throw new CodecException(ID + ": data is truncated (no header)");
        }
        long total = be(encoded, 0, 8);
        long block = be(encoded, 8, 4);
        if (total < 0 || total > maxDecodedBytes) {
            throw CodecSupport.tooLarge(ID, total, maxDecodedBytes);
        }
        if (block <= 0 && total > 0) {
            throw new CodecException(ID + ": block size " + block + " is not positive");
        }
        byte[] out = new byte[(int) total];
        int in = 12;
        int o = 0;
        while (o < total) {
            int want = (int) Math.min(block, total - o);
            if (in + 4 > encoded.length) {
                throw new CodecException(ID + ": data is truncated at block " + (o / block));
            }
            long stored = be(encoded, in, 4);
            in += 4;
            if (stored > encoded.length - in) {
                throw new CodecException(ID + ": data is truncated at block " + (o / block));
            }
            if (stored == want) {
                System.arraycopy(encoded, in, out, o, want);
            } else {
                int n = Lz4Codec.block(ID, encoded, in, (int) stored, out, o, want);
                if (n != want) {
                    throw new CodecException(ID + ": a block decodes to " + n + " bytes, not " + want);
                }
            }
            in += (int) stored;
            o += want;
        }
        return out;
    }

    private static long be(byte[] b, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }
}
