package io.nczarr.meta;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.model.NcType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Locale;

/** Converts JSON values (numbers, NaN spellings, booleans) to typed netCDF values. */
final class JsonValues {
    private JsonValues() {}

    private static final BigInteger TWO_64 = BigInteger.ONE.shiftLeft(64);

    /**
     * The special float spellings netcdf-c and zarr write, case-insensitively ({@code "NaN"},
     * {@code "-nan"}, {@code "nanf"}, {@code "Infinity"}, {@code "infinityf"}, {@code "-Infinity"},
     * {@code "inf"}); {@code null} if {@code s} is none of them.
     */
    static Double specialFloat(String s) {
        String t = s.trim().toLowerCase(Locale.ROOT);
        boolean neg = t.startsWith("-");
        if (neg || t.startsWith("+")) {
            t = t.substring(1);
        }
        if (t.endsWith("f") && !t.equals("inf")) {
            t = t.substring(0, t.length() - 1);
        }
        switch (t) {
            case "nan":
                return Double.NaN;
            case "inf":
            case "infinity":
                return neg ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
            default:
                return null;
        }
    }

    /** A JSON value as a double: numbers, special-float strings, booleans. */
    static double toDouble(JsonNode n) {
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue() ? 1 : 0;
        }
        if (n.isTextual()) {
            Double d = specialFloat(n.textValue());
            if (d != null) {
                return d;
            }
        }
        throw new IllegalArgumentException(n + " is not a number");
    }

    /**
     * A JSON value as the bit pattern of an integer of {@code type} (unsigned values wrap into the
     * signed Java type). Integral floats ({@code 3.0}) are accepted; anything out of range is not.
     */
    static long toIntegerBits(JsonNode n, NcType type) {
        BigInteger v;
        if (n.isBoolean()) {
            v = n.booleanValue() ? BigInteger.ONE : BigInteger.ZERO;
        } else if (n.isIntegralNumber()) {
            v = n.bigIntegerValue();
        } else if (n.isNumber() && Double.isFinite(n.doubleValue()) && n.doubleValue() == Math.rint(n.doubleValue())) {
            v = new BigDecimal(n.doubleValue()).toBigInteger();
        } else {
            throw new IllegalArgumentException(n + " is not a valid " + type.cdlName() + " value");
        }
        int bits = type.size() * 8;
        BigInteger min = type.isUnsigned()
                ? BigInteger.ZERO
                : BigInteger.ONE.shiftLeft(bits - 1).negate();
        BigInteger max = type.isUnsigned()
                ? BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE)
                : BigInteger.ONE.shiftLeft(bits - 1).subtract(BigInteger.ONE);
        if (v.compareTo(min) < 0 || v.compareTo(max) > 0) {
            throw new IllegalArgumentException(n + " is out of range for " + type.cdlName());
        }
        if (v.signum() < 0) {
            v = v.add(TWO_64);
        }
        return v.longValue();
    }

    /** One value of a numeric type, boxed as Byte, Short, Integer, Long, Float or Double. */
    static Object scalar(NcType type, JsonNode n) {
        switch (type) {
            case FLOAT:
                return (float) toDouble(n);
            case DOUBLE:
                return toDouble(n);
            case BYTE:
            case UBYTE:
                return (byte) toIntegerBits(n, type);
            case SHORT:
            case USHORT:
                return (short) toIntegerBits(n, type);
            case INT:
            case UINT:
                return (int) toIntegerBits(n, type);
            case INT64:
            case UINT64:
                return toIntegerBits(n, type);
            default:
                throw new IllegalArgumentException(type + " is not numeric");
        }
    }

    /** Several values of a numeric type as a primitive array. */
    static Object array(NcType type, java.util.List<JsonNode> values) {
        int n = values.size();
        switch (type) {
            case BYTE:
            case UBYTE: {
                byte[] a = new byte[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Byte) scalar(type, values.get(i));
                }
                return a;
            }
            case SHORT:
            case USHORT: {
                short[] a = new short[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Short) scalar(type, values.get(i));
                }
                return a;
            }
            case INT:
            case UINT: {
                int[] a = new int[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Integer) scalar(type, values.get(i));
                }
                return a;
            }
            case INT64:
            case UINT64: {
                long[] a = new long[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Long) scalar(type, values.get(i));
                }
                return a;
            }
            case FLOAT: {
                float[] a = new float[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Float) scalar(type, values.get(i));
                }
                return a;
            }
            case DOUBLE: {
                double[] a = new double[n];
                for (int i = 0; i < n; i++) {
                    a[i] = (Double) scalar(type, values.get(i));
                }
                return a;
            }
            default:
                throw new IllegalArgumentException(type + " is not numeric");
        }
    }
}
