package io.nczarr.codec;

/**
 * A codec that turns bytes into bytes (Zarr v3 "bytes -> bytes"): every compressor, the
 * checksums and shuffle. Functional, so a user codec can be a lambda.
 */
@FunctionalInterface
public non-sealed interface BytesBytesCodec extends Codec {

    /**
     * Largest encoded size of {@code decodedBytes} bytes, or {@link ChunkSpec#UNKNOWN} when the
     * format does not bound it (compressors). Bounds the decode of a codec placed before this one.
     */
    default long maxEncodedBytes(long decodedBytes) {
        return ChunkSpec.UNKNOWN;
    }
}
