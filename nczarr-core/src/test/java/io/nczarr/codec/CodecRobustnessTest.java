package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdOutputStream;
import io.nczarr.error.CodecException;
import io.nczarr.error.UnknownCodecException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Decompression bombs, truncated and corrupt input, parameter spellings, errors, concurrency. */
class CodecRobustnessTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();
    private static final int MB = 1 << 20;

    private static Codec codec(String json, String dtype) throws IOException {
        JsonNode n = JSON.readTree(json);
        return REGISTRY.create(new CodecConfig(n.get("id").asText(), n, dtype));
    }

    private static Codec codec(String json) throws IOException {
        return codec(json, "<f8");
    }

    private static void assertTooLarge(Codec c, byte[] input, int limit) {
        CodecException e = assertThrows(CodecException.class, () -> c.decode(input, limit));
        assertTrue(e.getMessage().contains("exceeds"), e.getMessage());
    }

    // ---- bombs ----------------------------------------------------------------------------------

    /** A zlib stream of {@code mb} MiB of zeros, built incrementally (about 1 KB per MiB). */
    private static byte[] zlibZeros(int mb) {
        Deflater d = new Deflater(9);
        byte[] zeros = new byte[MB];
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[64 * 1024];
        for (int i = 0; i < mb; i++) {
            d.setInput(zeros);
            while (!d.needsInput()) {
                out.write(buf, 0, d.deflate(buf));
            }
        }
        d.finish();
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    @Test
    void zlibBombStopsAtTheLimit() throws IOException {
        byte[] bomb = zlibZeros(256); // 256 MiB of zeros in ~256 KB
        assertTrue(bomb.length < MB);
        assertTooLarge(codec("{\"id\":\"zlib\"}"), bomb, 4 * MB);
    }

    @Test
    void zstdBombWithDeclaredSizeIsRejectedBeforeDecoding() throws IOException {
        byte[] bomb = Zstd.compress(new byte[64 * MB], 19);
        assertTrue(bomb.length < 64 * 1024);
        assertTooLarge(codec("{\"id\":\"zstd\"}"), bomb, MB);
    }

    @Test
    void zstdStreamingBombStopsAtTheLimit() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZstdOutputStream z = new ZstdOutputStream(bos, 3)) { // no content size in the frame
            byte[] zeros = new byte[MB];
            for (int i = 0; i < 256; i++) {
                z.write(zeros);
            }
        }
        assertEquals(-1, Zstd.getFrameContentSize(bos.toByteArray()) > 0 ? 0 : -1);
        assertTooLarge(codec("{\"id\":\"zstd\"}"), bos.toByteArray(), 2 * MB);
    }

    @Test
    void lz4HeaderDeclaringTooMuchIsRejected() throws IOException {
        byte[] in = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0x7F, 0x10, 0x00};
        assertTooLarge(codec("{\"id\":\"lz4\"}"), in, MB);
        // 4 GiB - 1 declared (unsigned)
        byte[] in2 = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x10, 0x00};
        assertTooLarge(codec("{\"id\":\"lz4\"}"), in2, Integer.MAX_VALUE - 8);
    }

    @Test
    void lz4BlockExpandingBeyondItsHeaderFails() throws IOException {
        // header says 10 bytes; the block is a literal 'a' then a match of 1000 bytes
        byte[] block = {0x1F, 'a', 0x01, 0x00, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x00, 0x00};
        byte[] in = new byte[4 + block.length];
        CodecSupport.putLe32(in, 0, 10);
        System.arraycopy(block, 0, in, 4, block.length);
        assertThrows(CodecException.class, () -> codec("{\"id\":\"lz4\"}").decode(in, MB));
    }

    @Test
    void bloscHeaderDeclaringTooMuchIsRejected() throws IOException {
        byte[] in = new byte[32];
        in[0] = 2;
        in[1] = 1;
        in[2] = 0x02; // memcpyed
        in[3] = 4;
        CodecSupport.putLe32(in, 4, Integer.MAX_VALUE); // nbytes
        CodecSupport.putLe32(in, 8, Integer.MAX_VALUE); // blocksize
        CodecSupport.putLe32(in, 12, 32);
        assertTooLarge(codec("{\"id\":\"blosc\"}"), in, 16 * MB);
    }

    @Test
    void bloscWithHugeBlocksizeAndBadOffsetsFailsCleanly() throws IOException {
        byte[] in = new byte[40];
        in[0] = 2;
        in[1] = 1;
        in[2] = 0x01;
        in[3] = 4;
        CodecSupport.putLe32(in, 4, 1000);
        CodecSupport.putLe32(in, 8, Integer.MAX_VALUE);
        CodecSupport.putLe32(in, 12, 40);
        CodecSupport.putLe32(in, 16, 1 << 30); // block start outside the frame
        assertThrows(CodecException.class, () -> codec("{\"id\":\"blosc\"}").decode(in, 1000));
    }

    @Test
    void bloscInnerZlibBombIsBounded() throws IOException {
        // a frame of nbytes 1 MiB whose single zlib stream inflates to 256 MiB
        byte[] z = zlibZeros(256);
        byte[] in = new byte[16 + 4 + 4 + z.length];
        in[0] = 2;
        in[1] = 1;
        in[2] = (byte) (0x10 | (3 << 5)); // don't split, zlib
        in[3] = 1;
        CodecSupport.putLe32(in, 4, MB);
        CodecSupport.putLe32(in, 8, MB);
        CodecSupport.putLe32(in, 12, in.length);
        CodecSupport.putLe32(in, 16, 20);
        CodecSupport.putLe32(in, 20, z.length);
        System.arraycopy(z, 0, in, 24, z.length);
        CodecException e = assertThrows(
                CodecException.class, () -> codec("{\"id\":\"blosc\"}").decode(in, MB));
        assertTrue(e.getMessage().startsWith("blosc"), e.getMessage());
    }

    @Test
    void gzipAndBz2AndLzmaStopAtTheLimit() throws Exception {
        // data from the corpus fixtures: decode with a limit one byte short
        for (JsonNode c : corpusCases()) {
            String id = c.get("config").get("id").asText();
            if (!List.of("gzip", "bz2", "lzma", "zlib", "zstd", "lz4", "blosc").contains(id)) {
                continue;
            }
            Codec codec = REGISTRY.create(
                    new CodecConfig(id, c.get("config"), c.get("array_dtype").asText()));
            byte[] enc = Files.readAllBytes(corpus().resolve(c.get("encoded").asText()));
            int n = c.get("decoded_nbytes").asInt();
            CodecException e = assertThrows(CodecException.class, () -> codec.decode(enc, n - 1), c.toString());
            assertTrue(e.getMessage().startsWith(id), e.getMessage());
        }
    }

    // ---- truncated and corrupt input ------------------------------------------------------------

    private static Path corpus() {
        return TestSupport.requireCorpus("codecs");
    }

    private static List<JsonNode> corpusCases() throws IOException {
        List<JsonNode> out = new ArrayList<>();
        JSON.readTree(corpus().resolve("INDEX.json").toFile()).get("cases").forEach(out::add);
        return out;
    }

    static List<Arguments> structuredCases() throws IOException, URISyntaxException {
        List<Arguments> out = new ArrayList<>();
        Path extra = Path.of(CodecRobustnessTest.class
                        .getResource("/codec-extra/INDEX.json")
                        .toURI())
                .getParent();
        List<JsonNode> all = new ArrayList<>();
        List<Path> dirs = new ArrayList<>();
        for (JsonNode c : corpusCases()) {
            all.add(c);
            dirs.add(corpus());
        }
        for (JsonNode c : JSON.readTree(extra.resolve("INDEX.json").toFile()).get("cases")) {
            all.add(c);
            dirs.add(extra);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            JsonNode c = all.get(i);
            String id = c.get("config").get("id").asText();
            if (!List.of(
                            "zlib",
                            "gzip",
                            "bz2",
                            "lzma",
                            "zstd",
                            "lz4",
                            "blosc",
                            "fletcher32",
                            "crc32",
                            "adler32",
                            "vlen-utf8",
                            "vlen-bytes")
                    .contains(id)) {
                continue;
            }
            if (seen.add(c.get("encoded").asText() + c.get("config"))) {
                out.add(Arguments.of(c.get("encoded").asText() + " " + c.get("config"), c, dirs.get(i)));
            }
        }
        return out;
    }

    /**
     * Every structured case is a framed format (a header, trailer, checksum or item count says how
     * much data there is), so any cut must be detected: a CodecException naming the codec, never a
     * result, not even a correct-looking prefix.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("structuredCases")
    void truncatedInputIsACodecException(String name, JsonNode c, Path dir) throws IOException {
        String id = c.get("config").get("id").asText();
        Codec codec = REGISTRY.create(
                new CodecConfig(id, c.get("config"), c.get("array_dtype").asText()));
        byte[] enc = Files.readAllBytes(dir.resolve(c.get("encoded").asText()));
        int n = c.get("decoded_nbytes").asInt();
        for (int cut : new int[] {0, 1, 3, enc.length / 3, enc.length / 2, enc.length - 1}) {
            if (cut >= enc.length || cut < 0) {
                continue;
            }
            byte[] t = java.util.Arrays.copyOf(enc, cut);
            CodecException e = assertThrows(
                    CodecException.class, () -> codec.decode(t, n), name + " cut at " + cut + " of " + enc.length);
            assertTrue(
                    e.getMessage().contains(id) || e.getMessage().contains("checksum"),
                    "message names the codec: " + e.getMessage());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("structuredCases")
    void corruptInputNeverEscapesAsAnotherException(String name, JsonNode c, Path dir) throws IOException {
        String id = c.get("config").get("id").asText();
        Codec codec = REGISTRY.create(
                new CodecConfig(id, c.get("config"), c.get("array_dtype").asText()));
        byte[] enc = Files.readAllBytes(dir.resolve(c.get("encoded").asText()));
        int n = c.get("decoded_nbytes").asInt();
        Random rnd = new Random(name.hashCode());
        for (int round = 0; round < 60; round++) {
            byte[] t = enc.clone();
            int flips = 1 + rnd.nextInt(4);
            for (int k = 0; k < flips; k++) {
                // bias towards headers, where sizes and offsets live
                int pos = rnd.nextBoolean() ? rnd.nextInt(Math.min(t.length, 64)) : rnd.nextInt(t.length);
                t[pos] = (byte) rnd.nextInt(256);
            }
            try {
                byte[] out = codec.decode(t, n);
                assertTrue(out.length <= n);
            } catch (CodecException e) {
                // expected
            } catch (RuntimeException e) {
                throw new AssertionError(name + " round " + round + ": " + e, e);
            }
        }
    }

    @Test
    void emptyInputs() throws IOException {
        for (String id : List.of(
                "zlib",
                "gzip",
                "bz2",
                "lzma",
                "zstd",
                "lz4",
                "blosc",
                "fletcher32",
                "crc32",
                "vlen-utf8",
                "packbits")) {
            Codec c = codec("{\"id\":\"" + id + "\"}");
            assertThrows(CodecException.class, () -> c.decode(new byte[0], 1000), id);
        }
    }

    @Test
    void bloscRejectsBlosc2Frames() throws IOException {
        byte[] in = new byte[32];
        in[0] = 5;
        in[2] = 0x05;
        in[3] = 4;
        CodecSupport.putLe32(in, 12, 32);
        assertThrows(CodecException.class, () -> codec("{\"id\":\"blosc\"}").decode(in, 1000));
    }

    // ---- parameters and errors ----------------------------------------------------------------

    @Test
    void stringParametersAreAccepted() throws IOException {
        codec("{\"id\":\"zlib\",\"level\":\"5\"}");
        codec("{\"id\":\"blosc\",\"clevel\":\"5\",\"shuffle\":\"1\",\"blocksize\":\"0\",\"cname\":\"lz4\"}");
        codec("{\"id\":\"zstd\",\"level\":\"3\"}");
        codec("{\"id\":\"bz2\",\"level\":\"9\"}");
        byte[] data = new byte[64];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) (i * 7);
        }
        byte[] viaString = codec("{\"id\":\"shuffle\",\"elementsize\":\"8\"}").decode(data, 64);
        byte[] viaNumber = codec("{\"id\":\"shuffle\",\"elementsize\":8}").decode(data, 64);
        assertArrayEquals(viaNumber, viaString);
        // element 1, byte 0 comes from row 0, column 1
        assertEquals(data[1], viaString[8]);
        assertEquals(data[8], viaString[1]);
        Codec fso = codec("{\"id\":\"fixedscaleoffset\",\"scale\":\"10\",\"offset\":\"1000\",\"dtype\":\"<f8\","
                + "\"astype\":\"|u1\"}");
        byte[] out = fso.decode(new byte[] {5}, 8);
        assertEquals(
                1000.5,
                java.nio.ByteBuffer.wrap(out)
                        .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                        .getDouble());
    }

    @Test
    void shuffleDefaultsToTheArrayItemsize() throws IOException {
        byte[] data = {1, 2, 3, 4, 5, 6, 7, 8};
        byte[] out = REGISTRY.create(new CodecConfig("shuffle", null, "<i2")).decode(data, 8);
        assertArrayEquals(new byte[] {1, 5, 2, 6, 3, 7, 4, 8}, out);
    }

    @Test
    void badParametersAreCodecExceptions() {
        // compression levels are not needed to decode, so only parameters that decoding uses are checked
        assertThrows(CodecException.class, () -> codec("{\"id\":\"shuffle\",\"elementsize\":\"eight\"}"));
        assertThrows(CodecException.class, () -> codec("{\"id\":\"delta\",\"dtype\":\"<x4\"}"));
        assertThrows(CodecException.class, () -> codec("{\"id\":\"lzma\",\"format\":3}"));
        assertThrows(CodecException.class, () -> codec("{\"id\":\"categorize\",\"dtype\":\"<U4\"}"));
    }

    @Test
    void zlibLevelStringIsParsed() throws IOException {
        ObjectNode p = JSON.createObjectNode().put("id", "zlib").put("level", "5");
        assertEquals(5, new CodecConfig("zlib", p, "<i4").intParam("level", 1));
    }

    @Test
    void unknownIdIsUnknownCodecException() {
        UnknownCodecException e = assertThrows(
                UnknownCodecException.class, () -> REGISTRY.create(new CodecConfig("nosuchcodec", null, "<i4")));
        assertEquals("nosuchcodec", e.codecId());
        assertTrue(e.getMessage().contains("nosuchcodec"));
    }

    @Test
    void fletcher32MismatchIsReported() throws Exception {
        Path extra = Path.of(getClass()
                .getResource("/codec-extra/data/hdf5_fletcher32_f32.dat")
                .toURI());
        byte[] enc = Files.readAllBytes(extra);
        Codec c = codec("{\"id\":\"fletcher32\"}");
        assertEquals(enc.length - 4, c.decode(enc, enc.length).length);
        enc[100] ^= 0x40;
        CodecException e = assertThrows(CodecException.class, () -> c.decode(enc, enc.length));
        assertTrue(e.getMessage().startsWith("fletcher32 checksum mismatch"), e.getMessage());
    }

    /**
     * Expected values of {@code H5_checksum_fletcher32} from HDF5's own test suite: HDFGroup/hdf5,
     * test/tchecksum.c (test_chksum_size_one .. _four and test_chksum_large, BUF_LEN 3093 bytes
     * {@code (uint8_t)(u * 3)}); for each buffer the all-zero buffer of the same size checksums to 0.
     */
    static Stream<Arguments> hdf5Fletcher32Vectors() {
        byte[] large = new byte[3093];
        for (int u = 0; u < large.length; u++) {
            large[u] = (byte) (u * 3);
        }
        List<Arguments> out = new ArrayList<>();
        out.add(Arguments.of("1 byte", new byte[] {23}, 0x17001700));
        out.add(Arguments.of("2 bytes", new byte[] {23, (byte) 187}, 0x17bb17bb));
        out.add(Arguments.of("3 bytes", new byte[] {23, (byte) 187, 98}, 0x917679bb));
        out.add(Arguments.of("4 bytes", new byte[] {23, (byte) 187, 98, (byte) 217}, 0x924f7a94));
        out.add(Arguments.of("3093 bytes", large, 0x085b4e2a));
        for (int n : new int[] {1, 2, 3, 4, 3093}) {
            out.add(Arguments.of(n + " zero bytes", new byte[n], 0));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hdf5Fletcher32Vectors")
    void fletcher32MatchesHdf5sTestVectors(String name, byte[] data, int expected) throws IOException {
        assertEquals(expected, Fletcher32Codec.checksum(data, 0, data.length));
        // H5Zfletcher32.c appends the checksum with UINT32ENCODE: least significant byte first
        byte[] stored = java.util.Arrays.copyOf(data, data.length + 4);
        CodecSupport.putLe32(stored, data.length, expected);
        Codec c = codec("{\"id\":\"fletcher32\"}");
        assertArrayEquals(data, c.decode(stored, data.length));
        // big-endian storage is not what HDF5 writes: rejected unless it happens to equal an accepted form
        int reversed = Integer.reverseBytes(expected);
        int halvesSwapped = ((expected & 0x00FF00FF) << 8) | ((expected >>> 8) & 0x00FF00FF); // HDF5 < 1.6.3
        if (reversed != expected && reversed != halvesSwapped) {
            CodecSupport.putLe32(stored, data.length, reversed);
            assertThrows(CodecException.class, () -> c.decode(stored, data.length));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"hdf5_fletcher32_f32.dat", "hdf5_fletcher32_odd.dat", "hdf5_fletcher32_shuffled.dat"})
    void fletcher32ChunksWrittenByHdf5EndWithTheirChecksumLittleEndian(String file) throws Exception {
        byte[] enc = Files.readAllBytes(
                Path.of(getClass().getResource("/codec-extra/data/" + file).toURI()));
        int n = enc.length - 4;
        assertEquals(CodecSupport.le32(enc, n), Fletcher32Codec.checksum(enc, 0, n), file);
    }

    @Test
    void szipIsAClearError() throws IOException {
        Codec c = codec("{\"id\":\"szip\",\"mask\":\"141\",\"pixels-per-block\":\"32\"}");
        CodecException e = assertThrows(CodecException.class, () -> c.decode(new byte[10], 100));
        assertTrue(e.getMessage().startsWith("unsupported codec szip"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"vlen-utf8", "vlen-bytes"})
    void vlenValidation(String id) throws IOException {
        Codec c = codec("{\"id\":\"" + id + "\"}", "|O");
        byte[] ok = {2, 0, 0, 0, 1, 0, 0, 0, 'a', 0, 0, 0, 0};
        assertArrayEquals(ok, c.decode(ok, 100));
        byte[] tooMany = {9, 0, 0, 0, 1, 0, 0, 0, 'a'};
        assertThrows(CodecException.class, () -> c.decode(tooMany, 100));
        byte[] longItem = {1, 0, 0, 0, 5, 0, 0, 0, 'a'};
        assertThrows(CodecException.class, () -> c.decode(longItem, 100));
        byte[] badUtf8 = {1, 0, 0, 0, 1, 0, 0, 0, (byte) 0xC3};
        if (id.equals("vlen-utf8")) {
            assertThrows(CodecException.class, () -> c.decode(badUtf8, 100));
        } else {
            assertArrayEquals(badUtf8, c.decode(badUtf8, 100));
        }
    }

    @Test
    void packbitsLayout() throws IOException {
        Codec c = codec("{\"id\":\"packbits\"}", "|b1");
        // 10 elements: 1011000011 -> 0xB0 0xC0, 6 padding bits
        byte[] out = c.decode(new byte[] {6, (byte) 0xB0, (byte) 0xC0}, 100);
        assertArrayEquals(new byte[] {1, 0, 1, 1, 0, 0, 0, 0, 1, 1}, out);
        assertThrows(CodecException.class, () -> c.decode(new byte[] {9, 0}, 100));
        assertTooLarge(c, new byte[] {0, 1, 2, 3}, 8);
    }

    @Test
    void categorizeObjectDtypeGivesVlenUtf8Layout() throws IOException {
        Codec c = codec("{\"id\":\"categorize\",\"labels\":[\"a\",\"bc\"],\"dtype\":\"|O\",\"astype\":\"|u1\"}", "|O");
        byte[] out = c.decode(new byte[] {2, 0, 1}, 100);
        assertArrayEquals(new byte[] {3, 0, 0, 0, 2, 0, 0, 0, 'b', 'c', 0, 0, 0, 0, 1, 0, 0, 0, 'a'}, out);
        assertEquals(3, VlenCodec.validate("vlen-utf8", true, out));
    }

    @Test
    void astypeCastsLikeNumpy() throws IOException {
        Codec c = codec("{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<i2\"}", "<i2");
        java.nio.ByteBuffer in = java.nio.ByteBuffer.allocate(16).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        in.putFloat(-2.7f).putFloat(3.9f).putFloat(70000f).putFloat(Float.NaN);
        byte[] out = c.decode(in.array(), 8);
        java.nio.ByteBuffer o = java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(-2, o.getShort());
        assertEquals(3, o.getShort());
        assertEquals((short) 70000, o.getShort()); // C cast through int32, then truncation
        assertEquals(0, o.getShort()); // NaN -> INT_MIN -> low 16 bits 0
        // big-endian and half precision
        Codec h = codec("{\"id\":\"astype\",\"encode_dtype\":\">f2\",\"decode_dtype\":\"<f8\"}", "<f8");
        byte[] half = {0x3C, 0x00, (byte) 0xC0, 0x00, 0x7C, 0x00, 0x00, 0x01};
        java.nio.ByteBuffer d = java.nio.ByteBuffer.wrap(h.decode(half, 32)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        assertEquals(1.0, d.getDouble());
        assertEquals(-2.0, d.getDouble());
        assertEquals(Double.POSITIVE_INFINITY, d.getDouble());
        assertEquals(0x1p-24, d.getDouble());
    }

    @Test
    void halfRoundingIsNearestEven() {
        assertEquals(0x3C00, HalfFloat.fromDouble(1.0));
        assertEquals(0x3C00, HalfFloat.fromDouble(1.0 + 0x1p-11)); // tie -> even
        assertEquals(0x3C01, HalfFloat.fromDouble(1.0 + 0x1p-11 + 0x1p-20));
        assertEquals(0x7BFF, HalfFloat.fromDouble(65504.0));
        assertEquals(0x7C00, HalfFloat.fromDouble(65520.0)); // rounds up to inf
        assertEquals(0x0001, HalfFloat.fromDouble(0x1p-24));
        assertEquals(0x0000, HalfFloat.fromDouble(0x1p-25)); // tie -> even (0)
        assertEquals(0x8000, HalfFloat.fromDouble(-0.0));
    }

    // ---- concurrency ----------------------------------------------------------------------------

    @Test
    void oneCodecInstanceDecodesConcurrently() throws Exception {
        List<JsonNode> cases = new ArrayList<>();
        for (JsonNode c : corpusCases()) {
            cases.add(c);
        }
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (JsonNode c : cases) {
                String id = c.get("config").get("id").asText();
                Codec codec = REGISTRY.create(new CodecConfig(
                        id, c.get("config"), c.get("array_dtype").asText()));
                byte[] enc =
                        Files.readAllBytes(corpus().resolve(c.get("encoded").asText()));
                for (int t = 0; t < 4; t++) {
                    fs.add(pool.submit(() -> {
                        for (int k = 0; k < 5; k++) {
                            byte[] out =
                                    codec.decode(enc, c.get("decoded_nbytes").asInt());
                            assertEquals(c.get("decoded_sha256").asText(), TestSupport.sha256(out));
                        }
                        return null;
                    }));
                }
            }
            for (Future<?> f : fs) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
