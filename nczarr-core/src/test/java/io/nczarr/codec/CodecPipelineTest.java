package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;

/** Stage kinds, the Zarr v3 order check, typed bounds, and the v2 adapter the chunk reader runs. */
class CodecPipelineTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();

    private static Codec codec(String json) throws IOException {
        JsonNode n = JSON.readTree(json);
        return REGISTRY.create(new CodecConfig(n.get("id").asText(), n, "<f8"));
    }

    private static CodecConfig config(String json) throws IOException {
        JsonNode n = JSON.readTree(json);
        return new CodecConfig(n.get("id").asText(), n, "<f8");
    }

    private static NumpyDtype dtype(String s) {
        return CodecSupport.knownDtype(s);
    }

    // ---- kinds ------------------------------------------------------------------------------------

    @Test
    void everyBuiltInHasTheKindZarrV3GivesIt() throws IOException {
        Map<String, CodecKind> expected = Map.ofEntries(
                Map.entry("zlib", CodecKind.BYTES_TO_BYTES),
                Map.entry("gzip", CodecKind.BYTES_TO_BYTES),
                Map.entry("bz2", CodecKind.BYTES_TO_BYTES),
                Map.entry("lzma", CodecKind.BYTES_TO_BYTES),
                Map.entry("zstd", CodecKind.BYTES_TO_BYTES),
                Map.entry("lz4", CodecKind.BYTES_TO_BYTES),
                Map.entry("blosc", CodecKind.BYTES_TO_BYTES),
                Map.entry("szip", CodecKind.BYTES_TO_BYTES),
                Map.entry("shuffle", CodecKind.BYTES_TO_BYTES),
                Map.entry("fletcher32", CodecKind.BYTES_TO_BYTES),
                Map.entry("crc32", CodecKind.BYTES_TO_BYTES),
                Map.entry("adler32", CodecKind.BYTES_TO_BYTES),
                Map.entry("crc32c", CodecKind.BYTES_TO_BYTES),
                Map.entry("delta", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("fixedscaleoffset", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("astype", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("quantize", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("bitround", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("scale_offset", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("imagecodecs_lzf", CodecKind.BYTES_TO_BYTES),
                Map.entry("imagecodecs_lz4h5", CodecKind.BYTES_TO_BYTES),
                Map.entry("imagecodecs_bz2", CodecKind.BYTES_TO_BYTES),
                Map.entry("cast_value", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("packbits", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("categorize", CodecKind.ARRAY_TO_ARRAY),
                Map.entry("vlen-utf8", CodecKind.ARRAY_TO_BYTES),
                Map.entry("vlen-bytes", CodecKind.ARRAY_TO_BYTES));
        assertEquals(expected.keySet(), REGISTRY.ids());
        for (Map.Entry<String, CodecKind> e : expected.entrySet()) {
            String json = "{\"id\":\"" + e.getKey() + "\""
                    + (e.getKey().equals("fixedscaleoffset") ? ",\"scale\":1,\"offset\":0" : "")
                    + (e.getKey().equals("cast_value") ? ",\"data_type\":\"uint16\"" : "")
                    + (e.getKey().equals("categorize") ? ",\"labels\":[],\"dtype\":\"<U3\"}" : "}");
            assertEquals(e.getValue(), CodecKind.of(codec(json)), e.getKey());
        }
    }

    @Test
    void arrayCodecsResolveTheirEncodedArray() throws IOException {
        ChunkSpec f8 = new ChunkSpec(1000, dtype("<f8"));
        ArrayArrayCodec fso = (ArrayArrayCodec)
                codec("{\"id\":\"fixedscaleoffset\",\"scale\":10,\"offset\":0,\"dtype\":\"<f8\",\"astype\":\"<i2\"}");
        assertEquals(new ChunkSpec(1000, dtype("<i2")), fso.encodedSpec(f8));
        ArrayArrayCodec astype =
                (ArrayArrayCodec) codec("{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}");
        assertEquals(4000, astype.encodedSpec(f8).bytes());
        ArrayArrayCodec packbits = (ArrayArrayCodec) codec("{\"id\":\"packbits\"}");
        assertEquals(new ChunkSpec(1 + 125, dtype("|u1")), packbits.encodedSpec(new ChunkSpec(1000, dtype("|b1"))));
        assertEquals(new ChunkSpec(1 + 2, dtype("|u1")), packbits.encodedSpec(new ChunkSpec(9, dtype("|b1"))));
        ArrayArrayCodec bitround = (ArrayArrayCodec) codec("{\"id\":\"bitround\",\"keepbits\":3}");
        assertEquals(f8, bitround.encodedSpec(f8));
        assertEquals(ChunkSpec.UNKNOWN, new ChunkSpec(10, dtype("|O")).bytes());
    }

    // ---- order ------------------------------------------------------------------------------------

    @Test
    void zarrV3OrderIsChecked() throws IOException {
        ChunkSpec spec = new ChunkSpec(10, dtype("<f8"));
        Codec zlib = codec("{\"id\":\"zlib\"}");
        Codec delta = codec("{\"id\":\"delta\",\"dtype\":\"<f8\"}");
        Codec vlen = codec("{\"id\":\"vlen-bytes\"}");
        Codec raw = RawBytesCodec.INSTANCE;
        CodecPipeline.of(List.of(delta, raw, zlib), spec, 1 << 20);
        CodecPipeline.of(List.of(vlen, zlib, zlib), spec, 1 << 20);
        assertMisplaced("no array->bytes", List.of(delta));
        assertMisplaced("no array->bytes", List.of());
        assertMisplaced("is bytes->bytes before the array->bytes codec", List.of(zlib, raw));
        assertMisplaced("is array->array after the array->bytes codec", List.of(raw, delta));
        assertMisplaced("is array->bytes but the chain already has one", List.of(vlen, raw));
    }

    private static void assertMisplaced(String what, List<Codec> chain) {
        ChunkSpec spec = new ChunkSpec(10, dtype("<f8"));
        CodecException e = assertThrows(CodecException.class, () -> CodecPipeline.of(chain, spec, 1 << 20));
        assertTrue(e.getMessage().contains(what), e.getMessage());
    }

    // ---- typed bounds -----------------------------------------------------------------------------

    /** fixedscaleoffset(f8 as i2) | bytes | crc32 | zlib, as a v3 chain: every width known. */
    private static CodecPipeline typedChain() throws IOException {
        List<Codec> chain = List.of(
                codec("{\"id\":\"fixedscaleoffset\",\"scale\":10,\"offset\":0,\"dtype\":\"<f8\",\"astype\":\"<i2\"}"),
                RawBytesCodec.INSTANCE,
                codec("{\"id\":\"crc32\"}"),
                codec("{\"id\":\"zlib\"}"));
        return CodecPipeline.of(chain, new ChunkSpec(100, dtype("<f8")), 1 << 20);
    }

    /** crc32 (numcodecs: checksum first) then zlib of {@code payload}. */
    private static byte[] crc32ThenZlib(byte[] payload) {
        CRC32 crc = new CRC32();
        crc.update(payload);
        byte[] framed = new byte[payload.length + 4];
        CodecSupport.putLe32(framed, 0, (int) crc.getValue());
        System.arraycopy(payload, 0, framed, 4, payload.length);
        Deflater d = new Deflater();
        d.setInput(framed);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[4096];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.toByteArray();
    }

    @Test
    void typedChainDecodesBackwards() throws IOException {
        CodecPipeline p = typedChain();
        assertEquals(3, p.decodeSteps().size(), "the raw serializer does not run");
        assertSame(RawBytesCodec.INSTANCE, p.arrayBytesCodec());
        ByteBuffer i2 = ByteBuffer.allocate(200).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 100; i++) {
            i2.putShort((short) (i * 3));
        }
        byte[] stored = crc32ThenZlib(i2.array());
        byte[] out = p.decodeInto(stored, new byte[800], 800);
        assertEquals(800, out.length);
        ByteBuffer f8 = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 100; i++) {
            assertEquals(i * 3 / 10.0, f8.getDouble(), 1e-12);
        }
        assertEquals(800, p.decodeInto(stored, null, 800).length);
    }

    @Test
    void typedChainBoundsEachStageByItsWidth() throws IOException {
        // 101 i2 elements: the zlib stage may give back 200 + 4 bytes, so it stops right there
        byte[] stored = crc32ThenZlib(new byte[202]);
        CodecException e = assertThrows(CodecException.class, () -> typedChain().decodeInto(stored, null, 800));
        assertTrue(e.getMessage().startsWith("zlib") && e.getMessage().contains("204"), e.getMessage());
    }

    // ---- the v2 adapter ---------------------------------------------------------------------------

    /** Builds a v2 pipeline, recording the order in which the entries are created. */
    private static CodecPipeline v2(
            CodecConfig compressor,
            List<CodecConfig> filters,
            boolean callerParsesVlen,
            List<String> created,
            List<Codec> codecs)
            throws IOException {
        return V2Pipeline.build(
                compressor,
                filters,
                c -> {
                    created.add(c.id());
                    Codec codec = REGISTRY.create(c);
                    codecs.add(codec);
                    return codec;
                },
                100,
                800,
                callerParsesVlen,
                Long.MAX_VALUE,
                null);
    }

    @Test
    void v2ChainRunsCompressorThenFiltersInReverse() throws IOException {
        List<String> created = new ArrayList<>();
        List<Codec> codecs = new ArrayList<>();
        // netcdf-c style: a bytes filter before an array filter is legal in v2
        CodecPipeline p = v2(
                config("{\"id\":\"zlib\"}"),
                List.of(
                        config("{\"id\":\"shuffle\",\"elementsize\":8}"),
                        config("{\"id\":\"delta\",\"dtype\":\"<f8\"}"),
                        config("{\"id\":\"fletcher32\"}")),
                false,
                created,
                codecs);
        assertEquals(List.of("zlib", "fletcher32", "delta", "shuffle"), created, "created in decode order");
        List<Codec> steps = p.decodeSteps();
        assertEquals(4, steps.size());
        assertSame(codecs.get(0), steps.get(0));
        assertSame(codecs.get(1), steps.get(1));
        assertTrue(steps.get(2) instanceof ArrayCodecOnBytes, "delta after a bytes filter runs on the bytes");
        assertSame(codecs.get(3), steps.get(3));
        assertSame(RawBytesCodec.INSTANCE, p.arrayBytesCodec(), "v2's implicit serializer sits before shuffle");
        assertEquals(List.of(), p.arrayArrayCodecs());
    }

    @Test
    void v2ArrayFiltersBeforeBytesFiltersStayArrayCodecs() throws IOException {
        CodecPipeline p = v2(
                config("{\"id\":\"blosc\"}"),
                List.of(
                        config("{\"id\":\"delta\",\"dtype\":\"<f8\"}"),
                        config("{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}")),
                false,
                new ArrayList<>(),
                new ArrayList<>());
        assertEquals(2, p.arrayArrayCodecs().size());
        assertEquals(1, p.bytesBytesCodecs().size());
        assertEquals(3, p.decodeSteps().size());
    }

    @Test
    void v2VlenUtf8IsLeftToTheCallerWhenItParsesTheItems() throws IOException {
        List<CodecConfig> filters = List.of(config("{\"id\":\"vlen-utf8\"}"));
        List<String> created = new ArrayList<>();
        CodecPipeline parsed = v2(config("{\"id\":\"zlib\"}"), filters, true, created, new ArrayList<>());
        assertEquals(List.of("zlib"), created);
        assertEquals(1, parsed.decodeSteps().size());
        assertSame(RawBytesCodec.INSTANCE, parsed.arrayBytesCodec());
        CodecPipeline run = v2(config("{\"id\":\"zlib\"}"), filters, false, new ArrayList<>(), new ArrayList<>());
        assertEquals(2, run.decodeSteps().size());
        assertTrue(run.arrayBytesCodec() instanceof VlenCodec);
    }

    @Test
    void v2WithoutCodecsIsTheIdentity() throws IOException {
        CodecPipeline p = v2(null, List.of(), false, new ArrayList<>(), new ArrayList<>());
        assertTrue(p.isEmpty());
        byte[] stored = {1, 2, 3};
        assertSame(stored, p.decodeInto(stored, new byte[3], 3));
        assertSame(stored, p.decode(stored, 3));
    }

    @Test
    void v2BoundsStagesBeforeTheLastByTheWidestNumericType() throws IOException {
        assertEquals(800, V2Pipeline.innerLimit(100, 800));
        assertEquals(800, V2Pipeline.innerLimit(100, 200));
        assertEquals(4000, V2Pipeline.innerLimit(100, 4000));
        assertEquals(Integer.MAX_VALUE - 16, V2Pipeline.innerLimit(1L << 30, 1L << 30));
        // a zlib stage before an astype may give 8 bytes per element, not more
        CodecPipeline p = v2(
                config("{\"id\":\"zlib\"}"),
                List.of(config("{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\"}")),
                false,
                new ArrayList<>(),
                new ArrayList<>());
        byte[] tooMuch = zlib(new byte[801]);
        CodecException e = assertThrows(CodecException.class, () -> p.decodeInto(tooMuch, new byte[800], 800));
        assertTrue(e.getMessage().startsWith("zlib"), e.getMessage());
        byte[] f4 = zlib(new byte[400]);
        assertArrayEquals(new byte[800], p.decodeInto(f4, new byte[800], 800));
    }

    private static byte[] zlib(byte[] data) {
        Deflater d = new Deflater();
        d.setInput(data);
        d.finish();
        byte[] buf = new byte[data.length + 64];
        int n = d.deflate(buf);
        d.end();
        return java.util.Arrays.copyOf(buf, n);
    }
}
