package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.MetadataException;
import io.nczarr.error.UnknownCodecException;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Zarr v2 partial open, float16, datetime64 / timedelta64 (issue 12). */
class ZarrV2DtypesTest {

    static String zarray(String dtype, String extra) {
        return "{\"zarr_format\":2,\"shape\":[4],\"chunks\":[4],\"dtype\":" + dtype
                + ",\"compressor\":null,\"filters\":null,\"fill_value\":null,\"order\":\"C\"" + extra + "}";
    }

    static MemoryStore.Builder dataset() {
        return MemoryStore.builder("mem:v2").put(".zgroup", "{\"zarr_format\":2}");
    }

    static DatasetModel read(Store s) throws IOException {
        return MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
    }

    static VarModel var(DatasetModel m, String name) {
        return m.root().variables().stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static String attr(List<Attr> attrs, String name) {
        return attrs.stream()
                .filter(a -> a.name().equals(name))
                .map(a -> a.value() instanceof String s ? s : String.valueOf(a.value()))
                .findFirst()
                .orElse(null);
    }

    static Object read(Store s, VarModel v) throws IOException {
        return new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
    }

    static byte[] shorts(ByteOrder order, int... v) {
        ByteBuffer b = ByteBuffer.allocate(2 * v.length).order(order);
        for (int x : v) {
            b.putShort((short) x);
        }
        return b.array();
    }

    static byte[] longs(long... v) {
        ByteBuffer b = ByteBuffer.allocate(8 * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (long x : v) {
            b.putLong(x);
        }
        return b.array();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "\"|V8\"",
                "[[\"a\",\"<U4\"]]",
                "[[\"a\",\"<f2\"]]",
                "[[\"a\",\"|O\"]]",
                "\"<M8[Y]\"",
                "\"<m8\"",
                "\"|S0\"",
                "\"|O\""
            })
    void anArrayOfAnUnknownTypeIsLeftOutAndListed(String dtype) throws IOException {
        Store s = dataset()
                .put("good/.zarray", zarray("\"<i4\"", ""))
                .put("odd/.zarray", zarray(dtype, ""))
                .build();
        DatasetModel m = read(s);
        assertEquals(
                List.of("good"),
                m.root().variables().stream().map(VarModel::name).toList());
        String u = attr(m.root().attributes(), UnreadableArrays.ATTRIBUTE);
        assertTrue(u != null && u.startsWith("/odd: "), u);
    }

    @Test
    void unreadableArraysInGroupsAreListedByPathOneLineEach() throws IOException {
        Store s = dataset()
                .put("a/.zarray", zarray("\"|V8\"", ""))
                .put("g/.zgroup", "{\"zarr_format\":2}")
                .put("g/b/.zarray", zarray("[[\"x\",\"<U8\"]]", ""))
                .build();
        String u = attr(read(s).root().attributes(), UnreadableArrays.ATTRIBUTE);
        String[] lines = u.split("\n");
        assertEquals(2, lines.length, u);
        assertTrue(lines[0].startsWith("/a: dtype '|V8'"), lines[0]);
        assertTrue(lines[1].startsWith("/g/b: structured dtype"), lines[1]);
    }

    @Test
    void brokenMetadataStillFailsTheOpen() {
        Store s = dataset().put("v/.zarray", zarray("5", "")).build();
        assertThrows(MetadataException.class, () -> read(s));
        Store t = dataset().put("v/.zarray", zarray("\"<<i4\"", "")).build();
        assertThrows(MetadataException.class, () -> read(t));
    }

    @Test
    void anUnknownCodecOpensAndFailsOnRead() throws IOException {
        Store s = dataset()
                .put(
                        "v/.zarray",
                        zarray("\"<i4\"", "").replace("\"compressor\":null", "\"compressor\":{\"id\":\"nosuchcodec\"}"))
                .put("v/0", new byte[16])
                .build();
        VarModel v = var(read(s), "v");
        assertEquals(NcType.INT, v.type());
        UnknownCodecException e = assertThrows(UnknownCodecException.class, () -> read(s, v));
        assertEquals("nosuchcodec", e.codecId());
        assertEquals("v", e.variable());
        assertEquals("mem:v2", e.dataset());
    }

    @Test
    void float16IsReadAsFloatExactly() throws IOException {
        // bit patterns as numpy.float16 writes them: 1.0, -2.0, 65504 (max), smallest subnormal,
        // +inf, -inf, NaN, -0.0, 0.333 (0x3555), largest subnormal
        int[] bits = {0x3C00, 0xC000, 0x7BFF, 0x0001, 0x7C00, 0xFC00, 0x7E00, 0x8000, 0x3555, 0x03FF};
        float[] want = {
            1.0f,
            -2.0f,
            65504f,
            0x1p-24f,
            Float.POSITIVE_INFINITY,
            Float.NEGATIVE_INFINITY,
            Float.NaN,
            -0.0f,
            0.333251953125f,
            1023 * 0x1p-24f
        };
        for (ByteOrder order : List.of(ByteOrder.LITTLE_ENDIAN, ByteOrder.BIG_ENDIAN)) {
            String dt = order == ByteOrder.BIG_ENDIAN ? "\">f2\"" : "\"<f2\"";
            Store s = dataset()
                    .put("h/.zarray", zarray(dt, "").replace("[4]", "[10]"))
                    .put("h/0", shorts(order, bits))
                    .build();
            VarModel v = var(read(s), "h");
            assertEquals(NcType.FLOAT, v.type());
            float[] got = (float[]) read(s, v);
            assertEquals(want.length, got.length);
            for (int i = 0; i < want.length; i++) {
                assertEquals(Float.floatToIntBits(want[i]), Float.floatToIntBits(got[i]), dt + " element " + i);
            }
        }
    }

    @Test
    void float16FillAndMissingChunks() throws IOException {
        Store s = dataset()
                .put("h/.zarray", zarray("\"<f2\"", "").replace("\"fill_value\":null", "\"fill_value\":\"NaN\""))
                .build();
        VarModel v = var(read(s), "h");
        float[] got = (float[]) read(s, v);
        assertTrue(Float.isNaN(got[0]) && Float.isNaN(got[3]));
        Store t = dataset()
                .put("h/.zarray", zarray("\"<f2\"", "").replace("\"fill_value\":null", "\"fill_value\":1.5"))
                .build();
        assertArrayEquals(new float[] {1.5f, 1.5f, 1.5f, 1.5f}, (float[]) read(t, var(read(t), "h")));
    }

    @Test
    void float16WithAFilterAndACompressorDecodesInOrder() throws IOException {
        byte[] raw = shorts(ByteOrder.LITTLE_ENDIAN, 0x3C00, 0x4000, 0x4200, 0x4400);
        java.io.ByteArrayOutputStream z = new java.io.ByteArrayOutputStream();
        try (java.util.zip.DeflaterOutputStream d = new java.util.zip.DeflaterOutputStream(z)) {
            d.write(raw);
        }
        Store s = dataset()
                .put(
                        "h/.zarray",
                        zarray("\"<f2\"", "")
                                .replace("\"compressor\":null", "\"compressor\":{\"id\":\"zlib\",\"level\":1}"))
                .put("h/0", z.toByteArray())
                .build();
        assertArrayEquals(new float[] {1f, 2f, 3f, 4f}, (float[]) read(s, var(read(s), "h")));
    }

    @Test
    void datetime64IsInt64WithCfUnitsAndNatFill() throws IOException {
        Store s = dataset()
                .put("t/.zarray", zarray("\"<M8[ns]\"", ""))
                .put("t/0", longs(0, 1_000_000_000L, Long.MIN_VALUE, -1))
                .put("d/.zarray", zarray("\"<m8[s]\"", "").replace("\"fill_value\":null", "\"fill_value\":0"))
                .put("n/.zarray", zarray("\"<M8[D]\"", "").replace("\"fill_value\":null", "\"fill_value\":\"NaT\""))
                .build();
        DatasetModel m = read(s);
        VarModel t = var(m, "t");
        assertEquals(NcType.INT64, t.type());
        assertEquals("nanoseconds since 1970-01-01T00:00:00", attr(t.attributes(), "units"));
        assertEquals("proleptic_gregorian", attr(t.attributes(), "calendar"));
        assertArrayEquals(new long[] {Long.MIN_VALUE}, (long[]) t.attributes().stream()
                .filter(a -> a.name().equals("_FillValue"))
                .findFirst()
                .orElseThrow()
                .value());
        assertArrayEquals(new long[] {0, 1_000_000_000L, Long.MIN_VALUE, -1}, (long[]) read(s, t));

        VarModel d = var(m, "d");
        assertEquals("seconds", attr(d.attributes(), "units"));
        assertNull(attr(d.attributes(), "calendar"));
        assertArrayEquals(new long[] {0, 0, 0, 0}, (long[]) read(s, d));

        VarModel n = var(m, "n");
        assertEquals("days since 1970-01-01T00:00:00", attr(n.attributes(), "units"));
        assertArrayEquals(
                new long[] {Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE}, (long[]) read(s, n));
    }

    @Test
    void anExistingUnitsAttributeIsKept() throws IOException {
        Store s = dataset()
                .put("t/.zarray", zarray("\"<M8[s]\"", ""))
                .put("t/.zattrs", "{\"units\":\"mine\"}")
                .build();
        assertEquals("mine", attr(var(read(s), "t").attributes(), "units"));
    }

    @Test
    void timeUnitsRules() {
        assertEquals(
                "microseconds since 1970-01-01T00:00:00",
                TimeUnits.of(">M8[us]").cfUnits());
        assertEquals("hours", TimeUnits.of("<m8[h]").cfUnits());
        assertNull(TimeUnits.of("<M8[M]"));
        assertNull(TimeUnits.of("<M8[10s]"));
        assertNull(TimeUnits.of("<M8"));
    }
}
