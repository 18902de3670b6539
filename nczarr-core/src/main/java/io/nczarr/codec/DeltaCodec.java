package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * numcodecs {@code delta}: the stored values (dtype {@code astype}) are differences; decode is a
 * cumulative sum computed like numpy's {@code np.cumsum(enc, out=dec)}: values are cast to
 * {@code dtype} and summed in {@code dtype}'s own arithmetic (integers wrap, float32 sums round
 * to float32 at each step, bool sums are logical or).
 */
final class DeltaCodec implements ArrayArrayCodec {

    private final Elements dtype;
    private final Elements astype;

    DeltaCodec(Elements dtype, Elements astype) {
        this.dtype = dtype;
        this.astype = astype;
    }

    static DeltaCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("dtype", "astype");
        CodecSupport.DtypePair types = CodecSupport.numericDtypes(config);
        return new DeltaCodec(new Elements(types.dtype()), new Elements(types.astype()));
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(astype.dtype());
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        byte[] out = Elements.cast("delta", encoded, astype, dtype, maxDecodedBytes);
        int n = out.length / dtype.itemsize();
        switch (dtype.kind()) {
            case 'f':
                if (dtype.itemsize() == 8) {
                    double acc = 0;
                    for (int i = 0; i < n; i++) {
                        acc = i == 0 ? dtype.getDouble(out, 0) : acc + dtype.getDouble(out, i);
                        dtype.putDouble(out, i, acc);
                    }
                } else if (dtype.itemsize() == 4) {
                    float acc = 0;
                    for (int i = 0; i < n; i++) {
                        float v = (float) dtype.getDouble(out, i);
                        acc = i == 0 ? v : acc + v;
                        dtype.putDouble(out, i, acc);
                    }
                } else {
                    float acc = 0;
                    for (int i = 0; i < n; i++) {
                        float v = (float) dtype.getDouble(out, i);
                        // numpy adds halves in float and rounds the sum back to half
                        acc = i == 0 ? v : HalfFloat.round(acc + v);
                        dtype.putDouble(out, i, acc);
                    }
                }
                break;
            case 'b': {
                boolean acc = false;
                for (int i = 0; i < n; i++) {
                    acc |= out[i] != 0;
                    out[i] = (byte) (acc ? 1 : 0);
                }
                break;
            }
            default: {
                long acc = 0;
                for (int i = 0; i < n; i++) {
                    acc += dtype.getLong(out, i);
                    dtype.putLong(out, i, acc);
                }
            }
        }
        return out;
    }
}
