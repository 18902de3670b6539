package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.CodecException;
import io.nczarr.model.ArrayMeta;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Filter parameters as this autumn's producers write them; unknown or invalid ones are errors. */
class AutumnFiltersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();

    private static Codec codec(String json, String dtype) throws IOException {
        JsonNode n = JSON.readTree(json);
        return REGISTRY.create(new CodecConfig(n.get("id").asText(), n, dtype));
    }

    /** Shuffles {@code plain} by {@code es} as HDF5/numcodecs do. */
    private static byte[] shuffle(byte[] plain, int es) {
        int n = plain.length / es;
        byte[] out = new byte[plain.length];
        for (int i = 0; i < n; i++) {
            for (int b = 0; b < es; b++) {
                out[b * n + i] = plain[i * es + b];
            }
        }
        return out;
    }

    private static byte[] sequence(int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (i * 7 + 3);
        }
        return b;
    }

    @Test
    void netcdfC410ElementSizeZeroIsTheItemSizeInNcZarr() throws IOException {
        byte[] plain = sequence(64);
        for (String dtype : new String[] {"<f8", "<i4", ">u2", "<i8"}) {
            int es = Integer.parseInt(dtype.substring(2));
            byte[] stored = shuffle(plain, es);
            for (String zero : new String[] {"0", "\"0\""}) {
                ArrayMeta a = ArrayMeta.parse(
                        "ds",
                        "v/.zarray",
                        JSON.readTree("{\"zarr_format\":2,\"shape\":[8],\"chunks\":[8],\"dtype\":\"" + dtype
                                + "\",\"fill_value\":0,\"order\":\"C\",\"compressor\":null,"
                                + "\"filters\":[{\"id\":\"shuffle\",\"elementsize\":" + zero + "}]}"));
                CodecConfig nczarr = a.withNetcdfCFilters().filters().get(0);
                BytesBytesCodec c = (BytesBytesCodec) REGISTRY.create(nczarr);
                assertArrayEquals(plain, c.decode(stored, 1 << 20), dtype + " elementsize " + zero + " (netcdf-c)");
                // numcodecs reads 0 as "no shuffle" (the shared codec fixtures check that rule)
                BytesBytesCodec pure =
                        (BytesBytesCodec) REGISTRY.create(a.filters().get(0));
                assertArrayEquals(stored, pure.decode(stored, 1 << 20), dtype + " elementsize 0 (numcodecs)");
            }
            BytesBytesCodec absent = (BytesBytesCodec) codec("{\"id\":\"shuffle\"}", dtype);
            assertArrayEquals(plain, absent.decode(stored, 1 << 20), dtype + " no elementsize");
        }
    }

    @Test
    void explicitElementSizeWins() throws IOException {
        byte[] plain = sequence(48);
        BytesBytesCodec c = (BytesBytesCodec) codec("{\"id\":\"shuffle\",\"elementsize\":4}", "<f8");
        assertArrayEquals(plain, c.decode(shuffle(plain, 4), 1 << 20));
    }

    @Test
    void unknownOrInvalidShuffleParametersAreErrors() {
        CodecException unknown = assertThrows(
                CodecException.class, () -> codec("{\"id\":\"shuffle\",\"elementsize\":8,\"blocksize\":4}", "<f8"));
        assertTrue(unknown.getMessage().contains("blocksize"), unknown.getMessage());
        assertThrows(CodecException.class, () -> codec("{\"id\":\"shuffle\",\"elementsize\":-1}", "<f8"));
        assertThrows(CodecException.class, () -> codec("{\"id\":\"shuffle\",\"elementsize\":\"x\"}", "<f8"));
    }

    @Test
    void unknownArrayFilterParametersAreErrors() {
        String[] bad = {
            "{\"id\":\"delta\",\"dtype\":\"<f8\",\"step\":2}",
            "{\"id\":\"fixedscaleoffset\",\"dtype\":\"<f8\",\"astype\":\"<i2\",\"scale\":10,\"offset\":0,\"bias\":1}",
            "{\"id\":\"astype\",\"encode_dtype\":\"<f4\",\"decode_dtype\":\"<f8\",\"round\":1}",
            "{\"id\":\"quantize\",\"digits\":3,\"dtype\":\"<f8\",\"mode\":\"x\"}",
            "{\"id\":\"bitround\",\"keepbits\":3,\"mode\":\"x\"}",
            "{\"id\":\"packbits\",\"padding_encoding\":\"first_byte\"}"
        };
        for (String json : bad) {
            assertThrows(CodecException.class, () -> codec(json, "<f8"), json);
        }
    }

    @Test
    void zstdWithSeveralFramesOrNoContentSize() throws IOException {
        byte[] a = sequence(3000);
        byte[] b = sequence(5000);
        byte[] both = new byte[a.length + b.length];
        System.arraycopy(a, 0, both, 0, a.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        byte[] fa = com.github.luben.zstd.Zstd.compress(a);
        byte[] fb = com.github.luben.zstd.Zstd.compress(b);
        byte[] frames = new byte[fa.length + fb.length];
        System.arraycopy(fa, 0, frames, 0, fa.length);
        System.arraycopy(fb, 0, frames, fa.length, fb.length);
        BytesBytesCodec zstd = (BytesBytesCodec) codec("{\"id\":\"zstd\"}", "|u1");
        assertArrayEquals(both, zstd.decode(frames, both.length), "two frames (numcodecs >= 0.16.4 reads them)");
        java.io.ByteArrayOutputStream bos = new java.io.ByteArrayOutputStream();
        try (com.github.luben.zstd.ZstdOutputStream z = new com.github.luben.zstd.ZstdOutputStream(bos)) {
            z.write(both); // streaming: the frame header has no content size
        }
        assertArrayEquals(both, zstd.decode(bos.toByteArray(), both.length), "no content size");
        assertThrows(CodecException.class, () -> zstd.decode(frames, both.length - 1), "bounded");
    }
}
