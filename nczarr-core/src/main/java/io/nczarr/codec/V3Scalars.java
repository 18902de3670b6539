package io.nczarr.codec;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.util.Map;

/**
 * Zarr v3 data type names and scalars as the zarr-extensions codecs ({@code scale_offset},
 * {@code cast_value}) give them: numeric type names only, scalars in the v3 fill-value encoding.
 */
final class V3Scalars {
    private V3Scalars() {}

    private static final Map<String, String> NUMERIC = V3TypeNames.without("bool", "complex64", "complex128");

    /** The little-endian dtype of a numeric v3 type name; others (bfloat16, float8, int4...) are refused. */
    static NumpyDtype numericType(String codec, JsonNode name) throws CodecException {
        String text = name != null && name.isTextual() ? NUMERIC.get(name.textValue()) : null;
        if (text == null) {
            throw new CodecException("codec '" + codec + "': data_type " + name
                    + " is not supported (int8..uint64, float16, float32, float64 are)");
        }
        return CodecSupport.knownDtype(text);
    }

    /** A scalar of a float dtype: a number, "NaN", "Infinity", "-Infinity" or hex bits. */
    static double floatScalar(String codec, String what, JsonNode v, NumpyDtype dtype) throws CodecException {
        try {
            return V3Fill.floatValue(v, dtype);
        } catch (CodecException e) {
            throw new CodecException(
                    "codec '" + codec + "': " + what + " " + v + " is not a " + dtype.str() + " value");
        }
    }

    /**
     * A scalar of an integer dtype, as its value (an unsigned 64-bit value as its raw bits); it must be
     * representable in the dtype.
     */
    static long intScalar(String codec, String what, JsonNode v, NumpyDtype dtype) throws CodecException {
        if (v != null && v.isIntegralNumber()) {
            java.math.BigInteger b = v.bigIntegerValue();
            if (b.compareTo(IntRange.min(dtype)) >= 0 && b.compareTo(IntRange.max(dtype)) <= 0) {
                return b.longValue();
            }
        } else if (v != null && v.isNumber() && v.doubleValue() == Math.rint(v.doubleValue())) {
            // 10.0 for an integer type
            return intScalar(
                    codec, what, JsonNodeFactoryHolder.number(v.decimalValue().toBigInteger()), dtype);
        }
        throw new CodecException("codec '" + codec + "': " + what + " " + v + " is not a " + dtype.str() + " value");
    }

    /** Jackson's node factory, for re-reading an integral float as an integer. */
    private static final class JsonNodeFactoryHolder {
        static JsonNode number(java.math.BigInteger b) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.numberNode(b);
        }
    }

    /** Value ranges of the integer dtypes. */
    static final class IntRange {
        private IntRange() {}

        static java.math.BigInteger min(NumpyDtype d) {
            return d.kind() == 'u'
                    ? java.math.BigInteger.ZERO
                    : java.math.BigInteger.ONE.shiftLeft(8 * d.itemsize() - 1).negate();
        }

        static java.math.BigInteger max(NumpyDtype d) {
            int bits = d.kind() == 'u' ? 8 * d.itemsize() : 8 * d.itemsize() - 1;
            return java.math.BigInteger.ONE.shiftLeft(bits).subtract(java.math.BigInteger.ONE);
        }
    }
}
