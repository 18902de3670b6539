package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import io.nczarr.error.CodecException;
import java.io.ByteArrayOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.Test;

/**
 * libdeflate decodes zlib exactly as the JDK's Inflater does: the same bytes for every level and size, the
 * same refusals (corrupt, truncated, over the bound), on seeded random inputs; and it is really used where
 * the system has it (CI installs Debian's libdeflate0), so a failure to bind is not silently the Java path.
 */
class NativeCodecsTest {

    private static final Codec JAVA = new ZlibCodec();

    private static Codec nativeZlib() throws Exception {
        NativeCodecs n = NativeCodecs.load();
        assumeTrue(n.hasDeflate(), n.describe());
        Codec c = CodecRegistry.standard(n)
                .create(new CodecConfig(
                        "zlib", JsonNodeFactory.instance.objectNode().put("id", "zlib"), "<f8"));
        assertInstanceOf(NativeZlibCodec.class, c);
        return c;
    }

    @Test
    void bindsWhereTheSystemHasTheLibrary() {
        boolean installed = Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libdeflate.so.0"))
                || Files.exists(Path.of("/lib/x86_64-linux-gnu/libdeflate.so.0"));
        assumeTrue(installed, "libdeflate0 is not installed here");
        NativeCodecs n = NativeCodecs.load();
        assertTrue(n.hasDeflate(), n.describe());
        assertTrue(n.describe().contains("libdeflate"), n.describe());
    }

    @Test
    void javaOnlyWhenAskedFor() throws Exception {
        Codec c = CodecRegistry.standard(NativeCodecs.none())
                .create(new CodecConfig(
                        "zlib", JsonNodeFactory.instance.objectNode().put("id", "zlib"), "<f8"));
        assertInstanceOf(ZlibCodec.class, c);
        assertFalse(NativeCodecs.none().hasDeflate());
    }

    @Test
    void sameBytesAsTheJavaDecoder() throws Exception {
        Codec lib = nativeZlib();
        Random r = new Random(20261122);
        for (int i = 0; i < 200; i++) {
            byte[] raw = sample(r, i);
            byte[] enc = zlib(raw, i % 10);
            String what = "case " + i + " (" + raw.length + " bytes, level " + (i % 10) + ")";
            assertArrayEquals(raw, lib.decode(enc, raw.length), what);
            assertArrayEquals(JAVA.decode(enc, raw.length + 100), lib.decode(enc, raw.length + 100), what);
            byte[] reused = new byte[raw.length + 13];
            Arrays.fill(reused, (byte) 0x5a);
            byte[] got = lib.decodeInto(enc, reused, raw.length);
            assertArrayEquals(raw, Arrays.copyOf(got, raw.length), what);
        }
    }

    /** Chunks read into a reused buffer: only the first bytes are the stream, in both decoders. */
    @Test
    void decodesThePartOfAReusedInputBufferLikeTheJavaDecoder() throws Exception {
        Codec lib = nativeZlib();
        assertTrue(lib.readsInPlace());
        assertTrue(JAVA.readsInPlace());
        assertTrue(lib.readsDirectInput());
        assertFalse(JAVA.readsDirectInput());
        Random r = new Random(20261123);
        byte[] input = new byte[1 << 20];
        for (int i = 0; i < 100; i++) {
            byte[] raw = sample(r, i);
            byte[] enc = zlib(raw, i % 10);
            if (enc.length > input.length) {
                continue;
            }
            r.nextBytes(input); // what an earlier chunk left
            System.arraycopy(enc, 0, input, 0, enc.length);
            String what = "case " + i + " (" + raw.length + " bytes, level " + (i % 10) + ")";
            for (Codec c : new Codec[] {lib, JAVA}) {
                byte[] out = new byte[raw.length + 5];
                byte[] got = c.decodeInto(input, enc.length, out, raw.length);
                assertArrayEquals(raw, Arrays.copyOf(got, raw.length), what);
                java.nio.ByteBuffer own = c.decodeToOwnBuffer(input, enc.length, raw.length);
                if (c == JAVA) {
                    assertEquals(null, own, "the Java decoder has no memory of its own");
                } else {
                    byte[] viewed = new byte[own.remaining()];
                    own.get(viewed);
                    assertArrayEquals(raw, viewed, what + ", own buffer");
                }
                if (c != JAVA) {
                    // the stored bytes in native memory, after other bytes and before garbage
                    java.nio.ByteBuffer direct = java.nio.ByteBuffer.allocateDirect(enc.length + 20);
                    direct.put(new byte[] {1, 2, 3}).put(enc).put(new byte[17]).flip();
                    java.nio.ByteBuffer view =
                            c.decodeToOwnBuffer(direct.position(3).limit(3 + enc.length), raw.length);
                    byte[] viewed = new byte[view.remaining()];
                    view.get(viewed);
                    assertArrayEquals(raw, viewed, what + ", direct input");
                    assertThrows(
                            CodecException.class,
                            () -> c.decodeToOwnBuffer(direct.position(3).limit(3 + enc.length / 2), raw.length),
                            what + ", direct input cut short");
                }
                // a part cut short is a truncated stream, whatever follows it in the buffer
                int cut = enc.length / 2;
                assertThrows(CodecException.class, () -> c.decodeInto(input, cut, out, raw.length), what);
                if (c != JAVA) {
                    assertThrows(CodecException.class, () -> c.decodeToOwnBuffer(input, cut, raw.length), what);
                    if (raw.length > 0) {
                        assertThrows(
                                CodecException.class,
                                () -> c.decodeToOwnBuffer(input, enc.length, raw.length - 1),
                                what + ", one byte short");
                    }
                }
            }
        }
    }

