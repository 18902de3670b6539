package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.MetadataException;
import io.nczarr.model.ArrayMeta;
import io.nczarr.model.Attr;
import io.nczarr.model.ElementType;
import io.nczarr.model.NcType;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MetadataTest {

    static JsonNode json(String s) throws MetadataException {
        return Json.parse("test", "key", s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void dtypes() {
        NumpyDtype d = NumpyDtype.parseOrNull(">f8");
        assertEquals('>', d.byteOrder());
        assertEquals(NcType.DOUBLE, ElementType.numericType(d));
        assertEquals(ByteOrder.BIG_ENDIAN, d.order());
        assertEquals(NcType.UBYTE, ElementType.numericType(NumpyDtype.parseOrNull("|b1")));
        assertEquals(0, NumpyDtype.parseOrNull("|O").itemsize());
        assertNull(ElementType.numericType(NumpyDtype.parseOrNull("<c16")));
        assertNull(NumpyDtype.parseOrNull("garbage!"));
    }

    @Test
    void charMeansOneBytePerElementOnlyInNczarr() {
        ElementType nc = ElementType.of(NumpyDtype.parseOrNull("<U1"), true);
        assertEquals(NcType.CHAR, nc.ncType());
        assertEquals(1, nc.itemSize());
        ElementType zarr = ElementType.of(NumpyDtype.parseOrNull("<U1"), false);
        assertEquals(NcType.STRING, zarr.ncType());
        assertEquals(4, zarr.itemSize());
        assertEquals(
                NcType.CHAR,
                ElementType.of(NumpyDtype.parseOrNull(">S1"), false).ncType());
        assertEquals(
                ElementType.Layout.FIXED_BYTES,
                ElementType.of(NumpyDtype.parseOrNull("|S5"), true).layout());
    }

    @Test
    void nanTokensAndStringsParse() throws Exception {
        JsonNode n = json("{\"a\": NaN, \"b\": -Infinity, \"c\": \"nanf\", \"d\": \"-Infinity\"}");
        assertTrue(Double.isNaN(JsonValues.toDouble(n.get("a"))));
        assertEquals(Double.NEGATIVE_INFINITY, JsonValues.toDouble(n.get("b")));
        assertTrue(Double.isNaN(JsonValues.toDouble(n.get("c"))));
        assertEquals(Double.NEGATIVE_INFINITY, JsonValues.toDouble(n.get("d")));
    }

    @Test
    void malformedJsonNamesTheKey() {
        MetadataException e = assertThrows(
                MetadataException.class,
                () -> Json.parse("ds", "v/.zarray", "{\"shape\": [1,".getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().startsWith("ds: v/.zarray: malformed JSON"), e.getMessage());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "\"text\"                 | CHAR",
                "true                     | UBYTE",
                "[true, false]            | UBYTE",
                "7                        | INT",
                "[1, 2147483648]          | INT64",
                "18446744073709551615     | UINT64",
                "[1, 2.5]                 | DOUBLE",
                "NaN                      | DOUBLE",
                "[\"a\", \"b\"]           | STRING",
                "{\"k\": 1}               | CHAR",
                "null                     | CHAR",
                "[]                       | CHAR",
                "[1, \"a\"]               | CHAR",
                "[[1, 2], [3]]            | CHAR",
                "[1, [2]]                 | CHAR",
                "[{\"k\": 1}]             | CHAR",
            })
    void inferredAttributeTypes(String value, NcType expected) throws Exception {
        assertEquals(expected, Attributes.inferred("a", json(value)).type());
    }

    @Test
    void jsonValuedAttributesAreCompactText() throws Exception {
        Attr a = Attributes.inferred("a", json("{\"k\": [1, 2]}"));
        assertEquals("{\"k\":[1,2]}", a.value());
        assertTrue(a.json());
    }

    @Test
    void typedAttributesFromNczarrTypes() throws Exception {
        assertArrayEquals(new long[] {-1}, (long[]) Attributes.typed("a", NcType.UINT64, json("18446744073709551615"))
                .value());
        assertArrayEquals(new float[] {1.5f, -0.1f}, (float[])
                Attributes.typed("a", NcType.FLOAT, json("[1.5, -0.1]")).value());
        assertEquals(NcType.INT, Attributes.typeOf("4"));
        assertEquals(NcType.CHAR, Attributes.typeOf("2"));
        assertEquals(NcType.CHAR, Attributes.typeOf(">S1"));
        assertNull(Attributes.typeOf("|J0"));
        assertNull(Attributes.typeOf("99999999999"), "more digits than any nc_type");
        IllegalArgumentException e =
                assertThrows(IllegalArgumentException.class, () -> Attributes.typed("a", NcType.BYTE, json("300")));
        assertTrue(e.getMessage().contains("300"));
    }

    @Test
    void nestedListsAreJsonTextNotAnError() throws Exception {
        Attr a = Attributes.inferred("a", json("[[1, 2], [3]]"));
        assertEquals("[[1,2],[3]]", a.value());
        assertTrue(a.json());
    }

    @Test
    void netcdfNames() {
        assertNull(Names.problem("a b"));
        assertNull(Names.problem("\u00e9t\u00e9"));
        for (String bad : new String[] {"", "a/b", "a\u0001", "x\u007f", " x", "x "}) {
            assertTrue(Names.problem(bad) != null, bad);
        }
        assertTrue(Names.objectProblem("..") != null);
        assertNull(Names.problem("a:b"), "a dimension name need not be a store key");
    }

    @Test
    void internalKeysAreHidden() {
        for (String k :
                new String[] {"_ARRAY_DIMENSIONS", "_NCProperties", "_nczarr_attr", "_NCZARR_ARRAY", "_nczarr_maxstrlen"
                }) {
            assertTrue(Attributes.isInternal(k), k);
        }
    }

    @Test
    void fillValues() throws Exception {
        ElementType f8 = ElementType.of(NumpyDtype.parseOrNull("<f8"), false);
        assertTrue(Double.isNaN((Double) FillValues.parse(json("\"NaN\""), f8, NumpyDtype.parseOrNull("<f8"))));
        assertEquals(
                Double.POSITIVE_INFINITY, FillValues.parse(json("\"infinity\""), f8, NumpyDtype.parseOrNull("<f8")));
        assertNull(FillValues.parse(json("null"), f8, NumpyDtype.parseOrNull("<f8")));
        ElementType i4 = ElementType.of(NumpyDtype.parseOrNull("<i4"), false);
        assertEquals(-1, FillValues.parse(json("-1"), i4, NumpyDtype.parseOrNull("<i4")));
        IllegalArgumentException e = assertThrows(
                IllegalArgumentException.class,
                () -> FillValues.parse(json("\"minus one\""), i4, NumpyDtype.parseOrNull("<i4")));
        assertTrue(e.getMessage().contains("fill_value"), e.getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> FillValues.parse(json("\"NaN\""), i4, NumpyDtype.parseOrNull("<i4")));
        ElementType s = ElementType.of(NumpyDtype.parseOrNull("|S3"), false);
        assertEquals("ab", FillValues.parse(json("\"YWIA\""), s, NumpyDtype.parseOrNull("|S3")));
    }

    @Test
    void arrayMetadataValidation() throws Exception {
        String ok = "{\"zarr_format\":2,\"shape\":[4,5],\"chunks\":[2,\"3\"],\"dtype\":\"<i4\",\"fill_value\":0,"
                + "\"order\":\"C\",\"compressor\":null,\"filters\":null}";
        MetadataException e = assertThrows(MetadataException.class, () -> ArrayMeta.parse("ds", "v/.zarray", json(ok)));
        assertTrue(e.getMessage().contains("chunks"), e.getMessage());
        assertMessage("{\"shape\":[-3],\"chunks\":[1],\"dtype\":\"<i4\"}", "-3");
        assertMessage("{\"shape\":[4,4],\"chunks\":[2],\"dtype\":\"<i4\"}", "shape has 2 dimensions but chunks has 1");
        assertMessage("{\"shape\":[4611686018427387904,4],\"chunks\":[1,1],\"dtype\":\"<i4\"}", "2^63");
        assertMessage("{\"shape\":[4],\"chunks\":[2147483647],\"dtype\":\"<f8\"}", "exceed");
        assertMessage("{\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i4\",\"order\":\"X\"}", "order");
        assertMessage(
                "{\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i4\",\"dimension_separator\":\"-\"}",
                "dimension_separator");
        assertMessage("{\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i4\",\"compressor\":{\"level\":1}}", "id");
        ArrayMeta a = ArrayMeta.parse(
                "ds",
                "k",
                json(
                        "{\"shape\":[4],\"chunks\":[2],\"dtype\":\"<i4\","
                                + "\"compressor\":{\"id\":\"zlib\",\"level\":\"5\"},\"filters\":[{\"id\":\"shuffle\",\"elementsize\":\"4\"}]}"));
        assertEquals(5, a.compressor().intParam("level", 1));
        assertEquals(4, a.filters().get(0).intParam("elementsize", 0));
    }

    private static void assertMessage(String zarray, String expected) {
        MetadataException e =
                assertThrows(MetadataException.class, () -> ArrayMeta.parse("ds", "v/.zarray", json(zarray)));
        assertTrue(e.getMessage().contains(expected) && e.getMessage().contains("v/.zarray"), e.getMessage());
    }
}
