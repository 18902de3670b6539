package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * zarr-extensions {@code packbits} (array -&gt; bytes; not numcodecs' {@code packbits}, an array
 * filter of bools): bits {@code first_bit..last_bit} of each element (each real and imaginary part
 * of a complex number) packed without gaps, least significant bit first; signed integers are
 * sign-extended from {@code last_bit} when decoding. {@code padding_encoding} {@code none},
 * {@code first_byte} or {@code last_byte} holds the number of padding bits.
 */
final class V3PackBitsCodec implements ArrayBytesCodec {

    private static final String ID = "packbits";

    private final long elements;
    private final int components;
    /** Bits of one component as stored in the decoded layout (1 for bool). */
    private final int componentBits;

    private final int firstBit;
    private final int bits;
    private final boolean signed;
    /** 0 none, 1 first byte, 2 last byte. */
    private final int padding;

    private V3PackBitsCodec(
            long elements, int components, int componentBits, int firstBit, int bits, boolean signed, int padding) {
        this.elements = elements;
        this.components = components;
        this.componentBits = componentBits;
        this.firstBit = firstBit;
        this.bits = bits;
        this.signed = signed;
        this.padding = padding;
    }

    static V3PackBitsCodec create(CodecConfig config, NumpyDtype dtype, long elements) throws CodecException {
        config.requireOnly("padding_encoding", "first_bit", "last_bit");
        int components = dtype.kind() == 'c' ? 2 : 1;
        int componentBits;
        switch (dtype.kind()) {
            case 'b':
                componentBits = 1;
                break;
            case 'i':
            case 'u':
            case 'f':
            case 'c':
                componentBits = 8 * dtype.itemsize() / components;
                break;
            default:
                throw new CodecException("codec 'packbits': data type " + dtype.str() + " cannot be bit-packed");
        }
        int first = config.intParam("first_bit", 0);
        int last = config.intParam("last_bit", componentBits - 1);
        if (first < 0 || last < first || last >= componentBits) {
            throw new CodecException("codec 'packbits': bits " + first + ".." + last + " do not fit a " + componentBits
                    + "-bit component");
        }
        int padding = switch (config.stringParam("padding_encoding", "none")) {
            case "none" -> 0;
            case "first_byte" -> 1;
            case "last_byte" -> 2;
            default ->
                throw new CodecException("codec 'packbits': unknown padding_encoding '"
                        + config.stringParam("padding_encoding", "") + "'");
        };
        return new V3PackBitsCodec(
                elements, components, componentBits, first, last - first + 1, dtype.kind() == 'i', padding);
    }

    private long packedBytes() {
        return (elements * components * bits + 7) / 8;
    }

    @Override
    public long encodedBytes(ChunkSpec decoded) {
        return packedBytes() + (padding == 0 ? 0 : 1);
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        long packed = packedBytes();
        if (encoded.length != packed + (padding == 0 ? 0 : 1)) {
            throw new CodecException("codec 'packbits': " + encoded.length + " bytes, expected "
                    + (packed + (padding == 0 ? 0 : 1)) + " for " + elements + " elements");
        }
        int start = padding == 1 ? 1 : 0;
        if (padding != 0) {
            int pad = encoded[padding == 1 ? 0 : encoded.length - 1] & 0xFF;
            long expected = packed * 8 - elements * components * bits;
            if (pad != expected) {
                throw new CodecException("codec 'packbits': padding byte says " + pad + " bits, expected " + expected);
            }
        }
        int componentBytes = (componentBits + 7) / 8;
        long outLen = elements * components * componentBytes;
        if (outLen > maxDecodedBytes) {
            throw CodecSupport.tooLarge(ID, outLen, maxDecodedBytes);
        }
        byte[] out = new byte[(int) outLen];
        long bit = (long) start * 8;
        long n = elements * components;
        for (long c = 0; c < n; c++) {
            long v = 0;
            for (int k = 0; k < bits; k++, bit++) {
                v |= (long) ((encoded[(int) (bit >>> 3)] >>> (bit & 7)) & 1) << k;
            }
            v <<= firstBit;
            int top = firstBit + bits;
            if (signed && top < 64) {
                v = (v << (64 - top)) >> (64 - top);
            }
            int off = (int) (c * componentBytes);
            for (int b = 0; b < componentBytes; b++) {
                out[off + b] = (byte) (v >>> (8 * b));
            }
        }
        return out;
    }
}
