package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every JSON shape an attribute can hold opens (SCHEMA.md, netcdf-c's JSON convention): in pure Zarr
 * v2 {@code .zattrs}, in NCZarr attributes whose declared type does not fit the value, and in Zarr v3
 * {@code attributes}.
 */
class AttributeShapesTest {

    /** OME-NGFF 0.4's multiscales, as every OME-Zarr image holds it. */
    static final String MULTISCALES =
            "[{\"version\":\"0.4\",\"name\":\"img\",\"axes\":[{\"name\":\"y\",\"type\":\"space\","
                    + "\"unit\":\"micrometer\"},{\"name\":\"x\",\"type\":\"space\",\"unit\":\"micrometer\"}],"
                    + "\"datasets\":[{\"path\":\"0\",\"coordinateTransformations\":[{\"type\":\"scale\",\"scale\":[0.5,0.5]}]}],"
                    + "\"type\":\"gaussian\",\"metadata\":{\"method\":\"skimage\",\"kwargs\":null}}]";

    static final String ODD = "{\"multiscales\":" + MULTISCALES + ",\"nested\":[[1,2],[3]],\"none\":null,"
            + "\"yes\":true,\"flags\":[true,false],\"empty\":[],\"mixed\":[1,\"a\",null],\"obj\":{\"k\":[1,2]},"
            + "\"long\":\"" + "x".repeat(100_000) + "\",\"huge\":123456789012345678901234567890,"
            + "\"hugeList\":[1,18446744073709551616],\"big\":1e400,\"u64\":18446744073709551615,"
            + "\"neg64\":[-1,4294967296],\"nan\":NaN,\"numbers\":[1,2.5],\"strs\":[\"a\",\"b\"],\"emptyObj\":{}}";

    static Attr find(List<Attr> attrs, String name) {
        return attrs.stream()
                .filter(a -> a.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(name));
    }

    static void checkOdd(List<Attr> a) {
        Attr ms = find(a, "multiscales");
        assertEquals(NcType.CHAR, ms.type());
        assertTrue(ms.json());
        assertEquals(MULTISCALES, ms.value(), "compact JSON text");
        assertEquals("[[1,2],[3]]", find(a, "nested").value());
        assertEquals("null", find(a, "none").value());
        assertTrue(find(a, "none").json());
        assertEquals(NcType.UBYTE, find(a, "yes").type());
        assertArrayEquals(new byte[] {1}, (byte[]) find(a, "yes").value());
        assertArrayEquals(new byte[] {1, 0}, (byte[]) find(a, "flags").value());
        assertEquals("[]", find(a, "empty").value());
        assertEquals("[1,\"a\",null]", find(a, "mixed").value());
        assertEquals("{\"k\":[1,2]}", find(a, "obj").value());
        assertEquals("{}", find(a, "emptyObj").value());
        assertEquals(100_000, ((String) find(a, "long").value()).length());
        assertFalse(find(a, "long").json());
        assertEquals(NcType.DOUBLE, find(a, "huge").type(), "beyond uint64: the nearest double");
        assertArrayEquals(
                new double[] {1.2345678901234568e29}, (double[]) find(a, "huge").value());
        assertEquals(NcType.DOUBLE, find(a, "hugeList").type());
        assertEquals(NcType.DOUBLE, find(a, "big").type());
        assertArrayEquals(new double[] {Double.POSITIVE_INFINITY}, (double[])
                find(a, "big").value());
        assertEquals(NcType.UINT64, find(a, "u64").type());
        assertArrayEquals(new long[] {-1}, (long[]) find(a, "u64").value());
        assertEquals(NcType.INT64, find(a, "neg64").type());
        assertEquals(NcType.DOUBLE, find(a, "nan").type());
        assertEquals(NcType.DOUBLE, find(a, "numbers").type());
        assertEquals(NcType.STRING, find(a, "strs").type());
    }

    @Test
    void zarrV2ZattrsOfEveryShapeOpen() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:attrs")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put(".zattrs", ODD)
                .put(
                        "v/.zarray",
                        "{\"zarr_format\":2,\"shape\":[2],\"chunks\":[2],\"dtype\":\"<i2\",\"fill_value\":0,"
                                + "\"order\":\"C\",\"compressor\":null,\"filters\":null}")
                .put("v/.zattrs", ODD.substring(0, ODD.length() - 1) + ",\"_ARRAY_DIMENSIONS\":[\"x\"]}")
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        checkOdd(m.root().attributes());
        checkOdd(m.root().variables().get(0).attributes());
    }

    @Test
    void nczarrTypedAttributesWhoseValueDoesNotFitTheirTypeAreTypedByValue() throws IOException {
        String types = "\"_nczarr_attr\":{\"types\":{\"multiscales\":\"<i4\",\"nested\":\"<f8\",\"none\":\"<i2\","
                + "\"small\":\"<i1\",\"ok\":\"<i1\",\"txt\":\"|S1\",\"obj\":\">S1\",\"strs\":\"<U1\",\"jsn\":\"|J0\"}}";
        String zattrs = "{\"multiscales\":" + MULTISCALES + ",\"nested\":[[1,2],[3]],\"none\":null,\"small\":300,"
                + "\"ok\":[1,2],\"txt\":\"t\",\"obj\":{\"a\":1},\"strs\":[\"a\",\"b\"],\"jsn\":[[0]]," + types + "}";
        MemoryStore s = MemoryStore.builder("mem:nczattrs")
                .put(".zgroup", "{\"zarr_format\":2}")
                .put(
                        ".zattrs",
                        zattrs.replace(
                                "\"_nczarr_attr\"",
                                "\"_nczarr_superblock\":{\"version\":\"2.0.0\"},\"_nczarr_group\":{\"dimensions\":{},"
                                        + "\"arrays\":[],\"groups\":[]},\"_nczarr_attr\""))
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.NCZARR, false);
        List<Attr> a = m.root().attributes();
        assertEquals(MULTISCALES, find(a, "multiscales").value());
        assertTrue(find(a, "multiscales").json());
        assertEquals("[[1,2],[3]]", find(a, "nested").value());
        assertEquals("null", find(a, "none").value());
        assertEquals(NcType.INT, find(a, "small").type(), "300 is no byte: typed by its value");
        assertEquals(NcType.BYTE, find(a, "ok").type());
        assertEquals("t", find(a, "txt").value());
        assertEquals("{\"a\":1}", find(a, "obj").value());
        assertEquals(NcType.STRING, find(a, "strs").type());
        assertEquals("[[0]]", find(a, "jsn").value());
    }

    @Test
    void zarrV3AttributesOfEveryShapeOpen() throws IOException {
        MemoryStore s = MemoryStore.builder("mem:v3attrs")
                .put("zarr.json", "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":" + ODD + "}")
                .put("v/zarr.json", ZarrV3ReaderTest.array("").replace("\"attributes\":{}", "\"attributes\":" + ODD))
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        checkOdd(m.root().attributes());
        VarModel v = m.root().variables().get(0);
        checkOdd(v.attributes());
    }

    @Test
    void nczarrV3AttributesWhoseTypeDoesNotFitAreTypedByValue() throws IOException {
        String attrs = "{\"_nczarr_superblock\":{\"version\":\"3.0.0\"},\"_nczarr_group\":{\"dimensions\":{}},"
                + "\"_nczarr_attrs\":{\"attribute_types\":{\"n\":\"int8\",\"m\":\"float64\",\"j\":\"json\"}},"
                + "\"n\":1000,\"m\":[[1],[2]],\"j\":{\"a\":[1]}}";
        MemoryStore s = MemoryStore.builder("mem:ncv3")
                .put("zarr.json", "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":" + attrs + "}")
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.NCZARR, false);
        List<Attr> a = m.root().attributes();
        assertEquals(NcType.INT, find(a, "n").type());
        assertEquals("[[1],[2]]", find(a, "m").value());
        assertEquals("{\"a\":[1]}", find(a, "j").value());
    }
}
