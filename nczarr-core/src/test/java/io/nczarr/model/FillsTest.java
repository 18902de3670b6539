package io.nczarr.model;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Issue 22, finding 4: unsigned fills and netCDF default fills are recognised whatever the value's form. */
class FillsTest {

    @Test
    void unsignedFillsMatchSignedAndUnsignedForms() {
        Fills us = Fills.of(NcType.USHORT, (short) -1); // 65535US as netCDF-Java stores it
        assertTrue(us.is(65535L));
        assertTrue(us.is(-1L));
        assertTrue(us.is(65535.0));
        assertFalse(us.is(65534L));
        Fills ub = Fills.of(NcType.UBYTE, 200);
        assertTrue(ub.is((long) (byte) 200));
        assertTrue(ub.is(200.0));
        assertFalse(ub.is(199L));
        Fills u = Fills.of(NcType.UINT, 4000000000L);
        assertTrue(u.is((long) (int) 4000000000L));
        assertTrue(u.is(4000000000.0));
        Fills u8 = Fills.of(NcType.UINT64, -2L);
        assertTrue(u8.is(-2L));
        assertFalse(u8.is(0L));
    }

    @Test
    void withoutFillValueTheNetcdfDefaultFill() {
        assertTrue(Fills.of(NcType.SHORT, null).is(-32767L));
        assertFalse(Fills.of(NcType.SHORT, null).is(-32768L));
        assertTrue(Fills.of(NcType.USHORT, null).is(65535L));
        assertTrue(Fills.of(NcType.BYTE, null).is(-127L));
        assertTrue(Fills.of(NcType.UBYTE, null).is(-1L));
        assertTrue(Fills.of(NcType.INT, null).is(-2147483647L));
        assertTrue(Fills.of(NcType.UINT, null).is(4294967295L));
        assertTrue(Fills.of(NcType.INT64, null).is(-9223372036854775806L));
        assertTrue(Fills.of(NcType.FLOAT, null).is(9.96921e36f));
        assertTrue(Fills.of(NcType.FLOAT, null).is((double) 9.96921e36f));
        assertTrue(Fills.of(NcType.DOUBLE, null).is(9.969209968386869e36));
        assertFalse(Fills.of(NcType.STRING, null).is(0L));
    }

    @Test
    void floatFillsCompareBitForBit() {
        assertTrue(Fills.of(NcType.FLOAT, Float.NaN).is(Float.NaN));
        assertTrue(Fills.of(NcType.DOUBLE, Double.NaN).is(Double.NaN));
        assertFalse(Fills.of(NcType.DOUBLE, -999.0).is(-999.0000001));
        assertTrue(Fills.of(NcType.DOUBLE, -999.0).is(-999.0));
        assertFalse(Fills.of(NcType.SHORT, (short) 5).is(5.5));
    }
}
