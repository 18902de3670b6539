package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The word-wise bit unshuffle gives what bitshuffle's definition says, bit by bit, for every typesize and
 * block length (whole and partial groups of 8 elements, both frame-version rules); seeded.
 */
class BloscUnshuffleTest {

    @Test
    void bitUnshuffleFollowsTheDefinition() {
        Random r = new Random(16);
        for (int i = 0; i < 400; i++) {
            int ts = 1 + r.nextInt(i % 4 == 0 ? 24 : 8);
            int size = ts * r.nextInt(600) + (i % 5 == 0 ? r.nextInt(ts) : 0);
            int version = 2 + r.nextInt(2);
            byte[] src = new byte[size];
            r.nextBytes(src);
            byte[] expected = new byte[size + 3];
            byte[] got = new byte[size + 3];
            bitDefinition(version, ts, size, src, expected, 3);
            BitUnshuffle.bitunshuffle(version, ts, size, src, got, 3);
            assertArrayEquals(expected, got, "ts " + ts + " size " + size + " version " + version);
        }
    }

    @Test
    void bitUnshuffleByByteRowsIsTheSameOnBothPaths() {
        Random r = new Random(26);
        for (int i = 0; i < 300; i++) {
            int ts = 1 + r.nextInt(i % 3 == 0 ? 17 : 8);
            int elems = 8 * r.nextInt(i % 4 == 0 ? 400 : 40);
            byte[] src = new byte[elems * ts];
            r.nextBytes(src);
            byte[] expected = new byte[src.length];
            BitUnshuffle.bitunshuffle(3, ts, src.length, src, expected, 0);
            for (boolean vector : new boolean[] {false, true}) {
                byte[] rows = new byte[src.length];
                BitUnshuffle.toByteRows(ts, elems, src, rows, 0);
                byte[] got = new byte[src.length];
                ByteUnshuffle.unshuffle(ts, src.length, rows, 0, got, 0, vector);
                assertArrayEquals(expected, got, "ts " + ts + " elems " + elems + " vector " + vector);
            }
        }
    }

    /** Row 8 * byte + bit holds, at bit e % 8 of its byte e / 8, that bit of element e. */
    private static void bitDefinition(int version, int ts, int size, byte[] src, byte[] dst, int dOff) {
        int elems = size / ts;
        if (version <= 2 && elems % 8 != 0) {
            System.arraycopy(src, 0, dst, dOff, size);
            return;
        }
        elems -= elems % 8;
        int rowBytes = elems / 8;
        for (int e = 0; e < elems; e++) {
            for (int b = 0; b < ts; b++) {
                int v = 0;
                for (int bit = 0; bit < 8; bit++) {
                    int row = (b * 8 + bit) * rowBytes;
                    v |= ((src[row + e / 8] >>> (e % 8)) & 1) << bit;
                }
                dst[dOff + e * ts + b] = (byte) v;
            }
        }
        System.arraycopy(src, elems * ts, dst, dOff + elems * ts, size - elems * ts);
    }
}
