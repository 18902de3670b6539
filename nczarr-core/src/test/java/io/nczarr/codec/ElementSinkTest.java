package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.error.CodecException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Blosc frames decoded straight into a run of a typed result array ({@link ElementSink}) hold what the usual
 * decode gives, read through a buffer of the dtype's byte order: every element type, both byte orders, the
 * scalar and the Vector API unshuffle, built frames (stored, lz4, mixed streams; split and not; typesize equal
 * to the element size or not) and numcodecs' frames (byte, bit and no shuffle; lz4, zstd, blosclz, zlib,
 * memcpyed). Elements outside the run are never touched; a frame of another size is not taken (nothing
 * written) and a corrupt one fails as the usual decode does.
 */
class ElementSinkTest {

    private static final List<Class<?>> ARRAYS =
            List.of(byte[].class, short[].class, int[].class, float[].class, long[].class, double[].class);
    private static final ByteOrder[] ORDERS = {ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN};
    private static final int AT = 3;

    static int itemSize(Class<?> c) {
        return c == byte[].class ? 1 : c == short[].class ? 2 : c == int[].class || c == float[].class ? 4 : 8;
    }

    /** An array of {@code n} elements of {@code type}, every element the same non-zero bit pattern. */
    static Object filled(Class<?> type, int n) {
        Object a = Array.newInstance(type.getComponentType(), n);
        byte[] bytes = new byte[n * itemSize(type)];
        Arrays.fill(bytes, (byte) 0x5A);
        read(bytes, ByteOrder.LITTLE_ENDIAN, a, 0);
        return a;
    }

