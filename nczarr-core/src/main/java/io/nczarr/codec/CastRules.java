package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The decode-side rules of one {@code cast_value} codec: rounding mode, out-of-range handling and
 * the {@code scalar_map.decode} pairs (stored value -&gt; array value), for casts to {@code target}.
 */
final class CastRules {

    enum Rounding {
        NEAREST_EVEN,
        TOWARDS_ZERO,
        TOWARDS_POSITIVE,
        TOWARDS_NEGATIVE,
        NEAREST_AWAY
    }

    enum OutOfRange {
        ERROR,
        CLAMP,
        WRAP
    }

    private final NumpyDtype target;
    private final Rounding rounding;
    private final OutOfRange outOfRange;
    private final BigInteger min;
    private final BigInteger max;
    private final long minLong;
    private final long maxLong;
    /** scalar_map.decode keys as stored values: doubles for a float stored type, else longs (raw bits for u8). */
    private final double[] floatKeys;

    private final long[] intKeys;
    /** The mapped values, one target element each. */
    private final byte[][] mapped;

    private CastRules(
            NumpyDtype target,
            Rounding rounding,
            OutOfRange outOfRange,
            double[] floatKeys,
            long[] intKeys,
            byte[][] mapped) {
        this.target = target;
        this.rounding = rounding;
        this.outOfRange = outOfRange;
        boolean integer = target.kind() != 'f';
        this.min = integer ? V3Scalars.IntRange.min(target) : BigInteger.ZERO;
        this.max = integer ? V3Scalars.IntRange.max(target) : BigInteger.ZERO;
        this.minLong = integer ? min.longValue() : 0;
        this.maxLong = integer ? (max.bitLength() > 63 ? Long.MAX_VALUE : max.longValue()) : 0;
        this.floatKeys = floatKeys;
        this.intKeys = intKeys;
        this.mapped = mapped;
    }

    static CastRules parse(CodecConfig config, NumpyDtype stored, NumpyDtype target) throws CodecException {
        Rounding rounding = switch (config.stringParam("rounding", "nearest-even")) {
            case "nearest-even" -> Rounding.NEAREST_EVEN;
            case "towards-zero" -> Rounding.TOWARDS_ZERO;
            case "towards-positive" -> Rounding.TOWARDS_POSITIVE;
            case "towards-negative" -> Rounding.TOWARDS_NEGATIVE;
            case "nearest-away" -> Rounding.NEAREST_AWAY;
            default ->
                throw new CodecException(
                        "codec 'cast_value': unknown rounding '" + config.stringParam("rounding", "") + "'");
        };
        OutOfRange oor = switch (config.stringParam("out_of_range", "error")) {
            case "error" -> OutOfRange.ERROR;
            case "clamp" -> OutOfRange.CLAMP;
            case "wrap" -> OutOfRange.WRAP;
            default ->
                throw new CodecException(
                        "codec 'cast_value': unknown out_of_range '" + config.stringParam("out_of_range", "") + "'");
        };
        if (oor == OutOfRange.WRAP && target.kind() == 'f') {
            throw new CodecException(
                    "codec 'cast_value': out_of_range 'wrap' needs an integer type, not " + target.str());
        }
        List<JsonNode[]> pairs = decodePairs(config.params().get("scalar_map"));
        double[] fk = new double[pairs.size()];
        long[] ik = new long[pairs.size()];
        byte[][] values = new byte[pairs.size()][];
        for (int k = 0; k < pairs.size(); k++) {
            JsonNode key = pairs.get(k)[0];
            JsonNode value = pairs.get(k)[1];
            if (stored.kind() == 'f') {
                fk[k] = V3Scalars.floatScalar(CastValueCodec.ID, "scalar_map key", key, stored);
            } else {
                ik[k] = V3Scalars.intScalar(CastValueCodec.ID, "scalar_map key", key, stored);
            }
            if (target.kind() != 'f') {
                V3Scalars.intScalar(CastValueCodec.ID, "scalar_map value", value, target);
            } else {
                V3Scalars.floatScalar(CastValueCodec.ID, "scalar_map value", value, target);
            }
            values[k] = V3Fill.elementBytes(value, target);
        }
        return new CastRules(target, rounding, oor, stored.kind() == 'f' ? fk : null, ik, values);
    }

