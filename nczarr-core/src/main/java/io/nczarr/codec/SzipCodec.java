package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * netcdf-c's {@code szip} filter: no Java decoder for szip/libaec is on Maven Central, so the
 * codec is known (metadata can be read) but decoding a chunk fails clearly.
 */
final class SzipCodec implements BytesBytesCodec {

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        throw new CodecException("unsupported codec szip (no Java szip/libaec decoder is available)");
    }
}
