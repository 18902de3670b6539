package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.math.BigInteger;

/**
 * zarr-extensions {@code scale_offset} (array -&gt; array, same data type): encode {@code (in - offset) *
 * scale}, decode {@code in / scale + offset} in the arithmetic of the array's data type (float32
 * values in float32, float16 rounded after each step as numpy does). For integer types the division
 * must be exact and the result in range, else the chunk is an error (as zarr-python 3.4 decodes).
 */
final class ScaleOffsetCodec implements ArrayArrayCodec {

    private static final String ID = "scale_offset";

    private final Elements type;
    private final double scale;
    private final double offset;
    private final long intScale;
    private final long intOffset;

    private ScaleOffsetCodec(Elements type, double scale, double offset, long intScale, long intOffset) {
        this.type = type;
        this.scale = scale;
        this.offset = offset;
        this.intScale = intScale;
        this.intOffset = intOffset;
    }

    static ScaleOffsetCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("scale", "offset");
        NumpyDtype dtype = CodecSupport.dtype(config, config.arrayDtype());
        if (dtype.kind() != 'f' && dtype.kind() != 'i' && dtype.kind() != 'u') {
            throw new CodecException("codec 'scale_offset': data type " + dtype.str() + " is not numeric");
        }
        JsonNode s = config.params().get("scale");
        JsonNode o = config.params().get("offset");
        Elements type = new Elements(dtype);
        if (dtype.kind() == 'f') {
            double scale = s == null ? 1 : V3Scalars.floatScalar(ID, "scale", s, dtype);
            double offset = o == null ? 0 : V3Scalars.floatScalar(ID, "offset", o, dtype);
            if (scale == 0) {
                throw new CodecException("codec 'scale_offset': scale must not be 0");
            }
            return new ScaleOffsetCodec(type, scale, offset, 0, 0);
        }
        long scale = s == null ? 1 : V3Scalars.intScalar(ID, "scale", s, dtype);
        long offset = o == null ? 0 : V3Scalars.intScalar(ID, "offset", o, dtype);
        if (scale == 0) {
            throw new CodecException("codec 'scale_offset': scale must not be 0");
        }
        return new ScaleOffsetCodec(type, 0, 0, scale, offset);
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded;
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        int n = type.count(ID, encoded.length);
        if (encoded.length > maxDecodedBytes) {
            throw CodecSupport.tooLarge(ID, encoded.length, maxDecodedBytes);
        }
        byte[] out = new byte[encoded.length];
        if (type.kind() == 'f') {
            decodeFloats(encoded, out, n);
        } else {
            decodeInts(encoded, out, n);
        }
        return out;
    }

    private void decodeFloats(byte[] in, byte[] out, int n) {
        switch (type.itemsize()) {
            case 8:
                for (int i = 0; i < n; i++) {
                    type.putDouble(out, i, type.getDouble(in, i) / scale + offset);
                }
                break;
            case 4:
                float s = (float) scale;
                float o = (float) offset;
                for (int i = 0; i < n; i++) {
                    type.putDouble(out, i, (float) type.getDouble(in, i) / s + o);
                }
                break;
            default:
                float hs = HalfFloat.round((float) scale);
                float ho = HalfFloat.round((float) offset);
                for (int i = 0; i < n; i++) {
                    float v = (float) type.getDouble(in, i);
                    type.putDouble(out, i, HalfFloat.round(HalfFloat.round(v / hs) + ho));
                }
        }
    }

    private void decodeInts(byte[] in, byte[] out, int n) throws CodecException {
        if (type.kind() == 'u' && type.itemsize() == 8) {
            decodeU64(in, out, n);
            return;
        }
        long min = V3Scalars.IntRange.min(type.dtype()).longValue();
        long max = V3Scalars.IntRange.max(type.dtype()).longValue();
        for (int i = 0; i < n; i++) {
            long x = type.getLong(in, i);
            if (x % intScale != 0) {
                throw inexact(Long.toString(x));
            }
            long q = x / intScale;
            long v = q + intOffset;
            boolean overflow = ((q ^ v) & (intOffset ^ v)) < 0;
            if (overflow || v < min || v > max) {
                throw outOfRange(
                        overflow ? BigInteger.valueOf(q).add(BigInteger.valueOf(intOffset)) : BigInteger.valueOf(v));
            }
            type.putLong(out, i, v);
        }
    }

    private void decodeU64(byte[] in, byte[] out, int n) throws CodecException {
        BigInteger max = V3Scalars.IntRange.max(type.dtype());
        BigInteger bs = new BigInteger(Long.toUnsignedString(intScale));
        BigInteger bo = new BigInteger(Long.toUnsignedString(intOffset));
        for (int i = 0; i < n; i++) {
            BigInteger[] qr = new BigInteger(Long.toUnsignedString(type.getLong(in, i))).divideAndRemainder(bs);
            if (qr[1].signum() != 0) {
                throw inexact(Long.toUnsignedString(type.getLong(in, i)));
            }
            BigInteger v = qr[0].add(bo);
            if (v.compareTo(max) > 0) {
                throw outOfRange(v);
            }
            type.putLong(out, i, v.longValue());
        }
    }

    private CodecException outOfRange(BigInteger v) {
        return new CodecException("codec 'scale_offset': decoded value " + v + " is outside the range of "
                + type.dtype().str());
    }

    private CodecException inexact(String x) {
        return new CodecException("codec 'scale_offset': stored value " + x + " is not a multiple of the scale "
                + intScale + " (" + type.dtype().str() + " cannot hold the quotient)");
    }
}