    @Test
    void hugeBoundStartsSmallAndGrows() throws Exception {
        byte[] raw = new byte[3_000_000];
        new Random(7).nextBytes(raw);
        Arrays.fill(raw, 0, 1_000_000, (byte) 1);
        byte[] enc = zlib(raw, 6);
        assertArrayEquals(raw, nativeZlib().decode(enc, Integer.MAX_VALUE - 16));
    }

    @Test
    void refusesWhatTheJavaDecoderRefuses() throws Exception {
        Codec lib = nativeZlib();
        Random r = new Random(11);
        byte[] raw = sample(r, 5);
        byte[] enc = zlib(raw, 6);
        assertThrows(CodecException.class, () -> lib.decode(enc, raw.length - 1));
        assertThrows(CodecException.class, () -> lib.decodeInto(enc, new byte[raw.length - 1], raw.length - 1));
        for (int cut : new int[] {0, 1, 2, enc.length / 2, enc.length - 1}) {
            byte[] t = Arrays.copyOf(enc, cut);
            assertThrows(CodecException.class, () -> JAVA.decode(t, raw.length), "java, cut " + cut);
            assertThrows(CodecException.class, () -> lib.decode(t, raw.length), "native, cut " + cut);
        }
        // seeded corruption: whatever Java says (bytes or refusal), native says the same
        for (int i = 0; i < 300; i++) {
            byte[] bad = enc.clone();
            bad[2 + r.nextInt(bad.length - 2)] ^= (byte) (1 << r.nextInt(8));
            String javaSays = outcome(JAVA, bad, raw.length);
            String nativeSays = outcome(lib, bad, raw.length);
            if (javaSays.startsWith("bytes") || nativeSays.startsWith("bytes")) {
                // a flipped bit the checksum does not catch in one decoder is caught in neither
                assertEquals(javaSays, nativeSays, "corruption " + i);
            }
        }
    }

    private static String outcome(Codec c, byte[] in, int n) throws java.io.IOException {
        try {
            return "bytes " + Arrays.hashCode(c.decode(in, n));
        } catch (CodecException e) {
            return "refused";
        }
    }

    private static byte[] sample(Random r, int i) {
        int n = i % 7 == 0 ? r.nextInt(16) : r.nextInt(200_000);
        byte[] b = new byte[n];
        if (i % 3 == 0) {
            r.nextBytes(b);
        } else {
            for (int k = 0; k < n; k++) {
                b[k] = (byte) (Math.sin(k / 50.0) * 40 + r.nextInt(3));
            }
        }
        return b;
    }

    private static byte[] zlib(byte[] raw, int level) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (DeflaterOutputStream z = new DeflaterOutputStream(out, new Deflater(level))) {
            z.write(raw);
        }
        return out.toByteArray();
    }
}
