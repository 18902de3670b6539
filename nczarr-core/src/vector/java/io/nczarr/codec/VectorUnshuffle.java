package io.nczarr.codec;

import java.nio.ByteOrder;
import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.IntVector;
import jdk.incubator.vector.LongVector;
import jdk.incubator.vector.ShortVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorShape;
import jdk.incubator.vector.VectorSpecies;

/**
 * The byte unshuffle of element sizes 2, 4 and 8 with the JDK's incubating Vector API: per row, one byte
 * vector of as many lanes as a full-width vector of shorts, ints or longs has, widened into it (a
 * zero-extending move), shifted into place and or-ed together, then stored as little-endian elements.
 * (Two-vector byte permutes were 3x slower than the byte loop on JDK 17.) Compiled on its own
 * (src/vector/java, with {@code --add-modules jdk.incubator.vector}) and used by {@link ByteUnshuffle}
 * only when the system property {@code nczarr.codec.vector} is {@code true} and the module is in the
 * JVM, so the core needs neither. The vector width is the platform's preferred one, or {@code
 * nczarr.codec.vector.bits} (128, 256 or 512).
 */
final class VectorUnshuffle {
    private VectorUnshuffle() {}

    private static final VectorShape SHAPE = shape(Integer.getInteger("nczarr.codec.vector.bits", 0));

    private static final VectorSpecies<Short> S16 = ShortVector.SPECIES_PREFERRED.withShape(SHAPE);
    private static final VectorSpecies<Integer> S32 = IntVector.SPECIES_PREFERRED.withShape(SHAPE);
    private static final VectorSpecies<Long> S64 = LongVector.SPECIES_PREFERRED.withShape(SHAPE);
    private static final VectorSpecies<Byte> B16 = bytes(S16.length());
    private static final VectorSpecies<Byte> B32 = bytes(S32.length());
    private static final VectorSpecies<Byte> B64 = bytes(S64.length());

    private static VectorShape shape(int bits) {
        return bits == 128 || bits == 256 || bits == 512 ? VectorShape.forBitSize(bits) : VectorShape.preferredShape();
    }

    /** Byte vectors of {@code lanes} lanes (at least 64 bits, the smallest shape). */
    private static VectorSpecies<Byte> bytes(int lanes) {
        return ByteVector.SPECIES_64.withShape(VectorShape.forBitSize(Math.max(64, lanes * 8)));
    }

    /** How many of the first {@code count} elements were written (a multiple of the vector length). */
    static int rows(int ts, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        return switch (ts) {
            case 2 -> B16.length() == S16.length() ? rows2(count, src, row, dst, dOff) : 0;
            case 4 -> B32.length() == S32.length() ? rows4(count, src, row, dst, dOff) : 0;
            case 8 -> B64.length() == S64.length() ? rows8(count, src, row, dst, dOff) : 0;
            default -> 0;
        };
    }

    /**
     * Whether {@link #rowsTo} assembles elements of {@code ts} bytes at this vector width (with 256-bit vectors
     * not those of 8 bytes: widening a part of a byte vector was 2-3x slower than the scalar byte loop).
     */
    static boolean assembles(int ts) {
        return switch (ts) {
            case 1 -> true;
            case 2 -> B16.length() == S16.length();
            case 4 -> B32.length() == S32.length();
            case 8 -> B64.length() == S64.length();
            default -> false;
        };
    }

