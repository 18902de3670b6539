package io.nczarr.codec;

/** IEEE half precision conversions as NumPy does them (Java 17 has no Float.float16ToFloat). */
final class HalfFloat {
    private HalfFloat() {}

    static float toFloat(int h) {
        int sign = (h >>> 15) & 1;
        int exp = (h >>> 10) & 0x1F;
        int mant = h & 0x3FF;
        float v;
        if (exp == 0) {
            v = mant * 0x1p-24f;
        } else if (exp == 31) {
            v = mant == 0 ? Float.POSITIVE_INFINITY : Float.intBitsToFloat(0x7FC00000 | (mant << 13));
        } else {
            v = Float.intBitsToFloat(((exp - 15 + 127) << 23) | (mant << 13));
        }
        return sign != 0 ? -v : v;
    }

    /** Rounds a double directly to half precision (round half to even), as numpy's double->half. */
    static long fromDouble(double d) {
        long bits = Double.doubleToRawLongBits(d);
        int sign = (int) ((bits >>> 48) & 0x8000);
        long abs = bits & 0x7FFFFFFFFFFFFFFFL;
        if (abs >= 0x7FF0000000000000L) {
            // inf or nan
            if (abs == 0x7FF0000000000000L) {
                return sign | 0x7C00;
            }
            int m = (int) ((abs >>> 42) & 0x3FF);
            return sign | 0x7C00 | (m == 0 ? 0x200 : m);
        }
        int exp = (int) (abs >>> 52) - 1023;
        if (exp >= 16) {
            return sign | 0x7C00;
        }
        long mant = (abs & 0xFFFFFFFFFFFFFL) | (exp == -1023 ? 0 : 0x10000000000000L);
        int e16 = exp + 15;
        int shift;
        if (e16 <= 0) {
            // subnormal half: value = mant * 2^(exp-52); half ulp = 2^-24
            shift = 52 - (exp + 24);
            if (shift > 63) {
                return sign;
            }
            e16 = 0;
        } else {
            shift = 42;
        }
        long q = mant >>> shift;
        long rem = mant & ((1L << shift) - 1);
        long halfway = 1L << (shift - 1);
        if (rem > halfway || (rem == halfway && (q & 1) != 0)) {
            q++;
        }
        if (e16 == 0) {
            return sign | (int) q; // q may carry into the smallest normal, which is correct
        }
        long h = ((long) e16 << 10) + (q - 0x400);
        // a carry out of the mantissa increments the exponent (and may make infinity)
        return sign | (int) Math.min(h, 0x7C00);
    }

    static long fromFloat(float f) {
        return fromDouble(f); // float -> double is exact, so one rounding
    }

    /** {@code f} rounded to half precision and back: numpy's float16 arithmetic result. */
    static float round(float f) {
        return toFloat((int) fromFloat(f));
    }
}
