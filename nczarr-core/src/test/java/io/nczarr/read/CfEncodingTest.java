package io.nczarr.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.model.Attr;
import io.nczarr.model.NcType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** CF value metadata from attributes: fills, missing values, packing, valid ranges, unsigned types. */
class CfEncodingTest {
    @Test
    void withoutAttributesTheDefaultFillIsMissingExceptForBytes() {
        CfEncoding f = CfEncoding.of(NcType.FLOAT, List.of());
        assertNull(f.fillValue());
        assertTrue(f.isMissing(9.9692099683868690e+36f));
        assertFalse(f.isMissing(0));
        assertFalse(f.isMissing(Double.NaN));
        CfEncoding b = CfEncoding.of(NcType.BYTE, List.of());
        assertFalse(b.isMissing(-127));
        assertEquals(2.5, f.unpack(2.5));
    }

    @Test
    void unsignedFillsAndMissingValuesMatchTheWidenedValue() {
        CfEncoding u = CfEncoding.of(
                NcType.USHORT,
                List.of(
                        new Attr("_FillValue", NcType.USHORT, new short[] {-1}),
                        new Attr("missing_value", NcType.USHORT, new short[] {(short) 40000, 7})));
        assertTrue(u.isMissing(65535));
        assertTrue(u.isMissing(40000));
        assertTrue(u.isMissing(7));
        assertFalse(u.isMissing(8));
        assertEquals(2, u.missingValues().length);
        assertEquals(40000.0, u.missingValues()[0]);
    }

    @Test
    void validMinAndMaxAndDoublePacking() {
        CfEncoding e = CfEncoding.of(
                NcType.SHORT,
                List.of(
                        new Attr("scale_factor", NcType.DOUBLE, new double[] {0.5}),
                        new Attr("add_offset", NcType.DOUBLE, new double[] {100}),
                        new Attr("valid_min", NcType.SHORT, new short[] {-10}),
                        new Attr("valid_max", NcType.SHORT, new short[] {10})));
        assertEquals(NcType.DOUBLE, e.unpackedType());
        assertTrue(e.isMissing(-11));
        assertTrue(e.isMissing(-32767)); // the default short fill
        assertFalse(e.isMissing(10));
        assertEquals(105.0, e.unpack(10));
        assertEquals(10.0, e.pack(105.2));
    }

    @Test
    void typedArraysCheckTheirStorageAndWidenUint64() {
        TypedArray a = new TypedArray(NcType.UINT64, new int[] {2}, new long[] {-1L, 3});
        assertEquals(18446744073709551615.0, a.getDouble(0));
        assertEquals(3.0, a.getDouble(1));
        assertThrows(IllegalArgumentException.class, () -> new TypedArray(NcType.FLOAT, new int[] {1}, new double[1]));
        assertThrows(IllegalStateException.class, a::doubles);
    }
}
