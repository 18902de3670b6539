package io.nczarr.codec;

import io.nczarr.error.CodecException;

/**
 * Element-wise numpy casts: numcodecs {@code astype} (encode_dtype -&gt; decode_dtype) and
 * {@code quantize} (astype -&gt; dtype; the rounding happened at encode time). With equal dtypes
 * the decode is the identity. {@code bitround} uses the identity directly.
 */
final class AsTypeCodec implements Codec {

    private final String id;
    private final NumpyDtype from;
    private final NumpyDtype to;

    AsTypeCodec(String id, NumpyDtype from, NumpyDtype to) {
        this.id = id;
        this.from = from;
        this.to = to;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        return NumpyDtype.cast(id, encoded, from, to, maxDecodedBytes);
    }

    static final class Factory implements CodecFactory {
        private final String id;
        private final String fromParam;
        private final String toParam;

        Factory(String id, String fromParam, String toParam) {
            this.id = id;
            this.fromParam = fromParam;
            this.toParam = toParam;
        }

        @Override
        public String id() {
            return id;
        }

        @Override
        public Codec create(CodecConfig config) throws CodecException {
            NumpyDtype to = CodecSupport.dtypeParam(config, toParam);
            NumpyDtype from = config.stringParam(fromParam, null) == null ? to
                    : CodecSupport.dtypeParam(config, fromParam);
            if (!from.equals(to) && (!from.isNumeric() || !to.isNumeric())) {
                throw new CodecException("codec '" + id + "': cannot cast " + from + " to " + to);
            }
            if (id.equals("quantize") && (!to.isFloat() || !from.isFloat())) {
                throw new CodecException("codec 'quantize': float dtypes needed, got " + from + " / " + to);
            }
            return new AsTypeCodec(id, from, to);
        }
    }

    /** numcodecs {@code bitround}: lossy at encode time, the identity when decoding. */
    static final class BitRoundFactory implements CodecFactory {
        @Override
        public String id() {
            return "bitround";
        }

        @Override
        public Codec create(CodecConfig config) throws CodecException {
            int keepbits = config.intParam("keepbits", 0);
            if (keepbits < 0) {
                throw new CodecException("codec 'bitround': keepbits must not be negative");
            }
            return (encoded, max) -> {
                if (encoded.length > max) {
                    throw CodecSupport.tooLarge("bitround", encoded.length, max);
                }
                return encoded;
            };
        }
    }
}
