package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * Zarr v2's implicit serializer: a chunk is its elements' bytes, in the dtype's own byte order
 * (what Zarr v3 spells as the {@code bytes} codec). Arrays already travel as those bytes here, so
 * decoding is the identity and a {@link CodecPipeline} does not run it.
 */
public final class RawBytesCodec implements ArrayBytesCodec {

    /** The one instance: it has no parameters. */
    public static final RawBytesCodec INSTANCE = new RawBytesCodec();

    private RawBytesCodec() {}

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge("bytes", encoded.length, maxDecodedBytes);
        }
        return encoded;
    }

    @Override
    public long encodedBytes(ChunkSpec decoded) {
        return decoded.bytes();
    }
}
