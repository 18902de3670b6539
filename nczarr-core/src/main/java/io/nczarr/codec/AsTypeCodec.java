package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;

/**
 * Element-wise numpy casts: numcodecs {@code astype} (encode_dtype -&gt; decode_dtype) and
 * {@code quantize} (astype -&gt; dtype; the rounding happened at encode time). With equal dtypes
 * the decode is the identity.
 */
final class AsTypeCodec implements ArrayArrayCodec {

    private final String id;
    private final Elements from;
    private final Elements to;

    AsTypeCodec(String id, Elements from, Elements to) {
        this.id = id;
        this.from = from;
        this.to = to;
    }

    static AsTypeCodec astype(CodecConfig config) throws CodecException {
        config.requireOnly("encode_dtype", "decode_dtype");
        return create("astype", config, "encode_dtype", "decode_dtype");
    }

    static AsTypeCodec quantize(CodecConfig config) throws CodecException {
        config.requireOnly("digits", "dtype", "astype");
        return create("quantize", config, "astype", "dtype");
    }

    private static AsTypeCodec create(String id, CodecConfig config, String fromParam, String toParam)
            throws CodecException {
        NumpyDtype to = CodecSupport.dtypeParam(config, toParam);
        NumpyDtype from = config.stringParam(fromParam, null) == null ? to : CodecSupport.dtypeParam(config, fromParam);
        if (!from.equals(to) && (!from.isNumeric() || !to.isNumeric())) {
            throw new CodecException("codec '" + id + "': cannot cast " + from.str() + " to " + to.str());
        }
        if (id.equals("quantize") && (!to.isFloat() || !from.isFloat())) {
            throw new CodecException("codec 'quantize': float dtypes needed, got " + from.str() + " / " + to.str());
        }
        return new AsTypeCodec(id, new Elements(from), new Elements(to));
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(from.dtype());
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        return Elements.cast(id, encoded, from, to, maxDecodedBytes);
    }
}
