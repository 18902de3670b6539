package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * Zarr v3's {@code transpose}: the chunk is stored with its axes permuted by {@code order}
 * (encoded axis {@code k} is decoded axis {@code order[k]}); decoding gives C order back.
 */
final class TransposeCodec implements ArrayArrayCodec {

    private final int[] decodedShape;
    private final int[] order;
    private final int[] encodedShape;
    private final int itemSize;
    private final long elements;

    private TransposeCodec(int[] decodedShape, int[] order, int itemSize) {
        this.decodedShape = decodedShape.clone();
        this.order = order.clone();
        this.itemSize = itemSize;
        this.encodedShape = new int[order.length];
        long n = 1;
        for (int k = 0; k < order.length; k++) {
            encodedShape[k] = decodedShape[order[k]];
            n *= decodedShape[k];
        }
        this.elements = n;
    }

    /** From a {@code configuration} with {@code order}, for chunks of {@code shape} and {@code dtype}. */
    static TransposeCodec create(CodecConfig config, int[] shape, NumpyDtype dtype) throws CodecException {
        if (dtype.kind() == 'O') {
            throw new CodecException("codec 'transpose' of variable-length elements is not supported");
        }
        JsonNode o = config.params().get("order");
        if (o == null || !o.isArray() || o.size() != shape.length) {
            throw new CodecException("codec 'transpose': order " + o + " is not a list of " + shape.length + " axes");
        }
        int[] order = new int[shape.length];
        boolean[] seen = new boolean[shape.length];
        for (int k = 0; k < order.length; k++) {
            JsonNode a = o.get(k);
            int axis = a.isIntegralNumber() ? a.asInt(-1) : -1;
            if (axis < 0 || axis >= shape.length || seen[axis]) {
                throw new CodecException("codec 'transpose': order " + o + " is not a permutation of the axes");
            }
            seen[axis] = true;
            order[k] = axis;
        }
        return new TransposeCodec(shape, order, dtype.itemsize());
    }

    /** The shape of the chunk this codec's output (the transposed array) has. */
    int[] encodedShape() {
        return encodedShape.clone();
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        long bytes = elements * itemSize;
        if (encoded.length != bytes) {
            throw new CodecException("codec 'transpose': " + encoded.length + " bytes, " + bytes + " expected");
        }
        if (bytes > maxDecodedBytes) {
            throw CodecSupport.tooLarge("transpose", bytes, maxDecodedBytes);
        }
        int rank = order.length;
        if (rank == 0 || elements == 0) {
            return encoded;
        }
        long[] decodedStride = new long[rank];
        long s = itemSize;
        for (int d = rank - 1; d >= 0; d--) {
            decodedStride[d] = s;
            s *= decodedShape[d];
        }
        // walk the encoded array in its own C order; each step lands at the matching decoded position
        long[] step = new long[rank];
        for (int k = 0; k < rank; k++) {
            step[k] = decodedStride[order[k]];
        }
        byte[] out = new byte[encoded.length];
        int[] pos = new int[rank];
        long dst = 0;
        for (int src = 0; src < encoded.length; src += itemSize) {
            System.arraycopy(encoded, src, out, (int) dst, itemSize);
            for (int k = rank - 1; k >= 0; k--) {
                pos[k]++;
                dst += step[k];
                if (pos[k] < encodedShape[k]) {
                    break;
                }
                dst -= step[k] * pos[k];
                pos[k] = 0;
            }
        }
        return out;
    }
}
