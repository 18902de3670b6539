package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/** Fill rules of SCHEMA.md as changed 2026-11-25: v3 _FillValue from the attribute only; base64 fills. */
class AutumnFillTest {

    static VarModel var(DatasetModel m, String name) {
        return m.root().variables().stream()
                .filter(v -> v.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static Attr fillAttr(VarModel v) {
        return v.attributes().stream()
                .filter(a -> a.name().equals("_FillValue"))
                .findFirst()
                .orElse(null);
    }

    static String v3(String dtype, String fill, String attrs) {
        return ZarrV3ReaderTest.array("")
                .replace("\"int16\"", dtype)
                .replace("\"fill_value\":-7", "\"fill_value\":" + fill)
                .replace("\"attributes\":{}", "\"attributes\":" + attrs);
    }

    @Test
    void v3FillValueFillsMissingChunksButIsNoFillValueAttribute() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ZarrV3ReaderTest.ROOT)
                .put("mask/zarr.json", v3("\"bool\"", "false", "{}"))
                .put("zero/zarr.json", v3("\"int16\"", "0", "{}"))
                .put("seven/zarr.json", v3("\"int16\"", "-7", "{}"))
                .put("attr/zarr.json", v3("\"float64\"", "\"NaN\"", "{\"_FillValue\":\"AAAAAAA4j8A=\"}"))
                .put("plain/zarr.json", v3("\"float32\"", "0.0", "{\"_FillValue\":-1.5}"))
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        for (String n : new String[] {"mask", "zero", "seven"}) {
            assertNull(fillAttr(var(m, n)), n + ": fill_value is not _FillValue");
        }
        short[] seven = (short[]) new ChunkReader(s, var(m, "seven"), CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {-7, -7, -7, -7}, seven, "fill_value still fills missing chunks");
        assertArrayEquals(
                new double[] {-999.0}, (double[]) fillAttr(var(m, "attr")).value());
        assertArrayEquals(
                new float[] {-1.5f}, (float[]) fillAttr(var(m, "plain")).value());
    }

    @Test
    void v3NatFillValueIsTheFillValueOfTimes() throws IOException {
        String dt = "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":1}}";
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ZarrV3ReaderTest.ROOT)
                .put("nat/zarr.json", v3(dt, "\"NaT\"", "{}"))
                .put("natint/zarr.json", v3(dt, "-9223372036854775808", "{}"))
                .put("zero/zarr.json", v3(dt, "0", "{}"))
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        assertArrayEquals(
                new long[] {Long.MIN_VALUE}, (long[]) fillAttr(var(m, "nat")).value());
        assertArrayEquals(
                new long[] {Long.MIN_VALUE}, (long[]) fillAttr(var(m, "natint")).value());
        assertNull(fillAttr(var(m, "zero")));
    }

    @Test
    void virtualiZarrBase64FillValueInV2Zattrs() throws IOException {
        String zarray = "{\"zarr_format\":2,\"shape\":[2],\"chunks\":[2],\"dtype\":\"%s\",\"fill_value\":%s,"
                + "\"order\":\"C\",\"compressor\":null,\"filters\":null,\"attributes\":{}}";
        MemoryStore s = MemoryStore.builder("mem:vz")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put("f8/.zarray", String.format(zarray, "<f8", "\"NaN\""))
                .put("f8/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"x\"],\"_FillValue\":\"AAAAAAA4j8A=\"}")
                .put("f4/.zarray", String.format(zarray, "<f4", "0.0"))
                .put("f4/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"x\"],\"_FillValue\":\"AAAAAAA4j8A=\"}")
                .put("i2/.zarray", String.format(zarray, "<i2", "0"))
                .put("i2/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"x\"],\"_FillValue\":\"AID//w==\"}")
                .put("u2/.zarray", String.format(zarray, "<u2", "0"))
                .put("u2/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"x\"],\"_FillValue\":\"//8=\"}")
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        assertArrayEquals(
                new double[] {-999.0}, (double[]) fillAttr(var(m, "f8")).value());
        assertArrayEquals(
                new float[] {-999.0f}, (float[]) fillAttr(var(m, "f4")).value());
        // 4 bytes on an int16 array: an int32 value converted (-32768 fits)
        assertArrayEquals(
                new short[] {(short) 0x8000}, (short[]) fillAttr(var(m, "i2")).value());
        assertArrayEquals(
                new short[] {(short) 0xFFFF}, (short[]) fillAttr(var(m, "u2")).value());
        assertEquals(4, m.root().variables().size());
    }

    @Test
    void kerchunkArrayDimensionsWithAGroupPathDefineTheDimensionInThatGroup() throws IOException {
        String zarray = "{\"zarr_format\":2,\"shape\":[%d],\"chunks\":[%d],\"dtype\":\"<i4\",\"fill_value\":0,"
                + "\"order\":\"C\",\"compressor\":null,\"filters\":null}";
        MemoryStore s = MemoryStore.builder("mem:kerchunk")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put("obs/.zgroup", "{\"zarr_format\":2}")
                .put("obs/station/.zarray", String.format(zarray, 3, 3))
                .put("obs/station/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"obs/station\"]}")
                .put("obs/temp/.zarray", String.format(zarray, 3, 3))
                .put("obs/temp/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"obs/station\"]}")
                .put("lat/.zarray", String.format(zarray, 2, 2))
                .put("lat/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"lat\"]}")
                .put("bad/.zarray", String.format(zarray, 2, 2))
                .put("bad/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"nogroup/x\"]}")
                .put("up/.zarray", String.format(zarray, 2, 2))
                .put("up/.zattrs", "{\"_ARRAY_DIMENSIONS\":[\"../..\"]}")
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        assertEquals(java.util.List.of("/lat"), var(m, "lat").dimensions());
        assertEquals(java.util.List.of("/_zdim_2"), var(m, "bad").dimensions(), "no group 'nogroup': anonymous");
        assertEquals(java.util.List.of("/_zdim_2"), var(m, "up").dimensions(), "'../..' escapes: anonymous");
        io.nczarr.model.GroupModel obs = m.root().groups().get(0);
        assertEquals("station", obs.dimensions().get(0).name());
        assertEquals(3, obs.dimensions().get(0).length());
        for (VarModel v : obs.variables()) {
            assertEquals(java.util.List.of("/obs/station"), v.dimensions(), v.name());
        }
        assertEquals(
                java.util.Set.of("lat", "_zdim_2"),
                m.root().dimensions().stream()
                        .map(io.nczarr.model.Dim::name)
                        .collect(java.util.stream.Collectors.toSet()));
    }

    @Test
    void netcdfCPureZarrScalarsHaveShapeEmpty() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:scalar")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put(".zattrs", "{\"title\":\"netcdf-c main, mode=zarr\"}")
                .put(
                        "s/.zarray",
                        "{\"zarr_format\":2,\"shape\":[],\"chunks\":[],\"dtype\":\"<f8\",\"fill_value\":9.96921e+36,"
                                + "\"order\":\"C\",\"compressor\":null,\"filters\":null,\"dimension_separator\":\".\"}")
                .put("s/.zattrs", "{\"_ARRAY_DIMENSIONS\":[],\"units\":\"K\"}")
                .put(
                        "s/0",
                        java.nio.ByteBuffer.allocate(8)
                                .order(java.nio.ByteOrder.LITTLE_ENDIAN)
                                .putDouble(273.15)
                                .array())
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.AUTO, true);
        VarModel v = var(m, "s");
        assertEquals(0, v.shape().length);
        assertEquals(java.util.List.of(), v.dimensions());
        double[] d = (double[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new double[] {273.15}, d);
    }
}
