package io.nczarr.codec;

/**
 * A codec that serializes an array into bytes (Zarr v3 "array -> bytes"): exactly one per chain.
 * numcodecs vlen-utf8 and vlen-bytes are such codecs; Zarr v2 chains without one use the array's
 * raw layout ({@link RawBytesCodec}).
 */
public non-sealed interface ArrayBytesCodec extends Codec {

    /** Exact size of the bytes a chunk of {@code decoded} serializes to, or {@link ChunkSpec#UNKNOWN}. */
    default long encodedBytes(ChunkSpec decoded) {
        return ChunkSpec.UNKNOWN;
    }
}
