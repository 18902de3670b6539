package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Factory;
import org.junit.jupiter.api.Test;

/**
 * The byte unshuffle (issue 26): the word-wise scalar kernels and the Vector API ones give what the
 * definition says for every element size 1-17, with and without trailing bytes, rows adjacent or not; and
 * Blosc frames decode to the same bytes on both paths: numcodecs' frames of test-data/blosc-frames, and
 * frames built here whose blocks are stored raw (unshuffled straight from the frame), lz4-compressed, or
 * a mix, split and unsplit, with a short last block. Seeded. The core's tests run with the Vector API
 * module added (nczarr-core/pom.xml), so both paths run.
 */
class ByteUnshuffleTest {

    private static final LZ4Compressor LZ4 = LZ4Factory.fastestInstance().fastCompressor();

    @Test
    void theVectorModuleIsThereInTheseTests() {
        assertTrue(
                ModuleLayer.boot().findModule("jdk.incubator.vector").isPresent(),
                "surefire's argLine adds jdk.incubator.vector, so the Vector API path is tested");
    }

    @Test
    void unshuffleFollowsTheDefinitionOnBothPaths() {
        Random r = new Random(26);
        for (int i = 0; i < 600; i++) {
            int ts = 1 + r.nextInt(i % 3 == 0 ? 17 : 8);
            int size = ts * r.nextInt(i % 7 == 0 ? 5000 : 700) + (i % 5 == 0 ? r.nextInt(ts) : 0);
            byte[] src = new byte[size + 5];
            r.nextBytes(src);
            byte[] expected = new byte[size + 3];
            definition(ts, size, src, 5, expected, 3);
            for (boolean vector : new boolean[] {false, true}) {
                byte[] got = new byte[size + 3];
                ByteUnshuffle.unshuffle(ts, size, src, 5, got, 3, vector);
                assertArrayEquals(expected, got, "ts " + ts + " size " + size + " vector " + vector);
            }
        }
    }

    @Test
    void rowsNeedNotBeAdjacent() {
        Random r = new Random(27);
        for (int ts : new int[] {1, 2, 3, 4, 8, 16}) {
            for (int count : new int[] {0, 7, 8, 9, 63, 64, 65, 1000, 4099}) {
                byte[] src = new byte[ts * (count + 11) + 40];
                r.nextBytes(src);
                int[] rows = new int[ts];
                for (int k = 0; k < ts; k++) {
                    // rows in reverse order with gaps, as stored streams sit in a frame
                    rows[k] = 3 + (ts - 1 - k) * (count + 11);
                }
                byte[] expected = new byte[ts * count + 2];
                for (int j = 0; j < count; j++) {
                    for (int k = 0; k < ts; k++) {
                        expected[2 + j * ts + k] = src[rows[k] + j];
                    }
                }
                for (boolean vector : new boolean[] {false, true}) {
                    byte[] got = new byte[ts * count + 2];
                    ByteUnshuffle.rows(ts, count, src, rows, got, 2, vector);
                    assertArrayEquals(expected, got, "ts " + ts + " count " + count + " vector " + vector);
                }
            }
        }
    }

    @Test
    void numcodecsFramesDecodeAlikeOnBothPaths() throws Exception {
        BloscCodec scalar = new BloscCodec(false);
        BloscCodec vector = new BloscCodec(true);
        for (NativeBloscCodecTest.Frame f : NativeBloscCodecTest.frames()) {
            byte[] a = scalar.decode(f.encoded(), f.decodedBytes());
            assertEquals(f.sha256(), TestSupport.sha256(a), f.name());
            assertArrayEquals(a, vector.decode(f.encoded(), f.decodedBytes()), f.name());
        }
    }

