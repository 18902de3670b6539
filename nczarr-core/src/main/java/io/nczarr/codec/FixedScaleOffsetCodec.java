package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * numcodecs {@code fixedscaleoffset}: decode is {@code (enc / scale + offset).astype(dtype)} with
 * {@code enc} viewed as {@code astype}. Computed as numpy 1.x does: integer {@code astype} values
 * are divided in float64; float {@code astype} arrays keep their own precision (float32 or
 * float16 arithmetic, the Python scalars being cast to that type).
 */
final class FixedScaleOffsetCodec implements ArrayArrayCodec {

    private final Elements dtype;
    private final Elements astype;
    private final double scale;
    private final double offset;

    FixedScaleOffsetCodec(Elements dtype, Elements astype, double scale, double offset) {
        this.dtype = dtype;
        this.astype = astype;
        this.scale = scale;
        this.offset = offset;
    }

    static FixedScaleOffsetCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("scale", "offset", "dtype", "astype");
        CodecSupport.DtypePair types = CodecSupport.numericDtypes(config);
        double scale = config.doubleParam("scale", Double.NaN);
        double offset = config.doubleParam("offset", Double.NaN);
        if (Double.isNaN(scale) || Double.isNaN(offset)) {
            throw new CodecException("codec 'fixedscaleoffset': 'scale' and 'offset' are required");
        }
        return new FixedScaleOffsetCodec(new Elements(types.dtype()), new Elements(types.astype()), scale, offset);
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(astype.dtype());
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        int n = astype.count("fixedscaleoffset", encoded.length);
        long outLen = (long) n * dtype.itemsize();
        if (outLen > maxDecodedBytes) {
            throw CodecSupport.tooLarge("fixedscaleoffset", outLen, maxDecodedBytes);
        }
        byte[] out = new byte[(int) outLen];
        if (astype.kind() == 'f' && astype.itemsize() == 4) {
            float s = (float) scale;
            float o = (float) offset;
            for (int i = 0; i < n; i++) {
                float v = (float) astype.getDouble(encoded, i);
                dtype.putDouble(out, i, v / s + o);
            }
        } else if (astype.kind() == 'f' && astype.itemsize() == 2) {
            float s = HalfFloat.round((float) scale);
            float o = HalfFloat.round((float) offset);
            for (int i = 0; i < n; i++) {
                float v = (float) astype.getDouble(encoded, i);
                dtype.putDouble(out, i, HalfFloat.round(HalfFloat.round(v / s) + o));
            }
        } else {
            for (int i = 0; i < n; i++) {
                dtype.putDouble(out, i, astype.getDouble(encoded, i) / scale + offset);
            }
        }
        return out;
    }
}
