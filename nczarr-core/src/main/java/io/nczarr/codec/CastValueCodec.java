package io.nczarr.codec;

import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.math.BigInteger;

/**
 * zarr-extensions {@code cast_value} (array -&gt; array): the chunk is stored as {@code data_type}
 * values; decoding converts each value back to the array's type by value (never by bits), with
 * {@code rounding}, {@code out_of_range} (error, the default; clamp; wrap) and zarr-python's
 * {@code scalar_map.decode} pairs ({@code [[0, "NaN"]]}: a stored 0 decodes to NaN) applied first.
 */
final class CastValueCodec implements ArrayArrayCodec {

    static final String ID = "cast_value";

    private final Elements stored;
    private final Elements target;
    private final CastRules rules;

    private CastValueCodec(Elements stored, Elements target, CastRules rules) {
        this.stored = stored;
        this.target = target;
        this.rules = rules;
    }

    static CastValueCodec create(CodecConfig config) throws CodecException {
        config.requireOnly("data_type", "rounding", "out_of_range", "scalar_map");
        NumpyDtype array = CodecSupport.dtype(config, config.arrayDtype());
        if (!isCastable(array)) {
            throw new CodecException(
                    "codec 'cast_value': the array's data type " + array.str() + " is not an integer or float type");
        }
        NumpyDtype stored = V3Scalars.numericType(ID, config.params().get("data_type"));
        CastRules rules = CastRules.parse(config, stored, array);
        return new CastValueCodec(new Elements(stored), new Elements(array), rules);
    }

    private static boolean isCastable(NumpyDtype d) {
        return d.kind() == 'f' || d.kind() == 'i' || d.kind() == 'u';
    }

    @Override
    public ChunkSpec encodedSpec(ChunkSpec decoded) {
        return decoded.as(stored.dtype());
    }

    @Override
    public byte[] decode(byte[] encoded, int maxDecodedBytes) throws CodecException {
        int n = stored.count(ID, encoded.length);
        long outLen = (long) n * target.itemsize();
        if (outLen > maxDecodedBytes) {
            throw CodecSupport.tooLarge(ID, outLen, maxDecodedBytes);
        }
        byte[] out = new byte[(int) outLen];
        boolean floatIn = stored.kind() == 'f';
        boolean u64In = stored.kind() == 'u' && stored.itemsize() == 8;
        for (int i = 0; i < n; i++) {
            if (floatIn) {
                double v = stored.getDouble(encoded, i);
                int m = rules.mapFloat(v);
                if (m >= 0) {
                    rules.putMapped(target, out, i, m);
                } else {
                    putFromDouble(out, i, v);
                }
            } else {
                long v = stored.getLong(encoded, i);
                int m = rules.mapInt(v);
                if (m >= 0) {
                    rules.putMapped(target, out, i, m);
                } else if (u64In && v < 0) {
                    putFromBig(out, i, new BigInteger(Long.toUnsignedString(v)));
                } else {
                    putFromLong(out, i, v);
                }
            }
        }
        return out;
    }

    private void putFromDouble(byte[] out, int i, double v) throws CodecException {
        if (target.kind() == 'f') {
            target.putDouble(out, i, rules.toFloatTarget(v, target.itemsize()));
            return;
        }
        if (Double.isNaN(v)) {
            throw new CodecException("codec 'cast_value': NaN cannot be cast to "
                    + target.dtype().str());
        }
        if (Double.isInfinite(v)) {
            target.putLong(out, i, rules.infinity(v).longValue());
            return;
        }
        double r = rules.round(v);
        if (Math.abs(r) < 0x1p62) {
            putFromLong(out, i, (long) r);
        } else {
            putFromBig(out, i, new java.math.BigDecimal(r).toBigInteger());
        }
    }

    private void putFromLong(byte[] out, int i, long v) throws CodecException {
        if (target.kind() == 'f') {
            double d = target.itemsize() == 4 && Math.abs(v) > (1L << 53) ? (float) v : (double) v;
            target.putDouble(out, i, rules.toFloatTarget(d, target.itemsize()));
            return;
        }
        if (v >= rules.minLong() && v <= rules.maxLong()) {
            target.putLong(out, i, v);
        } else {
            putInt(out, i, BigInteger.valueOf(v), v);
        }
    }

    private void putFromBig(byte[] out, int i, BigInteger v) throws CodecException {
        if (target.kind() == 'f') {
            target.putDouble(out, i, rules.toFloatTarget(v.doubleValue(), target.itemsize()));
            return;
        }
        putInt(out, i, v, v);
    }

    /** An integer value (maybe out of range) of an integer target, by the out_of_range rule. */
    private void putInt(byte[] out, int i, BigInteger v, Object shown) throws CodecException {
        target.putLong(out, i, rules.fit(v, shown).longValue());
    }
}
