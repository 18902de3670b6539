package io.nczarr.codec;

import jdk.incubator.vector.ByteVector;
import jdk.incubator.vector.VectorShuffle;
import jdk.incubator.vector.VectorSpecies;

/**
 * The byte unshuffle of element sizes 2, 4 and 8 with the JDK's incubating Vector API: one vector per
 * row, interleaved by two-vector permutes (byte pairs, then 16-bit pairs, then 32-bit pairs). Compiled on
 * its own (src/vector/java, with {@code --add-modules jdk.incubator.vector}) and used by {@link
 * ByteUnshuffle} only when the system property {@code nczarr.codec.vector} is {@code true} and the module
 * is in the JVM, so the core needs neither. The vector width is the platform's preferred one, or {@code
 * nczarr.codec.vector.bits} (128, 256 or 512).
 */
final class VectorUnshuffle {
    private VectorUnshuffle() {}

    private static final VectorSpecies<Byte> S = species(Integer.getInteger("nczarr.codec.vector.bits", 0));
    private static final int VL = S.length();

    /** Lane 2i: a[i], lane 2i+1: b[i]; HI: the upper halves. */
    private static final VectorShuffle<Byte> ZIP8_LO = zip(1, 0);
    private static final VectorShuffle<Byte> ZIP8_HI = zip(1, VL / 2);
    private static final VectorShuffle<Byte> ZIP16_LO = zip(2, 0);
    private static final VectorShuffle<Byte> ZIP16_HI = zip(2, VL / 2);
    private static final VectorShuffle<Byte> ZIP32_LO = zip(4, 0);
    private static final VectorShuffle<Byte> ZIP32_HI = zip(4, VL / 2);

    private static VectorSpecies<Byte> species(int bits) {
        return switch (bits) {
            case 128 -> ByteVector.SPECIES_128;
            case 256 -> ByteVector.SPECIES_256;
            case 512 -> ByteVector.SPECIES_512;
            default -> ByteVector.SPECIES_PREFERRED;
        };
    }

    /** Units of {@code unit} bytes taken alternately from two vectors, from unit {@code start / unit} on. */
    private static VectorShuffle<Byte> zip(int unit, int start) {
        int[] idx = new int[VL];
        for (int lane = 0; lane < VL; lane++) {
            int pair = lane / (2 * unit);
            int fromSecond = (lane / unit) % 2;
            // indexes VL..2VL-1 name the second vector's lanes
            idx[lane] = start + pair * unit + lane % unit + fromSecond * VL;
        }
        return VectorShuffle.fromArray(S, idx, 0);
    }

    /** How many of the first {@code count} elements (a multiple of the vector length) were written. */
    static int rows(int ts, int count, byte[] src, int[] row, byte[] dst, int dOff) {
        return switch (ts) {
            case 2 -> rows2(count, src, row, dst, dOff);
            case 4 -> rows4(count, src, row, dst, dOff);
            case 8 -> rows8(count, src, row, dst, dOff);
            default -> 0;
        };
    }

    private static int rows2(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int j = 0;
        for (int d = dOff; j + VL <= count; j += VL, d += 2 * VL) {
            ByteVector a = ByteVector.fromArray(S, src, row[0] + j);
            ByteVector b = ByteVector.fromArray(S, src, row[1] + j);
            a.rearrange(ZIP8_LO, b).intoArray(dst, d);
            a.rearrange(ZIP8_HI, b).intoArray(dst, d + VL);
        }
        return j;
    }

    private static int rows4(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int r0 = row[0];
        int r1 = row[1];
        int r2 = row[2];
        int r3 = row[3];
        int j = 0;
        for (int d = dOff; j + VL <= count; j += VL, d += 4 * VL) {
            ByteVector a = ByteVector.fromArray(S, src, r0 + j);
            ByteVector b = ByteVector.fromArray(S, src, r1 + j);
            ByteVector c = ByteVector.fromArray(S, src, r2 + j);
            ByteVector e = ByteVector.fromArray(S, src, r3 + j);
            ByteVector abLo = a.rearrange(ZIP8_LO, b);
            ByteVector abHi = a.rearrange(ZIP8_HI, b);
            ByteVector ceLo = c.rearrange(ZIP8_LO, e);
            ByteVector ceHi = c.rearrange(ZIP8_HI, e);
            abLo.rearrange(ZIP16_LO, ceLo).intoArray(dst, d);
            abLo.rearrange(ZIP16_HI, ceLo).intoArray(dst, d + VL);
            abHi.rearrange(ZIP16_LO, ceHi).intoArray(dst, d + 2 * VL);
            abHi.rearrange(ZIP16_HI, ceHi).intoArray(dst, d + 3 * VL);
        }
        return j;
    }

    private static int rows8(int count, byte[] src, int[] row, byte[] dst, int dOff) {
        int j = 0;
        // no arrays of vectors (they would be boxed): rows 0-3 give p0-p3, rows 4-7 give q0-q3, each
        // holding elements' 4 bytes as rows4 writes them; the 32-bit zip pairs them up
        for (int d = dOff; j + VL <= count; j += VL, d += 8 * VL) {
            ByteVector a = ByteVector.fromArray(S, src, row[0] + j);
            ByteVector b = ByteVector.fromArray(S, src, row[1] + j);
            ByteVector c = ByteVector.fromArray(S, src, row[2] + j);
            ByteVector e = ByteVector.fromArray(S, src, row[3] + j);
            ByteVector abLo = a.rearrange(ZIP8_LO, b);
            ByteVector abHi = a.rearrange(ZIP8_HI, b);
            ByteVector ceLo = c.rearrange(ZIP8_LO, e);
            ByteVector ceHi = c.rearrange(ZIP8_HI, e);
            ByteVector p0 = abLo.rearrange(ZIP16_LO, ceLo);
            ByteVector p1 = abLo.rearrange(ZIP16_HI, ceLo);
            ByteVector p2 = abHi.rearrange(ZIP16_LO, ceHi);
            ByteVector p3 = abHi.rearrange(ZIP16_HI, ceHi);
            a = ByteVector.fromArray(S, src, row[4] + j);
            b = ByteVector.fromArray(S, src, row[5] + j);
            c = ByteVector.fromArray(S, src, row[6] + j);
            e = ByteVector.fromArray(S, src, row[7] + j);
            abLo = a.rearrange(ZIP8_LO, b);
            abHi = a.rearrange(ZIP8_HI, b);
            ceLo = c.rearrange(ZIP8_LO, e);
            ceHi = c.rearrange(ZIP8_HI, e);
            ByteVector q0 = abLo.rearrange(ZIP16_LO, ceLo);
            ByteVector q1 = abLo.rearrange(ZIP16_HI, ceLo);
            ByteVector q2 = abHi.rearrange(ZIP16_LO, ceHi);
            ByteVector q3 = abHi.rearrange(ZIP16_HI, ceHi);
            p0.rearrange(ZIP32_LO, q0).intoArray(dst, d);
            p0.rearrange(ZIP32_HI, q0).intoArray(dst, d + VL);
            p1.rearrange(ZIP32_LO, q1).intoArray(dst, d + 2 * VL);
            p1.rearrange(ZIP32_HI, q1).intoArray(dst, d + 3 * VL);
            p2.rearrange(ZIP32_LO, q2).intoArray(dst, d + 4 * VL);
            p2.rearrange(ZIP32_HI, q2).intoArray(dst, d + 5 * VL);
            p3.rearrange(ZIP32_LO, q3).intoArray(dst, d + 6 * VL);
            p3.rearrange(ZIP32_HI, q3).intoArray(dst, d + 7 * VL);
        }
        return j;
    }
}
