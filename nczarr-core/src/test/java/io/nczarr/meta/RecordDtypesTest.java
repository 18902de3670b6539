package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.CompoundType;
import io.nczarr.error.MetadataException;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import io.nczarr.model.StructuredDtype;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Complex and structured dtypes as records (issue 12): layout, fills as zarr-python encodes them,
 * reads of packed records. End-to-end values from zarr-python are in test-data/dtypes/records.zarr
 * (DtypesConformanceTest); these pin the rules.
 */
class RecordDtypesTest {

    @Test
    void structuredLayoutFollowsNumpyPacking() throws Exception {
        JsonNode d = MetadataTest.json("[[\"a\",\"<i4\"],[\"b\",\"<f8\",[2]],[\"s\",\"|S3\"],[\"\",\"|V2\"],"
                + "[\"n\",[[\"x\",\"|u1\"],[\"y\",\">i2\"]],[2]],[\"z\",\"<c8\"],[\"k\",\"|b1\"]]");
        CompoundType t = StructuredDtype.parse(d);
        // a 4 + b 16 + s 3 + padding 2 + n 2*3 + z 8 + k 1
        assertEquals(40, t.itemsize());
        assertEquals(6, t.members().size());
        assertEquals(4, t.members().get(1).offset());
        assertArrayEquals(new int[] {2}, t.members().get(1).shape());
        assertArrayEquals(new int[] {3}, t.members().get(2).shape(), "|S3: char along one more axis");
        assertEquals(25, t.members().get(3).offset(), "after the padding");
        assertEquals(3, t.members().get(3).nested().itemsize());
        assertEquals("real", t.members().get(4).nested().members().get(0).name(), "complex: real, imag");
        assertEquals(39, t.members().get(5).offset());
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "[]",
                "[[\"a\"]]",
                "[[\"a\",\"<U2\"]]",
                "[[\"a\",\"<f2\"]]",
                "[[\"a\",\"|O\"]]",
                "[[\"a\",\"<i4\"],[\"a\",\"<i4\"]]",
                "[[\"a\",\"<i4\",[0]]]",
                "[[\"a\",\"<i4\",[99999999]]]",
                "[[\"\",\"|V4\"]]",
                "[[\"a\",5]]"
            })
    void structuredDtypesWithoutARuleAreRefusedWithAReason(String descr) throws Exception {
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> StructuredDtype.parse(MetadataTest.json(descr)));
        assertTrue(e.getMessage() != null && !e.getMessage().isEmpty());
    }

    @Test
    void deeplyNestedStructuredDtypesAreRefused() throws Exception {
        String d = "[[\"x\",\"<i4\"]]";
        for (int i = 0; i < CompoundType.MAX_DEPTH + 2; i++) {
            d = "[[\"n\"," + d + "]]";
        }
        JsonNode n = MetadataTest.json(d);
        assertThrows(IllegalArgumentException.class, () -> StructuredDtype.parse(n));
    }

    @Test
    void complexReadsAsRealAndImagWithItsFillForMissingChunks() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
        chunk.putDouble(1.5).putDouble(-2);
        MemoryStore s = ZarrV2DtypesTest.dataset()
                .put(
                        "c/.zarray",
                        ZarrV2DtypesTest.zarray("\">c16\"", "")
                                .replace("\"chunks\":[4]", "\"chunks\":[1]")
                                .replace("\"fill_value\":null", "\"fill_value\":[\"NaN\",-0.0]"))
                .put("c/0", chunk.array())
                .build();
        DatasetModel m = ZarrV2DtypesTest.read(s);
        VarModel c = ZarrV2DtypesTest.var(m, "c");
        assertEquals(NcType.STRUCTURE, c.type());
        assertEquals(ElementType.Layout.RECORD, c.element().layout());
        assertTrue(c.attributes().stream().noneMatch(a -> a.name().equals("_FillValue")));
        ByteBuffer r = ByteBuffer.wrap((byte[]) ZarrV2DtypesTest.read(s, c)).order(ByteOrder.BIG_ENDIAN);
        assertEquals(1.5, r.getDouble(0));
        assertEquals(-2.0, r.getDouble(8));
        assertTrue(Double.isNaN(r.getDouble(16)), "fill real");
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(r.getDouble(24)), "fill imag");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1.5", "[1]", "[\"x\", 1]", "\"AAAA\""})
    void aComplexFillZarrPythonRefusesFailsTheOpenNamingTheDtype(String fill) {
        MemoryStore s = ZarrV2DtypesTest.dataset()
                .put(
                        "c/.zarray",
                        ZarrV2DtypesTest.zarray("\"<c16\"", "")
                                .replace("\"fill_value\":null", "\"fill_value\":" + fill))
                .build();
        MetadataException e = assertThrows(MetadataException.class, () -> ZarrV2DtypesTest.read(s));
        assertTrue(e.getMessage().contains("<c16") && e.getMessage().contains("dtype"), e.getMessage());
    }

    @Test
    void structuredFillIsBase64OfOneRecord() throws IOException {
        byte[] rec = ByteBuffer.allocate(6)
                .order(ByteOrder.LITTLE_ENDIAN)
                .putInt(-7)
                .putShort((short) 3)
                .array();
        String fill = "\"" + Base64.getEncoder().encodeToString(rec) + "\"";
        MemoryStore s = ZarrV2DtypesTest.dataset()
                .put(
                        "r/.zarray",
                        ZarrV2DtypesTest.zarray("[[\"a\",\"<i4\"],[\"b\",\"<i2\"]]", "")
                                .replace("\"fill_value\":null", "\"fill_value\":" + fill))
                .build();
        VarModel r = ZarrV2DtypesTest.var(ZarrV2DtypesTest.read(s), "r");
        byte[] all = (byte[]) ZarrV2DtypesTest.read(s, r);
        assertEquals(24, all.length);
        for (int i = 0; i < 4; i++) {
            assertArrayEquals(rec, java.util.Arrays.copyOfRange(all, 6 * i, 6 * i + 6));
        }
        MemoryStore bad = ZarrV2DtypesTest.dataset()
                .put(
                        "r/.zarray",
                        ZarrV2DtypesTest.zarray("[[\"a\",\"<i4\"],[\"b\",\"<i2\"]]", "")
                                .replace("\"fill_value\":null", "\"fill_value\":\"AAAA\""))
                .build();
        MetadataException e = assertThrows(MetadataException.class, () -> ZarrV2DtypesTest.read(bad));
        assertTrue(e.getMessage().contains("holds 3 bytes"), e.getMessage());
    }

    @Test
    void aStructuredDtypeWithoutARuleIsListedNotFatal() throws IOException {
        MemoryStore s = ZarrV2DtypesTest.dataset()
                .put("ok/.zarray", ZarrV2DtypesTest.zarray("\"<i4\"", ""))
                .put("r/.zarray", ZarrV2DtypesTest.zarray("[[\"a\",\"<U4\"]]", ""))
                .build();
        DatasetModel m = ZarrV2DtypesTest.read(s);
        assertEquals(1, m.root().variables().size());
        String u = ZarrV2DtypesTest.attr(m.root().attributes(), UnreadableArrays.ATTRIBUTE);
        assertTrue(u.startsWith("/r: structured dtype: field 'a' of dtype '<U4'"), u);
        assertNull(ZarrV2DtypesTest.attr(m.root().attributes(), "x"));
    }

    @Test
    void zarrV3ComplexReadsWithBigEndianPartsAndItsFill() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(16).order(ByteOrder.BIG_ENDIAN);
        chunk.putFloat(1.5f).putFloat(-2f).putFloat(3f).putFloat(Float.NaN);
        MemoryStore s = MemoryStore.builder("mem:v3")
                .put("zarr.json", ZarrV3ReaderTest.ROOT)
                .put(
                        "v/zarr.json",
                        ZarrV3ReaderTest.array("")
                                .replace("\"int16\"", "\"complex64\"")
                                .replace("\"fill_value\":-7", "\"fill_value\":[\"Infinity\",\"0x3fc00000\"]"))
                .put("v/c/0", chunk.array())
                .build();
        VarModel v = ZarrV3ReaderTest.read(s).root().variables().get(0);
        assertEquals(NcType.STRUCTURE, v.type());
        ByteBuffer r = ByteBuffer.wrap((byte[]) ZarrV2DtypesTest.read(s, v)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1.5f, r.getFloat(0));
        assertEquals(-2f, r.getFloat(4));
        assertEquals(3f, r.getFloat(8));
        assertTrue(Float.isNaN(r.getFloat(12)));
        assertEquals(Float.POSITIVE_INFINITY, r.getFloat(16), "fill real");
        assertEquals(1.5f, r.getFloat(20), "fill imag from its hex bits");
    }

    @Test
    void nczarrComplexOpensWithAFillValueAttributeItCannotShow() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:ncz")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put(
                        ".zattrs",
                        "{\"_nczarr_superblock\":{\"version\":\"2.0.0\"},\"_nczarr_group\":{\"dimensions\":"
                                + "{\"x\":2},\"arrays\":[\"c\"],\"groups\":[]}}")
                .put(
                        "c/.zarray",
                        "{\"zarr_format\":2,\"shape\":[2],\"chunks\":[2],\"dtype\":\"<c8\",\"compressor\":null,"
                                + "\"filters\":null,\"fill_value\":[1.0,2.0],\"order\":\"C\"}")
                .put(
                        "c/.zattrs",
                        "{\"_nczarr_array\":{\"dimension_references\":[\"/x\"],\"storage\":\"chunked\"},"
                                + "\"_FillValue\":[3,4],\"_nczarr_attr\":{\"types\":{\"_FillValue\":\"<c8\"}}}")
                .build();
        VarModel c = MetadataReader.read(s, io.nczarr.url.DatasetUrl.Format.NCZARR, false)
                .root()
                .variables()
                .get(0);
        assertEquals(NcType.STRUCTURE, c.type());
        assertTrue(c.attributes().stream().noneMatch(a -> a.name().equals("_FillValue")));
        ByteBuffer r = ByteBuffer.wrap((byte[]) ZarrV2DtypesTest.read(s, c)).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1f, r.getFloat(0));
        assertEquals(2f, r.getFloat(4));
    }

    @Test
    void vlenBytesAreOpaqueByteStringsAndABadChunkFailsOnlyTheRead() throws IOException {
        ByteBuffer chunk = ByteBuffer.allocate(4 + 4 + 2 + 4).order(ByteOrder.LITTLE_ENDIAN);
        chunk.putInt(2).putInt(2).put((byte) 0).put((byte) -1).putInt(0);
        String zarray = ZarrV2DtypesTest.zarray("\"|O\"", "")
                .replace("\"chunks\":[4]", "\"chunks\":[2]")
                .replace("\"filters\":null", "\"filters\":[{\"id\":\"vlen-bytes\"}]");
        MemoryStore s = ZarrV2DtypesTest.dataset()
                .put("b/.zarray", zarray)
                .put("b/0", chunk.array())
                .put("b/1", new byte[] {2, 0, 0, 0, 9, 0, 0, 0})
                .build();
        VarModel b = ZarrV2DtypesTest.var(ZarrV2DtypesTest.read(s), "b");
        assertEquals(NcType.OPAQUE, b.type());
        byte[][] first =
                (byte[][]) new io.nczarr.chunk.ChunkReader(s, b, io.nczarr.codec.CodecRegistry.builtIns(), null)
                        .read(new long[] {0}, new int[] {2}, new int[] {1});
        assertArrayEquals(new byte[] {0, -1}, first[0]);
        assertEquals(0, first[1].length);
        io.nczarr.error.ChunkException e =
                assertThrows(io.nczarr.error.ChunkException.class, () -> ZarrV2DtypesTest.read(s, b));
        assertTrue(e.getMessage().contains("b/1") && e.getMessage().contains("vlen-bytes"), e.getMessage());
    }
}
