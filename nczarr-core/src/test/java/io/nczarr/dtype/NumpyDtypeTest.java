package io.nczarr.dtype;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

/** The one dtype parser, table-tested: every spelling Zarr v2 metadata and numcodecs parameters use. */
class NumpyDtypeTest {

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // text, kind, itemsize, length, order, str, numeric, integer, float
        "<f8     , f, 8 , 8 , <, <f8  , true , false, true",
        ">f8     , f, 8 , 8 , >, >f8  , true , false, true",
        "<f4     , f, 4 , 4 , <, <f4  , true , false, true",
        "<f2     , f, 2 , 2 , <, <f2  , true , false, true",
        "|u1     , u, 1 , 1 , |, |u1  , true , true , false",
        "<u1     , u, 1 , 1 , |, |u1  , true , true , false",
        ">i2     , i, 2 , 2 , >, >i2  , true , true , false",
        "=i4     , i, 4 , 4 , <, <i4  , true , true , false",
        "i4      , i, 4 , 4 , <, <i4  , true , true , false",
        "|i4     , i, 4 , 4 , <, <i4  , true , true , false",
        ">u8     , u, 8 , 8 , >, >u8  , true , true , false",
        "|b1     , b, 1 , 1 , |, |b1  , true , false, false",
        "|S10    , S, 10, 10, |, |S10 , false, false, false",
        ">S1     , S, 1 , 1 , |, |S1  , false, false, false",
        "S5      , S, 5 , 5 , |, |S5  , false, false, false",
        "|S0     , S, 0 , 0 , |, |S0  , false, false, false",
        "<U4     , U, 16, 4 , <, <U4  , false, false, false",
        ">U1     , U, 4 , 1 , >, >U1  , false, false, false",
        "|V20    , V, 20, 20, |, |V20 , false, false, false",
        "|O      , O, 0 , 0 , |, |O   , false, false, false",
        "<M8[ns] , M, 8 , 8 , <, <M8  , true , true , false",
        ">m8[s]  , m, 8 , 8 , >, >m8  , true , true , false",
        "<M8     , M, 8 , 8 , <, <M8  , true , true , false",
        "<c16    , c, 16, 16, <, <c16 , false, false, false",
        ">c8     , c, 8 , 8 , >, >c8  , false, false, false",
        // numcodecs' defaults when the size is left out
        "<f      , f, 8 , 8 , <, <f8  , true , false, true",
        "<i      , i, 8 , 8 , <, <i8  , true , true , false",
        "|b      , b, 1 , 1 , |, |b1  , true , false, false",
    })
    void parses(
            String text,
            char kind,
            int itemsize,
            int length,
            char order,
            String str,
            boolean numeric,
            boolean integer,
            boolean isFloat)
            throws InvalidDtypeException {
        NumpyDtype d = NumpyDtype.parse(text);
        assertEquals(kind, d.kind());
        assertEquals(itemsize, d.itemsize());
        assertEquals(length, d.length());
        assertEquals(order, d.byteOrder());
        assertEquals(order == '>' ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN, d.order());
        assertEquals(order == '>', d.bigEndian());
        assertEquals(str, d.str());
        assertEquals(numeric, d.isNumeric());
        assertEquals(integer, d.isInteger());
        assertEquals(isFloat, d.isFloat());
        assertEquals(text, d.text());
        assertEquals(text, d.toString());
        assertEquals(d, NumpyDtype.parse(d.str()), "the normalised spelling parses to the same dtype");
    }

    @ParameterizedTest(name = "''{0}''")
    @NullAndEmptySource
    @ValueSource(
            strings = {
                " ",
                "<",
                "|",
                "garbage!",
                "<x4",
                "|J0",
                "<i3",
                "<i0",
                "|b2",
                "<f16",
                "<f1",
                "<c4",
                "<M4",
                "<i4x",
                "<S-1",
                "<U99999999",
                "|S16777217",
                "<f8[ns]"
            })
    void rejects(String text) {
        assertThrows(InvalidDtypeException.class, () -> NumpyDtype.parse(text));
        assertNull(NumpyDtype.parseOrNull(text));
    }

    @Test
    void largestFlexibleSizeIsAccepted() throws InvalidDtypeException {
        assertEquals(1 << 24, NumpyDtype.parse("|S16777216").itemsize());
        assertEquals(4 << 24, NumpyDtype.parse("<U16777216").itemsize());
    }

    @Test
    void equalityIgnoresTheSpelling() throws InvalidDtypeException {
        assertEquals(NumpyDtype.parse("|u1"), NumpyDtype.parse("<u1"));
        assertEquals(NumpyDtype.parse("=f8"), NumpyDtype.parse("<f8"));
        assertEquals(NumpyDtype.parse("=f8").hashCode(), NumpyDtype.parse("<f8").hashCode());
        assertEquals(NumpyDtype.parse("<M8[ns]"), NumpyDtype.parse("<M8[s]"));
        assertNotEquals(NumpyDtype.parse("<f8"), NumpyDtype.parse(">f8"));
        assertNotEquals(NumpyDtype.parse("<i4"), NumpyDtype.parse("<u4"));
        assertNotEquals(NumpyDtype.parse("<U2"), NumpyDtype.parse("|S8"));
    }

    @Test
    void messagesNameTheDtype() {
        InvalidDtypeException e = assertThrows(InvalidDtypeException.class, () -> NumpyDtype.parse("<i3"));
        assertEquals("bad integer dtype '<i3'", e.getMessage());
    }
}
