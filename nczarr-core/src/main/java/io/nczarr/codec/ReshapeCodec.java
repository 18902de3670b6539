package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.error.CodecException;
import java.util.Arrays;

/**
 * zarr-extensions {@code reshape} (array -&gt; array): the same elements in the same C order under
 * another shape, so decoding passes the bytes through; the output shape matters to the codecs after
 * it (a {@code transpose}, the {@code packbits} element count). Each {@code shape} entry is a size,
 * a list of input dimensions whose sizes multiply, or one {@code -1}.
 */
final class ReshapeCodec implements ArrayArrayCodec {

    private final int[] encodedShape;

    private ReshapeCodec(int[] encodedShape) {
        this.encodedShape = encodedShape;
    }

    static ReshapeCodec create(CodecConfig config, int[] in) throws CodecException {
        config.requireOnly("shape");
        JsonNode spec = config.params().get("shape");
        if (spec == null || !spec.isArray() || spec.isEmpty()) {
            throw new CodecException("codec 'reshape': 'shape' is not a non-empty list");
        }
        long total = V3Codecs.elements(in);
        long[] out = new long[spec.size()];
        int[][] inputDims = new int[spec.size()][];
        int auto = -1;
        int lastDim = -1;
        for (int i = 0; i < out.length; i++) {
            JsonNode e = spec.get(i);
            if (e.isArray()) {
                inputDims[i] = new int[e.size()];
                long p = 1;
                for (int k = 0; k < e.size(); k++) {
                    JsonNode d = e.get(k);
                    int dim = d.isIntegralNumber() && d.canConvertToInt() ? d.intValue() : -1;
                    if (dim <= lastDim || dim >= in.length) {
                        throw bad(spec, "input dimensions must be increasing and below " + in.length);
                    }
                    lastDim = dim;
                    inputDims[i][k] = dim;
                    p *= in[dim];
                }
                out[i] = p;
            } else if (e.isIntegralNumber() && e.asLong() == -1) {
                if (auto >= 0) {
                    throw bad(spec, "-1 more than once");
                }
                auto = i;
            } else if (e.isIntegralNumber() && e.asLong() > 0 && e.canConvertToInt()) {
                out[i] = e.asLong();
            } else {
                throw bad(spec, "entry " + e + " is not a size, a list of dimensions or -1");
            }
        }
        if (auto >= 0) {
            long known = 1;
            for (int i = 0; i < out.length; i++) {
                known *= i == auto ? 1 : out[i];
            }
            if (known == 0 || total % known != 0) {
                throw bad(spec, "no size for -1 keeps " + total + " elements");
            }
            out[auto] = total / known;
        }
        long product = 1;
        int[] shape = new int[out.length];
        for (int i = 0; i < out.length; i++) {
            product *= out[i];
            if (out[i] > Integer.MAX_VALUE) {
                throw bad(spec, "dimension " + i + " is too large");
            }
            shape[i] = (int) out[i];
        }
        if (product != total) {
            throw bad(spec, "gives " + product + " elements, the chunk has " + total);
        }
        checkInputDims(spec, in, shape, inputDims);
        return new ReshapeCodec(shape);
    }

    /** A dimension given as input dimensions must be the raveled index of those dimensions. */
    private static void checkInputDims(JsonNode spec, int[] in, int[] out, int[][] inputDims) throws CodecException {
        for (int i = 0; i < out.length; i++) {
            int[] dims = inputDims[i];
            if (dims == null || dims.length == 0) {
                continue;
            }
            long before = product(out, 0, i);
            long after = product(out, i + 1, out.length);
            if (before != product(in, 0, dims[0]) || after != product(in, dims[dims.length - 1] + 1, in.length)) {
                throw bad(
                        spec,
                        "dimension " + i + " is not the raveled index of input dimensions " + Arrays.toString(dims));
            }
        }
    }

    private static long product(int[] a, int from, int to) {
        long p = 1;
        for (int i = from; i < to; i++) {
            p *= a[i];
        }
        return p;
    }

    private static CodecException bad(JsonNode spec, String why) {
        return new CodecException("codec 'reshape': shape " + spec + ": " + why);
    }

    /** The shape the next codec sees. */
    int[] encodedShape() {
        return encodedShape.clone();
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge("reshape", encoded.length, maxDecodedBytes);
        }
        return encoded;
    }
}