    /**
     * The byte unshuffle into a typed array ({@link ElementSink}): elements assembled from the rows, {@code
     * lsb[0]} the row of the least significant byte, stored as numbers at {@code dst[e..)}; how many of the
     * first {@code count} were written (a multiple of the vector length).
     */
    static int rowsTo(int count, byte[] src, int[] lsb, Object dst, int e) {
        if (dst instanceof short[] a && B16.length() == S16.length()) {
            int vl = S16.length();
            int j = 0;
            for (; j + vl <= count; j += vl) {
                s(src, lsb[0] + j).and((short) 0xFF).or(s(src, lsb[1] + j).lanewise(VectorOperators.LSHL, 8))
                        .intoArray(a, e + j);
            }
            return j;
        }
        if ((dst instanceof int[] || dst instanceof float[]) && B32.length() == S32.length()) {
            int vl = S32.length();
            int j = 0;
            for (; j + vl <= count; j += vl) {
                IntVector v = i(src, lsb[0] + j)
                        .and(0xFF)
                        .or(i(src, lsb[1] + j).and(0xFF).lanewise(VectorOperators.LSHL, 8))
                        .or(i(src, lsb[2] + j).and(0xFF).lanewise(VectorOperators.LSHL, 16))
                        .or(i(src, lsb[3] + j).lanewise(VectorOperators.LSHL, 24));
                if (dst instanceof int[] a) {
                    v.intoArray(a, e + j);
                } else {
                    v.reinterpretAsFloats().intoArray((float[]) dst, e + j);
                }
            }
            return j;
        }
        if ((dst instanceof long[] || dst instanceof double[]) && B64.length() == S64.length()) {
            int vl = S64.length();
            int j = 0;
            for (; j + vl <= count; j += vl) {
                LongVector v = l(src, lsb[0] + j).and(0xFFL);
                for (int k = 1; k < 7; k++) {
                    v = v.or(l(src, lsb[k] + j).and(0xFFL).lanewise(VectorOperators.LSHL, 8 * k));
                }
                v = v.or(l(src, lsb[7] + j).lanewise(VectorOperators.LSHL, 56));
                if (dst instanceof long[] a) {
                    v.intoArray(a, e + j);
                } else {
                    v.reinterpretAsDoubles().intoArray((double[]) dst, e + j);
                }
            }
            return j;
        }
        return 0;
    }

    private static ShortVector s(byte[] src, int at) {
        return (ShortVector) ByteVector.fromArray(B16, src, at).convertShape(VectorOperators.B2S, S16, 0);
    }

    private static IntVector i(byte[] src, int at) {
        return (IntVector) ByteVector.fromArray(B32, src, at).convertShape(VectorOperators.B2I, S32, 0);
    }

    private static LongVector l(byte[] src, int at) {
        return (LongVector) ByteVector.fromArray(B64, src, at).convertShape(VectorOperators.B2L, S64, 0);
    }

    private static int rows2(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int vl = S16.length();
        int r0 = row[0];
        int r1 = row[1];
        int j = 0;
        for (int d = dOff; j + vl <= count; j += vl, d += 2 * vl) {
            ShortVector v = s(src, r0 + j).and((short) 0xFF).or(s(src, r1 + j).lanewise(VectorOperators.LSHL, 8));
            v.intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
        }
        return j;
    }

    private static int rows4(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int vl = S32.length();
        int r0 = row[0];
        int r1 = row[1];
        int r2 = row[2];
        int r3 = row[3];
        int j = 0;
        for (int d = dOff; j + vl <= count; j += vl, d += 4 * vl) {
            IntVector v = i(src, r0 + j)
                    .and(0xFF)
                    .or(i(src, r1 + j).and(0xFF).lanewise(VectorOperators.LSHL, 8))
                    .or(i(src, r2 + j).and(0xFF).lanewise(VectorOperators.LSHL, 16))
                    .or(i(src, r3 + j).lanewise(VectorOperators.LSHL, 24));
            v.intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
        }
        return j;
    }

    private static int rows8(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int vl = S64.length();
        int j = 0;
        for (int d = dOff; j + vl <= count; j += vl, d += 8 * vl) {
            LongVector v = l(src, row[0] + j).and(0xFFL);
            for (int k = 1; k < 7; k++) {
                v = v.or(l(src, row[k] + j).and(0xFFL).lanewise(VectorOperators.LSHL, 8 * k));
            }
            v = v.or(l(src, row[7] + j).lanewise(VectorOperators.LSHL, 56));
            v.intoByteArray(dst, d, ByteOrder.LITTLE_ENDIAN);
        }
        return j;
    }
}