    @Test
    void builtFramesDecodeToTheirElementsInPlace() throws Exception {
        Random r = new Random(28);
        int cases = 0;
        for (int ts : new int[] {1, 2, 3, 4, 5, 8, 16, 17}) {
            for (String mode : new String[] {"stored", "lz4", "mixed"}) {
                for (boolean split : new boolean[] {true, false}) {
                    int blocksize = ts * 256;
                    int nbytes = blocksize * 3 + (ts == 1 ? 100 : ts * 37 + ts / 2);
                    byte[] data = new byte[nbytes];
                    for (int k = 0; k < nbytes; k++) {
                        // compressible enough that lz4 streams come out smaller than stored
                        data[k] = (byte) (r.nextInt(4) == 0 ? r.nextInt() : k / 97);
                    }
                    byte[] frame = frame(data, ts, blocksize, split, mode, r);
                    // the frame sits at the start of a longer reused buffer, as the chunk reader gives it
                    byte[] buffer = Arrays.copyOf(frame, frame.length + 9);
                    Arrays.fill(buffer, frame.length, buffer.length, (byte) 0x5A);
                    for (boolean vector : new boolean[] {false, true}) {
                        String what = mode + " ts " + ts + " split " + split + " vector " + vector;
                        byte[] out = new byte[nbytes + 4];
                        byte[] got = new BloscCodec(vector).decodeInto(buffer, frame.length, out, nbytes);
                        assertSame(out, got, what);
                        assertArrayEquals(data, Arrays.copyOf(got, nbytes), what);
                        assertArrayEquals(data, new BloscCodec(vector).decode(frame, nbytes), what);
                    }
                    cases++;
                }
            }
        }
        assertEquals(48, cases);
    }

    /**
     * A Blosc 1 frame (version 2, lz4 code, byte shuffle) of {@code data}: the split rule is c-blosc
     * 1.21's, as the decoder follows it; each stream is stored raw, lz4-compressed, or either ("mixed").
     */
    static byte[] frame(byte[] data, int ts, int blocksize, boolean split, String mode, Random r) {
        int nbytes = data.length;
        int nblocks = (nbytes + blocksize - 1) / blocksize;
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        int[] starts = new int[nblocks];
        int headerEnd = BloscCodec.HEADER + 4 * nblocks;
        for (int j = 0; j < nblocks; j++) {
            starts[j] = headerEnd + body.size();
            int off = j * blocksize;
            int bsize = Math.min(blocksize, nbytes - off);
            byte[] shuffled = shuffle(ts, Arrays.copyOfRange(data, off, off + bsize));
            int nsplits = split && ts <= 16 && bsize / ts >= 128 && bsize == blocksize ? ts : 1;
            int neblock = bsize / nsplits;
            for (int s = 0; s < nsplits; s++) {
                byte[] stream = Arrays.copyOfRange(shuffled, s * neblock, (s + 1) * neblock);
                boolean compress = mode.equals("lz4") || (mode.equals("mixed") && r.nextBoolean());
                byte[] c = compress ? LZ4.compress(stream) : stream;
                if (c.length >= neblock) {
                    c = stream; // c-blosc stores what does not shrink
                }
                body.writeBytes(le32(c.length));
                body.writeBytes(c);
            }
        }
        int cbytes = headerEnd + body.size();
        ByteBuffer b = ByteBuffer.allocate(cbytes).order(ByteOrder.LITTLE_ENDIAN);
        int flags = BloscCodec.BYTE_SHUFFLE
                | (BloscCodec.LZ4 << BloscCodec.COMPRESSOR_SHIFT)
                | (split ? 0 : BloscCodec.DONT_SPLIT);
        b.put((byte) 2).put((byte) 1).put((byte) flags).put((byte) ts);
        b.putInt(nbytes).putInt(blocksize).putInt(cbytes);
        for (int s : starts) {
            b.putInt(s);
        }
        b.put(body.toByteArray());
        return b.array();
    }

    private static byte[] le32(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN).putInt(v).array();
    }

    /** The forward byte shuffle of one block: row i holds byte i of each element; trailing bytes stay. */
    private static byte[] shuffle(int ts, byte[] block) {
        int count = block.length / ts;
        byte[] out = block.clone();
        for (int j = 0; j < count; j++) {
            for (int i = 0; i < ts; i++) {
                out[i * count + j] = block[j * ts + i];
            }
        }
        return out;
    }

    private static void definition(int ts, int size, byte[] src, int sOff, byte[] dst, int dOff) {
        int count = size / ts;
        for (int j = 0; j < count; j++) {
            for (int i = 0; i < ts; i++) {
                dst[dOff + j * ts + i] = src[sOff + i * count + j];
            }
        }
        System.arraycopy(src, sOff + count * ts, dst, dOff + count * ts, size - count * ts);
    }
}
