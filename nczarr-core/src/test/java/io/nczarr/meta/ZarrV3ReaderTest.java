package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.UnsupportedFeatureException;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.store.Store;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Zarr v3 metadata: detection, extensions, consolidated metadata without listing, keys, fills. */
class ZarrV3ReaderTest {

    static final String ROOT = "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{\"title\":\"t\"}}";

    static String array(String extra) {
        return "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[4],\"data_type\":\"int16\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}},"
                + "\"fill_value\":-7,\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}],"
                + "\"dimension_names\":[\"x\"],\"attributes\":{}" + extra + "}";
    }

    static DatasetModel read(Store s) throws IOException {
        return MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
    }

    @Test
    void anArrayReadsWithBigEndianBytesAndFillForMissingChunks() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array(""))
                .put("v/c/0", new byte[] {0, 1, (byte) 0xff, (byte) 0xfe})
                .build();
        DatasetModel m = read(s);
        assertEquals("Zarr v3", m.conventions());
        VarModel v = m.root().variables().get(0);
        assertEquals(List.of("/x"), v.dimensions());
        assertEquals(NcType.SHORT, v.type());
        short[] data = (short[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {1, -2, -7, -7}, data);
    }

    @Test
    void anExtensionThatMayBeIgnoredIsIgnored() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array(",\"org.example.ext\":{\"must_understand\":false,\"x\":1}"))
                .build();
        assertEquals(1, read(s).root().variables().size());
    }

    @Test
    void anExtensionThatMustBeUnderstoodIsNamed() {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array(",\"org.example.ext\":{\"must_understand\":true}"))
                .build();
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> read(s));
        assertTrue(e.getMessage().contains("org.example.ext"), e.getMessage());
        assertEquals("v/zarr.json", e.key());
    }

    @Test
    void anUnknownChunkGridIsUnsupported() {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array("").replace("\"regular\"", "\"hexagonal\""))
                .build();
        UnsupportedFeatureException e = assertThrows(UnsupportedFeatureException.class, () -> read(s));
        assertTrue(e.getMessage().contains("hexagonal"), e.getMessage());
    }

    @Test
    void aRootArrayIsARootGroupWithThatVariable() throws IOException {
        MemoryStore s = MemoryStore.builder("file:///data/cube.zarr/temp%20K")
                .put("zarr.json", array(""))
                .put("c/0", new byte[] {0, 1, (byte) 0xff, (byte) 0xfe})
                .build();
        DatasetModel m = read(s);
        assertEquals(1, m.root().variables().size());
        VarModel v = m.root().variables().get(0);
        assertEquals("temp K", v.name());
        assertEquals(List.of("/x"), v.dimensions());
        short[] data = (short[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {1, -2, -7, -7}, data);
    }

    @Test
    void aRootArrayIsNamedAfterTheLastSegmentOfTheLocation() {
        assertEquals("field", LoneArray.name("http://127.0.0.1:9/bucket/v3.zarr/field"));
        assertEquals("field", LoneArray.name("s3://bucket/v3.zarr/field/#mode=zarr,s3"));
        assertEquals("a+b", LoneArray.name("file:///x/a+b"));
        assertEquals("array", LoneArray.name("mem:v3"));
        assertEquals("array", LoneArray.name("http://host/"));
    }

    @Test
    void aV2RootArrayIsARootGroupWithThatVariable() throws IOException {
        String zarray = "{\"zarr_format\":2,\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i2\",\"compressor\":null,"
                + "\"fill_value\":-7,\"filters\":null,\"order\":\"C\"}";
        MemoryStore s = MemoryStore.builder("file:///data/x.zarr/v")
                .put(".zarray", zarray)
                .put(".zattrs", "{\"_ARRAY_DIMENSIONS\":[\"x\"],\"units\":\"m\"}")
                .put("0", new byte[] {1, 0, (byte) 0xfe, (byte) 0xff})
                .build();
        DatasetModel m = read(s);
        assertEquals("Zarr v2", m.conventions());
        VarModel v = m.root().variables().get(0);
        assertEquals("v", v.name());
        assertEquals(List.of("/x"), v.dimensions());
        assertEquals(
                List.of("x"), m.root().dimensions().stream().map(d -> d.name()).toList());
        short[] data = (short[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {1, -2, -7, -7}, data);
    }

    @Test
    void inlineConsolidatedMetadataNeedsNoListing() throws IOException {
        String root = "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{},\"consolidated_metadata\":"
                + "{\"kind\":\"inline\",\"must_understand\":false,\"metadata\":{"
                + "\"g\":{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{\"a\":1}},"
                + "\"g/v\":" + array("") + "}}}";
        MemoryStore mem = MemoryStore.builder("mem:v3").put("zarr.json", root).build();
        Store noList = new NoListStore(mem);
        DatasetModel m = read(noList);
        assertEquals("g", m.root().groups().get(0).name());
        assertEquals("v", m.root().groups().get(0).variables().get(0).name());
        assertEquals(List.of("/x"), m.root().groups().get(0).variables().get(0).dimensions());
    }

    @Test
    void unmappedDataTypesAreListedAsUnreadable() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array("").replace("\"int16\"", "\"r12\""))
                .build();
        DatasetModel m = read(s);
        assertTrue(m.root().variables().isEmpty());
        Attr u = m.root().attributes().stream()
                .filter(a -> a.name().equals("_unreadable_arrays"))
                .findFirst()
                .orElseThrow();
        assertTrue(
                u.value().toString().contains("/v: data type 'r12'"), u.value().toString());
    }

    @Test
    void float8AndSubByteTypesAreNamedNotSupported() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("f/zarr.json", array("").replace("\"int16\"", "\"float8_e4m3\""))
                .put("i/zarr.json", array("").replace("\"int16\"", "\"int4\""))
                .put("v/zarr.json", array(""))
                .build();
        DatasetModel m = read(s);
        assertEquals(1, m.root().variables().size());
        String u = m.root().attributes().stream()
                .filter(a -> a.name().equals("_unreadable_arrays"))
                .findFirst()
                .orElseThrow()
                .value()
                .toString();
        assertTrue(u.contains("/f: data type 'float8_e4m3' is not supported (no netCDF type holds it)"), u);
        assertTrue(u.contains("/i: data type 'int4' is not supported"), u);
    }

    @Test
    void numpyDatetime64AndTimedelta64AreInt64WithCfUnits() throws IOException {
        String dt = "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"ns\",\"scale_factor\":1}}";
        String td = "{\"name\":\"numpy.timedelta64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":1}}";
        String odd = "{\"name\":\"numpy.datetime64\",\"configuration\":{\"unit\":\"s\",\"scale_factor\":10}}";
        byte[] chunk = java.nio.ByteBuffer.allocate(16)
                .putLong(5)
                .putLong(Long.MIN_VALUE)
                .array();
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put(
                        "t/zarr.json",
                        array("").replace("\"int16\"", dt).replace("\"fill_value\":-7", "\"fill_value\":\"NaT\""))
                .put("t/c/0", chunk)
                .put("d/zarr.json", array("").replace("\"int16\"", td))
                .put("o/zarr.json", array("").replace("\"int16\"", odd))
                .build();
        DatasetModel m = read(s);
        VarModel t = m.root().variables().stream()
                .filter(v -> v.name().equals("t"))
                .findFirst()
                .orElseThrow();
        assertEquals(NcType.INT64, t.type());
        assertEquals("nanoseconds since 1970-01-01T00:00:00", attr(t, "units"));
        assertEquals("proleptic_gregorian", attr(t, "calendar"));
        long[] data = (long[]) new ChunkReader(s, t, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new long[] {5, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE}, data);
        VarModel d = m.root().variables().stream()
                .filter(v -> v.name().equals("d"))
                .findFirst()
                .orElseThrow();
        assertEquals("seconds", attr(d, "units"));
        long[] dd = (long[]) new ChunkReader(s, d, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new long[] {-7, -7, -7, -7}, dd);
        assertEquals(2, m.root().variables().size());
        assertTrue(m.root().attributes().stream()
                .anyMatch(a -> a.name().equals("_unreadable_arrays")
                        && a.value().toString().startsWith("/o: ")));
    }

    private static String attr(VarModel v, String name) {
        return v.attributes().stream()
                .filter(a -> a.name().equals(name))
                .map(a -> String.valueOf(a.value()))
                .findFirst()
                .orElse(null);
    }

    @Test
    void hexAndSpecialFillValues() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put(
                        "a/zarr.json",
                        array("").replace("\"int16\"", "\"float32\"").replace("-7", "\"0x3fc00000\""))
                .put(
                        "b/zarr.json",
                        array("").replace("\"int16\"", "\"float16\"").replace("-7", "\"-Infinity\""))
                .put(
                        "c/zarr.json",
                        array("")
                                .replace("\"int16\"", "\"bool\"")
                                .replace("-7", "true")
                                .replace("\"endian\":\"big\"", "\"endian\":\"little\""))
                .build();
        List<VarModel> vars = read(s).root().variables();
        assertEquals(1.5f, vars.get(0).fill());
        assertEquals(Float.NEGATIVE_INFINITY, vars.get(1).fill());
        assertEquals(NcType.FLOAT, vars.get(1).type(), "float16 widens to float");
        assertEquals(NcType.UBYTE, vars.get(2).type());
        assertEquals((byte) 1, vars.get(2).fill());
    }

    @Test
    void v2KeyEncodingAndZeroDimensionalKeys() throws IOException {
        String v2keys = array("")
                .replace(
                        "{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}}",
                        "{\"name\":\"v2\",\"configuration\":{\"separator\":\".\"}}");
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", v2keys)
                .put("v/1", new byte[] {0, 5, 0, 6})
                .build();
        VarModel v = read(s).root().variables().get(0);
        assertEquals("v/1", v.array().v3().chunkKey("v", new long[] {1}, 1));
        assertEquals("v/0", v.array().v3().chunkKey("v", new long[0], 0));
        short[] data = (short[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {-7, -7, 5, 6}, data);
    }

    /** A store whose listing fails: consolidated metadata must not need it. */
    private record NoListStore(Store inner) implements Store {
        @Override
        public String location() {
            return inner.location();
        }

        @Override
        public Optional<byte[]> get(String key) throws IOException {
            return inner.get(key);
        }

        @Override
        public Optional<byte[]> getRange(String key, long offset, int length) throws IOException {
            return inner.getRange(key, offset, length);
        }

        @Override
        public List<String> list(String prefix) {
            throw new AssertionError("listed " + prefix);
        }

        @Override
        public void close() throws IOException {
            inner.close();
        }
    }
}
