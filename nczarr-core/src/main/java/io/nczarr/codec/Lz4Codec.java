package io.nczarr.codec;

import io.nczarr.error.CodecException;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * numcodecs {@code lz4}: a 4-byte little-endian decoded size, then one LZ4 block (lz4-java's
 * bounds-checked "safe" decompressor, thread-safe and stateless).
 */
final class Lz4Codec implements BytesBytesCodec {

    static final LZ4SafeDecompressor LZ4 = LZ4Factory.fastestInstance().safeDecompressor();

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 4) {
            throw new CodecException("lz4: compressed data is truncated (" + encoded.length + " bytes)");
        }
        long size = CodecSupport.le32(encoded, 0) & 0xFFFFFFFFL;
        if (size > maxDecodedBytes) {
            throw CodecSupport.tooLarge("lz4", size, maxDecodedBytes);
        }
        byte[] out = new byte[(int) size];
        int n = block("lz4", encoded, 4, encoded.length - 4, out, 0, out.length);
        if (n != size) {
            throw new CodecException("lz4: header declares " + size + " bytes but the block holds " + n);
        }
        return out;
    }

    @Override
    public byte[] decodeInto(byte[] encoded, byte[] out, int len) throws CodecException {
        if (encoded.length < 4 || (CodecSupport.le32(encoded, 0) & 0xFFFFFFFFL) != len) {
            return decode(encoded, len);
        }
        int n = block("lz4", encoded, 4, encoded.length - 4, out, 0, len);
        if (n != len) {
            throw new CodecException("lz4: header declares " + len + " bytes but the block holds " + n);
        }
        return out;
    }

    /** Decompresses one raw LZ4 block; malformed input is a CodecException. */
    static int block(String id, byte[] src, int off, int len, byte[] dst, int dstOff, int maxLen)
            throws CodecException {
        if (len == 0) {
            if (maxLen == 0) {
                return 0;
            }
            throw new CodecException(id + ": empty LZ4 block");
        }
        try {
            return LZ4.decompress(src, off, len, dst, dstOff, maxLen);
        } catch (LZ4Exception | ArrayIndexOutOfBoundsException e) {
            throw new CodecException(id + ": corrupt or truncated LZ4 data (" + e.getMessage() + ")", e);
        }
    }
}