    /** {@code bytes} as elements of {@code dst}'s type in byte order {@code o}, into {@code dst[at..)}. */
    static void read(byte[] bytes, ByteOrder o, Object dst, int at) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(o);
        int n = bytes.length / itemSize(dst.getClass());
        if (dst instanceof byte[] a) {
            b.get(a, at, n);
        } else if (dst instanceof short[] a) {
            b.asShortBuffer().get(a, at, n);
        } else if (dst instanceof int[] a) {
            b.asIntBuffer().get(a, at, n);
        } else if (dst instanceof float[] a) {
            b.asFloatBuffer().get(a, at, n);
        } else if (dst instanceof long[] a) {
            b.asLongBuffer().get(a, at, n);
        } else {
            b.asDoubleBuffer().get((double[]) dst, at, n);
        }
    }

    /** Decodes {@code frame} into a sink at {@link #AT} of an array with room around it; checks it against {@code decoded}. */
    private static void check(Codec codec, byte[] frame, byte[] decoded, Class<?> type, ByteOrder o, String what)
            throws Exception {
        int item = itemSize(type);
        int n = decoded.length / item;
        Object expected = filled(type, n + AT + 2);
        read(decoded, o, expected, AT);
        Object got = filled(type, n + AT + 2);
        // the frame at the start of a longer reused buffer, as the chunk reader gives it
        byte[] buffer = Arrays.copyOf(frame, frame.length + 7);
        assertTrue(codec.decodeInto(buffer, frame.length, ElementSink.of(got, AT, n, item, o)), what);
        assertArrayEqual(expected, got, what);
    }

    private static void assertArrayEqual(Object expected, Object got, String what) {
        // raw bit patterns (a NaN's payload too), fast on chunks of megabytes
        assertArrayEquals(bytesOf(expected), bytesOf(got), what);
    }

    /** The elements' bytes, little-endian. */
    static byte[] bytesOf(Object a) {
        int n = Array.getLength(a);
        ByteBuffer b = ByteBuffer.allocate(n * itemSize(a.getClass())).order(ByteOrder.LITTLE_ENDIAN);
        if (a instanceof byte[] x) {
            b.put(x);
        } else if (a instanceof short[] x) {
            b.asShortBuffer().put(x);
        } else if (a instanceof int[] x) {
            b.asIntBuffer().put(x);
        } else if (a instanceof float[] x) {
            for (int i = 0; i < n; i++) {
                b.putInt(4 * i, Float.floatToRawIntBits(x[i]));
            }
        } else if (a instanceof long[] x) {
            b.asLongBuffer().put(x);
        } else {
            double[] x = (double[]) a;
            for (int i = 0; i < n; i++) {
                b.putLong(8 * i, Double.doubleToRawLongBits(x[i]));
            }
        }
        return b.array();
    }

    @Test
    void builtFramesDecodeIntoEveryTypeAndOrder() throws Exception {
        Random r = new Random(31);
        int cases = 0;
        for (int ts : new int[] {1, 2, 3, 4, 8}) {
            for (String mode : new String[] {"stored", "lz4", "mixed"}) {
                for (boolean split : new boolean[] {true, false}) {
                    int blocksize = ts * 256;
                    // whole 8-byte elements, with a short last block
                    int nbytes = blocksize * 3 + 8 * ts * 5;
                    byte[] data = new byte[nbytes];
                    for (int k = 0; k < nbytes; k++) {
                        data[k] = (byte) (r.nextInt(4) == 0 ? r.nextInt() : k / 97);
                    }
                    byte[] frame = ByteUnshuffleTest.frame(data, ts, blocksize, split, mode, r);
                    for (Class<?> type : ARRAYS) {
                        for (ByteOrder o : ORDERS) {
                            for (boolean vector : new boolean[] {false, true}) {
                                String what = mode + " ts " + ts + " split " + split + " " + type.getSimpleName() + " "
                                        + o + " vector " + vector;
                                check(new BloscCodec(vector), frame, data, type, o, what);
                                cases++;
                            }
                        }
                    }
                }
            }
        }
        assertEquals(5 * 3 * 2 * 6 * 2 * 2, cases);
    }

    @Test
    void numcodecsFramesDecodeIntoEveryTypeOfTheirSize() throws Exception {
        int cases = 0;
        for (NativeBloscCodecTest.Frame f : NativeBloscCodecTest.frames()) {
            byte[] decoded = new BloscCodec(false).decode(f.encoded(), f.decodedBytes());
            int blocksize =
                    ByteBuffer.wrap(f.encoded()).order(ByteOrder.LITTLE_ENDIAN).getInt(8);
            boolean memcpyed = (f.encoded()[2] & BloscCodec.MEMCPYED) != 0;
            for (Class<?> type : ARRAYS) {
                int item = itemSize(type);
                if (decoded.length % item != 0 || decoded.length == 0) {
                    continue;
                }
                if (!memcpyed && blocksize % item != 0) {
                    Object a = filled(type, decoded.length / item);
                    assertFalse(new BloscCodec()
                            .decodeInto(
                                    f.encoded(),
                                    f.encoded().length,
                                    ElementSink.of(a, 0, decoded.length / item, item, ORDERS[0])));
                    continue;
                }
                for (ByteOrder o : ORDERS) {
                    for (boolean vector : new boolean[] {false, true}) {
                        check(
                                new BloscCodec(vector),
                                f.encoded(),
                                decoded,
                                type,
                                o,
                                f.name() + " " + type.getSimpleName() + " " + o + " vector " + vector);
                        cases++;
                    }
                }
            }
        }
        assertTrue(cases > 500, "cases: " + cases);
    }

    @Test
    void aFrameOfAnotherSizeIsNotTakenAndWritesNothing() throws Exception {
        Random r = new Random(5);
        byte[] data = new byte[4 * 1000];
        r.nextBytes(data);
        byte[] frame = ByteUnshuffleTest.frame(data, 4, 1024, true, "lz4", r);
        for (int n : new int[] {999, 1001}) {
            float[] got = (float[]) filled(float[].class, n + 4);
            float[] before = got.clone();
            assertFalse(new BloscCodec()
                    .decodeInto(frame, frame.length, ElementSink.of(got, 2, n, 4, ByteOrder.LITTLE_ENDIAN)));
            assertArrayEquals(before, got);
        }
        // blocks that are not whole elements of the sink: not taken either
        byte[] odd = ByteUnshuffleTest.frame(Arrays.copyOf(data, 3 * 1000), 3, 3 * 200 + 3, true, "lz4", r);
        int[] ints = new int[750];
        assertFalse(
                new BloscCodec().decodeInto(odd, odd.length, ElementSink.of(ints, 0, 750, 4, ByteOrder.BIG_ENDIAN)));
        assertArrayEquals(new int[750], ints);
    }

    @Test
    void aCorruptFrameFailsAsTheUsualDecodeDoes() throws Exception {
        Random r = new Random(6);
        byte[] data = new byte[8 * 4096];
        for (int k = 0; k < data.length; k++) {
            data[k] = (byte) (k / 300);
        }
        byte[] frame = ByteUnshuffleTest.frame(data, 8, 8 * 1024, true, "lz4", r);
        byte[] cut = Arrays.copyOf(frame, frame.length - 40);
        // the header's compressed size still says the whole frame: say the bytes we have instead
        ByteBuffer.wrap(cut).order(ByteOrder.LITTLE_ENDIAN).putInt(12, cut.length);
        CodecException usual = assertThrows(
                CodecException.class,
                () -> new BloscCodec().decodeInto(cut, cut.length, new byte[data.length], data.length));
        CodecException direct = assertThrows(
                CodecException.class,
                () -> new BloscCodec()
                        .decodeInto(
                                cut,
                                cut.length,
                                ElementSink.of(new double[4096], 0, 4096, 8, ByteOrder.LITTLE_ENDIAN)));
        assertEquals(usual.getMessage(), direct.getMessage());
    }

    @Test
    void aSinkIsOnlyForNumberArraysOfTheItemSize() {
        assertNull(ElementSink.of(new float[4], 0, 4, 8, ByteOrder.LITTLE_ENDIAN));
        assertNull(ElementSink.of(new String[4], 0, 4, 4, ByteOrder.LITTLE_ENDIAN));
        assertNull(ElementSink.of(new int[4], 1, 4, 4, ByteOrder.LITTLE_ENDIAN));
        assertEquals(
                16, ElementSink.of(new int[5], 1, 4, 4, ByteOrder.LITTLE_ENDIAN).byteLength());
    }

    @Test
    void otherCodecsHaveNoDirectPath() throws Exception {
        Codec zlib = CodecRegistry.standard(NativeCodecs.none())
                .create(new CodecConfig(
                        "zlib",
                        com.fasterxml.jackson.databind.node.JsonNodeFactory.instance
                                .objectNode()
                                .put("id", "zlib"),
                        "<f4"));
        byte[] stored = new byte[] {120, -100, 3, 0, 0, 0, 0, 1};
        assertFalse(
                zlib.decodeInto(stored, stored.length, ElementSink.of(new float[1], 0, 1, 4, ByteOrder.LITTLE_ENDIAN)));
    }
}