    /** {@code scalar_map}'s decode entries: {@code {"decode": [[stored, value], ...], "encode": ...}}. */
    private static List<JsonNode[]> decodePairs(JsonNode map) throws CodecException {
        List<JsonNode[]> out = new ArrayList<>();
        if (map == null || map.isNull()) {
            return out;
        }
        if (!map.isObject()) {
            throw new CodecException("codec 'cast_value': scalar_map is not an object");
        }
        for (java.util.Iterator<String> it = map.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!k.equals("encode") && !k.equals("decode")) {
                throw new CodecException("codec 'cast_value': scalar_map has an unknown key '" + k + "'");
            }
        }
        JsonNode d = map.get("decode");
        if (d == null || d.isNull()) {
            return out;
        }
        if (!d.isArray()) {
            throw new CodecException("codec 'cast_value': scalar_map.decode is not a list of pairs");
        }
        for (JsonNode p : d) {
            if (!p.isArray() || p.size() != 2) {
                throw new CodecException("codec 'cast_value': scalar_map.decode entry " + p + " is not a pair");
            }
            out.add(new JsonNode[] {p.get(0), p.get(1)});
        }
        return out;
    }

    /** Index of the scalar_map entry matching a stored float (NaN matches NaN), or -1. */
    int mapFloat(double v) {
        if (floatKeys == null) {
            return -1;
        }
        for (int k = 0; k < floatKeys.length; k++) {
            if (floatKeys[k] == v || (Double.isNaN(v) && Double.isNaN(floatKeys[k]))) {
                return k;
            }
        }
        return -1;
    }

    /** Index of the scalar_map entry matching a stored integer, or -1. */
    int mapInt(long v) {
        if (floatKeys != null) {
            return -1;
        }
        for (int k = 0; k < intKeys.length; k++) {
            if (intKeys[k] == v) {
                return k;
            }
        }
        return -1;
    }

    void putMapped(Elements to, byte[] out, int i, int k) {
        System.arraycopy(mapped[k], 0, out, i * to.itemsize(), to.itemsize());
    }

    long minLong() {
        return minLong;
    }

    long maxLong() {
        return maxLong;
    }

    /** A finite value rounded to an integer by the rounding mode. */
    double round(double v) {
        return switch (rounding) {
            case NEAREST_EVEN -> Math.rint(v);
            case TOWARDS_ZERO -> v < 0 ? Math.ceil(v) : Math.floor(v);
            case TOWARDS_POSITIVE -> Math.ceil(v);
            case TOWARDS_NEGATIVE -> Math.floor(v);
            case NEAREST_AWAY -> v < 0 ? -Math.floor(-v + 0.5) : Math.floor(v + 0.5);
        };
    }

    /** An integer value for the integer target by the out_of_range rule ({@code shown} names it in errors). */
    BigInteger fit(BigInteger v, Object shown) throws CodecException {
        if (v.compareTo(min) >= 0 && v.compareTo(max) <= 0) {
            return v;
        }
        switch (outOfRange) {
            case CLAMP:
                return v.compareTo(min) < 0 ? min : max;
            case WRAP:
                BigInteger modulus = BigInteger.ONE.shiftLeft(8 * target.itemsize());
                BigInteger r = v.mod(modulus);
                return r.compareTo(max) > 0 ? r.subtract(modulus) : r;
            default:
                throw new CodecException("codec 'cast_value': value " + shown + " is outside the range of "
                        + target.str() + " (out_of_range: error)");
        }
    }

    /** An infinite value for the integer target: clamped, else an error (it cannot wrap). */
    BigInteger infinity(double v) throws CodecException {
        if (outOfRange == OutOfRange.CLAMP) {
            return v > 0 ? max : min;
        }
        throw new CodecException("codec 'cast_value': " + v + " cannot be cast to " + target.str());
    }

    /** A value for a float target of {@code size} bytes: rounded by the mode, range by the rule. */
    double toFloatTarget(double d, int size) throws CodecException {
        if (size == 8 || Double.isNaN(d) || Double.isInfinite(d)) {
            return d;
        }
        double limit = size == 4 ? Float.MAX_VALUE : 65504.0;
        if (Math.abs(d) > limit) {
            if (outOfRange == OutOfRange.CLAMP) {
                return Math.copySign(limit, d);
            }
            throw new CodecException("codec 'cast_value': value " + d + " is outside the range of " + target.str());
        }
        if (size != 4 || rounding == Rounding.NEAREST_EVEN) {
            return d; // the store rounds to nearest even
        }
        float f = (float) d;
        if (Double.compare(f, d) == 0) {
            return f;
        }
        float lo = f < d ? f : Math.nextDown(f);
        float hi = f < d ? Math.nextUp(f) : f;
        return switch (rounding) {
            case TOWARDS_ZERO -> d < 0 ? hi : lo;
            case TOWARDS_POSITIVE -> hi;
            case TOWARDS_NEGATIVE -> lo;
            case NEAREST_AWAY -> Double.compare(d - lo, hi - d) == 0 ? (d < 0 ? lo : hi) : f;
            default -> f;
        };
    }
}
