package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * A bytes-to-bytes codec that decodes part of a buffer where it lies: the caller's reused buffer of
 * stored chunks is read without a copy. Such a codec implements only the partial form.
 */
interface InPlaceBytesCodec extends BytesBytesCodec {

    @Override
    byte[] decodeInto(byte[] encoded, int encodedLength, byte[] out, int len) throws CodecException;

    @Override
    default byte[] decodeInto(byte[] encoded, byte[] out, int len) throws CodecException {
        return decodeInto(encoded, encoded.length, out, len);
    }

    @Override
    default boolean readsInPlace() {
        return true;
    }
}
