package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * numcodecs {@code delta}: the stored values (dtype {@code astype}) are differences; decode is a
 * cumulative sum computed like numpy's {@code np.cumsum(enc, out=dec)}: values are cast to
 * {@code dtype} and summed in {@code dtype}'s own arithmetic (integers wrap, float32 sums round
 * to float32 at each step, bool sums are logical or).
 */
final class DeltaCodec implements Codec {

    private final NumpyDtype dtype;
    private final NumpyDtype astype;

    DeltaCodec(NumpyDtype dtype, NumpyDtype astype) {
        this.dtype = dtype;
        this.astype = astype;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        byte[] out = NumpyDtype.cast("delta", encoded, astype, dtype, maxDecodedBytes);
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
                        acc = i == 0 ? v : NumpyDtype.halfToFloat((int) NumpyDtype.floatToHalf(acc + v));
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

    static final class Factory implements CodecFactory {
        @Override
        public String id() {
            return "delta";
        }

        @Override
        public Codec create(CodecConfig config) throws CodecException {
            CodecSupport.DtypePair types = CodecSupport.numericDtypes(config);
            NumpyDtype dtype = types.dtype();
            NumpyDtype astype = types.astype();
            return new DeltaCodec(dtype, astype);
        }
    }
}
