package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * Widens bfloat16 to float32, exactly: a bfloat16 is the upper 16 bits of a float32. The chain
 * stores bfloat16 as its raw 16 bits ({@code <u2}, little endian), so this stage runs in front of it,
 * like float16's widening.
 */
final class BFloat16Codec implements ArrayArrayCodec {

    static final BFloat16Codec INSTANCE = new BFloat16Codec();

    private BFloat16Codec() {}

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(CodecSupport.knownDtype("<u2"));
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length % 2 != 0) {
            throw new CodecException("bfloat16: " + encoded.length + " bytes are not whole 2-byte values");
        }
        long outLen = 2L * encoded.length;
        if (outLen > maxDecodedBytes) {
            throw CodecSupport.tooLarge("bfloat16", outLen, maxDecodedBytes);
        }
        byte[] out = new byte[(int) outLen];
        for (int i = 0, o = 0; i < encoded.length; i += 2, o += 4) {
            // little endian float32 whose two high bytes are the bfloat16
            out[o + 2] = encoded[i];
            out[o + 3] = encoded[i + 1];
        }
        return out;
    }
}
