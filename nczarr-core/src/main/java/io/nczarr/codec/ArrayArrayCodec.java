package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * A codec that encodes an array into another array (Zarr v3 "array -> array"): numcodecs delta,
 * fixedscaleoffset, astype, quantize, bitround, packbits and categorize. Decoding gives the array
 * back in its decoded dtype.
 */
public non-sealed interface ArrayArrayCodec extends Codec {

    /** The array this codec encodes a chunk of {@code decoded} into (its dtype and element count). */
    ChunkSpec encodedSpec(ChunkSpec decoded) throws CodecException;
}
