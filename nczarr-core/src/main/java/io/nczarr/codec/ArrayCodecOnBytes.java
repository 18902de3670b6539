package io.nczarr.codec;

import java.io.IOException;

/**
 * An array codec that a Zarr v2 chain places after a bytes codec (legal there: a v2 array chunk
 * is its bytes). Runs it unchanged as a bytes stage, so the chain keeps its order.
 */
final class ArrayCodecOnBytes implements BytesBytesCodec {

    private final Codec codec;

    ArrayCodecOnBytes(Codec codec) {
        this.codec = codec;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws IOException {
        return codec.decode(encoded, maxDecodedBytes);
    }

    @Override
    public byte[] decodeInto(byte[] encoded, byte[] out, int len) throws IOException {
        return codec.decodeInto(encoded, out, len);
    }
}
