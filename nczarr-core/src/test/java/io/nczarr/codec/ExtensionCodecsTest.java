package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/**
 * zarr-extensions codecs (issue 22): scale_offset, cast_value, reshape, packbits. The happy paths are
 * also read from zarr-python-written stores in nczarr-cli's AutumnConformanceTest; here the edges.
 */
class ExtensionCodecsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final NumpyDtype I2 = NumpyDtype.parseOrNull("<i2");
    private static final NumpyDtype I4 = NumpyDtype.parseOrNull("<i4");
    private static final NumpyDtype F4 = NumpyDtype.parseOrNull("<f4");
    private static final NumpyDtype F8 = NumpyDtype.parseOrNull("<f8");
    private static final NumpyDtype B1 = NumpyDtype.parseOrNull("|b1");
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();
    private static final String BYTES = "{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}";

    private static CodecPipeline pipeline(String codecs, int[] shape, NumpyDtype dt) throws Exception {
        return V3Codecs.pipeline(JSON.readTree(codecs), shape, dt, dt, JSON.readTree("0"), REGISTRY::create, 1 << 20);
    }

    private static ByteBuffer le(int bytes) {
        return ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Test
    void scaleOffsetThenCastDecodesInTheArrayType() throws Exception {
        CodecPipeline p = pipeline(
                "[{\"name\":\"scale_offset\",\"configuration\":{\"offset\":-0.1,\"scale\":10000}},"
                        + "{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"uint16\","
                        + "\"scalar_map\":{\"decode\":[[0,\"NaN\"]]}}}," + BYTES + "]",
                new int[] {3},
                F8);
        ByteBuffer in = le(6).putShort((short) 0).putShort((short) 1123).putShort((short) 65535);
        ByteBuffer out = ByteBuffer.wrap(p.decodeInto(in.array(), null, 24)).order(ByteOrder.LITTLE_ENDIAN);
        assertTrue(Double.isNaN(out.getDouble(0)));
        assertEquals(1123 / 10000.0 + -0.1, out.getDouble(8));
        assertEquals(65535 / 10000.0 + -0.1, out.getDouble(16));
    }

    @Test
    void float32ScaleOffsetUsesFloat32Arithmetic() throws Exception {
        CodecPipeline p = pipeline(
                "[{\"name\":\"scale_offset\",\"configuration\":{\"offset\":0.1,\"scale\":3}}," + BYTES + "]",
                new int[] {1},
                F4);
        ByteBuffer out = ByteBuffer.wrap(p.decodeInto(le(4).putFloat(1f).array(), null, 4))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(1f / 3f + 0.1f, out.getFloat(0));
    }

    @Test
    void integerScaleOffsetMustDivideExactly() throws Exception {
        CodecPipeline p = pipeline(
                "[{\"name\":\"scale_offset\",\"configuration\":{\"offset\":5,\"scale\":3}}," + BYTES + "]",
                new int[] {2},
                I4);
        ByteBuffer ok = ByteBuffer.wrap(p.decodeInto(le(8).putInt(9).putInt(-3).array(), null, 8))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(8, ok.getInt(0));
        assertEquals(4, ok.getInt(4));
        CodecException e = assertThrows(
                CodecException.class,
                () -> p.decodeInto(le(8).putInt(10).putInt(0).array(), null, 8));
        assertTrue(e.getMessage().contains("not a multiple"), e.getMessage());
    }

    @Test
    void castOutOfRangeIsAnErrorUnlessClampOrWrap() throws Exception {
        String cast = "{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"int32\"%s}}";
        byte[] big = le(4).putInt(70000).array();
        CodecPipeline error = pipeline("[" + String.format(cast, "") + "," + BYTES + "]", new int[] {1}, I2);
        CodecException e = assertThrows(CodecException.class, () -> error.decodeInto(big, null, 2));
        assertTrue(e.getMessage().contains("outside the range"), e.getMessage());
        CodecPipeline clamp = pipeline(
                "[" + String.format(cast, ",\"out_of_range\":\"clamp\"") + "," + BYTES + "]", new int[] {1}, I2);
        assertEquals(
                32767,
                ByteBuffer.wrap(clamp.decodeInto(big, null, 2))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getShort());
        CodecPipeline wrap = pipeline(
                "[" + String.format(cast, ",\"out_of_range\":\"wrap\"") + "," + BYTES + "]", new int[] {1}, I2);
        assertEquals(
                (short) 70000,
                ByteBuffer.wrap(wrap.decodeInto(big, null, 2))
                        .order(ByteOrder.LITTLE_ENDIAN)
                        .getShort());
    }

    @Test
    void castNanToIntegerIsAnError() throws Exception {
        CodecPipeline p = pipeline(
                "[{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"float32\",\"rounding\":\"towards-zero\"}},"
                        + BYTES + "]",
                new int[] {2},
                I4);
        ByteBuffer ok = ByteBuffer.wrap(
                        p.decodeInto(le(8).putFloat(-2.7f).putFloat(2.7f).array(), null, 8))
                .order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(-2, ok.getInt(0));
        assertEquals(2, ok.getInt(4));
        assertThrows(
                CodecException.class,
                () -> p.decodeInto(le(8).putFloat(Float.NaN).putFloat(0).array(), null, 8));
    }

    @Test
    void castRefusesUnknownKeysAndTypes() {
        assertThrows(
                CodecException.class,
                () -> pipeline(
                        "[{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"uint8\",\"spare\":1}}," + BYTES
                                + "]",
                        new int[] {1},
                        F4));
        CodecException e = assertThrows(
                CodecException.class,
                () -> pipeline(
                        "[{\"name\":\"cast_value\",\"configuration\":{\"data_type\":\"float8_e4m3\"}}," + BYTES + "]",
                        new int[] {1},
                        F4));
        assertTrue(e.getMessage().contains("float8_e4m3"), e.getMessage());
    }

    @Test
    void reshapeFeedsItsShapeToTranspose() throws Exception {
        // a (2, 3) chunk reshaped to (3, 2) and stored transposed as (2, 3)
        CodecPipeline p = pipeline(
                "[{\"name\":\"reshape\",\"configuration\":{\"shape\":[3,-1]}},"
                        + "{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}}," + BYTES + "]",
                new int[] {2, 3},
                I2);
        ByteBuffer in = le(12);
        for (int v : new int[] {0, 2, 4, 1, 3, 5}) {
            in.putShort((short) v);
        }
        ByteBuffer out = ByteBuffer.wrap(p.decodeInto(in.array(), null, 12)).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 6; i++) {
            assertEquals(i, out.getShort(2 * i));
        }
    }

    @Test
    void reshapeChecksItsShape() {
        assertThrows(
                CodecException.class,
                () -> pipeline(
                        "[{\"name\":\"reshape\",\"configuration\":{\"shape\":[4,-1]}}," + BYTES + "]",
                        new int[] {2, 3},
                        I2));
        assertThrows(
                CodecException.class,
                () -> pipeline(
                        "[{\"name\":\"reshape\",\"configuration\":{\"shape\":[[1],[0]]}}," + BYTES + "]",
                        new int[] {2, 3},
                        I2));
    }

    @Test
    void packbitsSignExtendsAndChecksPadding() throws Exception {
        // 3 int16 values in 4 bits each (bits 0..3), least significant bit first: -1, 7, -8
        CodecPipeline p = pipeline(
                "[{\"name\":\"packbits\",\"configuration\":{\"first_bit\":0,\"last_bit\":3,"
                        + "\"padding_encoding\":\"last_byte\"}}]",
                new int[] {3},
                I2);
        byte[] out = p.decodeInto(new byte[] {(byte) 0x7F, 0x08, 4}, null, 6);
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        assertEquals(-1, b.getShort(0));
        assertEquals(7, b.getShort(2));
        assertEquals(-8, b.getShort(4));
        assertThrows(CodecException.class, () -> p.decodeInto(new byte[] {(byte) 0x7F, 0x08, 3}, null, 6));
    }

    @Test
    void packbitsOfBoolsIsOneBitEach() throws Exception {
        CodecPipeline p = pipeline("[{\"name\":\"packbits\"}]", new int[] {10}, B1);
        byte[] out = p.decodeInto(new byte[] {(byte) 0b1000_0101, 0b10}, null, 10);
        assertArrayEquals(new byte[] {1, 0, 1, 0, 0, 0, 0, 1, 0, 1}, out);
    }

    @Test
    void numcodecsPackbitsKeepsItsOwnLayout() throws Exception {
        // "numcodecs.packbits": header byte, most significant bit first
        CodecPipeline p = pipeline("[{\"name\":\"numcodecs.packbits\"}," + BYTES + "]", new int[] {3}, B1);
        assertArrayEquals(new byte[] {1, 0, 1}, p.decodeInto(new byte[] {5, (byte) 0b1010_0000}, null, 3));
    }
}
