package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * Zarr v3's {@code bytes} codec (alias {@code endian}): the array's elements as bytes in the
 * configured byte order. Chunks decode to little-endian elements, so a big-endian chunk is swapped
 * and a little-endian one passes through.
 */
final class EndianCodec implements ArrayBytesCodec {

    private final int itemSize;
    private final boolean swap;

    private EndianCodec(int itemSize, boolean swap) {
        this.itemSize = itemSize;
        this.swap = swap;
    }

    /** From a {@code configuration} ({@code endian}: little, big, or absent for 1-byte types). */
    static EndianCodec create(CodecConfig config, NumpyDtype dtype) throws CodecException {
        String endian = config.stringParam("endian", "little");
        if (!endian.equals("little") && !endian.equals("big")) {
            throw new CodecException("codec 'bytes': endian must be 'little' or 'big', not '" + endian + "'");
        }
        if (dtype.kind() == 'O') {
            throw new CodecException("codec 'bytes' cannot serialize variable-length elements");
        }
        if (dtype.kind() == 'V' && endian.equals("big")) {
            // a struct's fields would each need their own swap
            throw new CodecException("codec 'bytes': big-endian struct records are not supported");
        }
        // a complex number is two floats, each in the given byte order
        int size = dtype.kind() == 'c' ? dtype.itemsize() / 2 : dtype.itemsize();
        return new EndianCodec(size, endian.equals("big") && size > 1);
    }

    /** Whether decoding leaves the bytes as they are (little-endian or 1-byte elements). */
    boolean passesThrough() {
        return !swap;
    }

    @Override
    public long encodedBytes(ChunkSpec decoded) {
        return decoded.bytes();
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        check(encoded, maxDecodedBytes);
        return swap ? swapInto(encoded, new byte[encoded.length]) : encoded;
    }

    @Override
    public byte[] decodeInto(byte[] encoded, byte[] out, int len) throws CodecException {
        if (!swap || encoded.length != len || out == null || out.length < len) {
            return decode(encoded, len);
        }
        return swapInto(encoded, out);
    }

    private void check(byte[] encoded, int max) throws CodecException {
        if (encoded.length > max) {
            throw CodecSupport.tooLarge("bytes", encoded.length, max);
        }
        if (encoded.length % itemSize != 0) {
            throw new CodecException("codec 'bytes': " + encoded.length + " bytes are not a whole number of " + itemSize
                    + "-byte elements");
        }
    }

    private byte[] swapInto(byte[] in, byte[] out) {
        int n = in.length - in.length % itemSize;
        for (int i = 0; i < n; i += itemSize) {
            for (int k = 0; k < itemSize; k++) {
                out[i + k] = in[i + itemSize - 1 - k];
            }
        }
        return out;
    }
}
