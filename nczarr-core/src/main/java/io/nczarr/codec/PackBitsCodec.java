package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * numcodecs {@code packbits}: first byte = number of padding bits in the last byte, then the bits
 * packed most significant first ({@code np.packbits}); decodes to one byte 0/1 per element.
 */
final class PackBitsCodec implements ArrayArrayCodec {

    private static final NumpyDtype UINT8 = CodecSupport.knownDtype("|u1");

    /** Encoded: one header byte, then eight elements per byte. */
    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return new ChunkSpec(1 + (decoded.elements() + 7) / 8, UINT8);
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length < 1) {
            throw new CodecException("packbits: data is truncated (no header byte)");
        }
        int pad = encoded[0] & 0xFF;
        if (pad > 7 || (encoded.length == 1 && pad != 0)) {
            throw new CodecException("packbits: corrupt header (" + pad + " padding bits)");
        }
        long n = (encoded.length - 1) * 8L - pad;
        if (n > maxDecodedBytes) {
            throw CodecSupport.tooLarge("packbits", n, maxDecodedBytes);
        }
        byte[] out = new byte[(int) n];
        for (int i = 0; i < n; i++) {
            out[i] = (byte) ((encoded[1 + (i >>> 3)] >>> (7 - (i & 7))) & 1);
        }
        return out;
    }
}
