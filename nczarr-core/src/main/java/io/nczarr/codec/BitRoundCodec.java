package io.nczarr.codec;

import io.nczarr.error.CodecException;

/** numcodecs {@code bitround}: lossy at encode time (mantissa bits zeroed), the identity when decoding. */
final class BitRoundCodec implements ArrayArrayCodec {

    static BitRoundCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("keepbits");
        int keepbits = config.intParam("keepbits", 0);
        if (keepbits < 0) {
            throw new CodecException("codec 'bitround': keepbits must not be negative");
        }
        return new BitRoundCodec();
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge("bitround", encoded.length, maxDecodedBytes);
        }
        return encoded;
    }
}
