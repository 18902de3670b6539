package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.dtype.NumpyDtype;
import io.nczarr.error.CodecException;
import io.nczarr.error.UnknownCodecException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/** Zarr v3 codec chains: bytes, transpose, sharding, order checks, jenkins_lookup3, fill values. */
class V3CodecsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final NumpyDtype I2 = NumpyDtype.parseOrNull("<i2");
    private static final NumpyDtype I4 = NumpyDtype.parseOrNull("<i4");
    private static final CodecRegistry REGISTRY = CodecRegistry.builtIns();

    private static CodecPipeline pipeline(String codecs, int[] shape, NumpyDtype dt, String fill) throws Exception {
        return V3Codecs.pipeline(JSON.readTree(codecs), shape, dt, dt, JSON.readTree(fill), REGISTRY::create, 1 << 20);
    }

    private static byte[] shorts(ByteOrder order, int... v) {
        ByteBuffer b = ByteBuffer.allocate(2 * v.length).order(order);
        for (int x : v) {
            b.putShort((short) x);
        }
        return b.array();
    }

    @Test
    void bigEndianBytesDecodeToLittleEndian() throws Exception {
        CodecPipeline p =
                pipeline("[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"big\"}}]", new int[] {3}, I2, "0");
        byte[] out = p.decodeInto(shorts(ByteOrder.BIG_ENDIAN, 1, -2, 300), null, 6);
        assertArrayEquals(shorts(ByteOrder.LITTLE_ENDIAN, 1, -2, 300), out);
    }

    @Test
    void transposeGivesCOrderBack() throws Exception {
        // decoded 2x3 [[0,1,2],[3,4,5]] stored with order [1,0] as 3x2 [[0,3],[1,4],[2,5]]
        CodecPipeline p = pipeline(
                "[{\"name\":\"transpose\",\"configuration\":{\"order\":[1,0]}},{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}]",
                new int[] {2, 3},
                I2,
                "0");
        byte[] out = p.decodeInto(shorts(ByteOrder.LITTLE_ENDIAN, 0, 3, 1, 4, 2, 5), null, 12);
        assertArrayEquals(shorts(ByteOrder.LITTLE_ENDIAN, 0, 1, 2, 3, 4, 5), out);
    }

    @Test
    void bytesCodecBeforeArrayToBytesIsAnOrderError() {
        CodecException e = assertThrows(
                CodecException.class,
                () -> pipeline(
                        "[{\"name\":\"zstd\",\"configuration\":{\"level\":0}},{\"name\":\"bytes\"}]",
                        new int[] {2},
                        I2,
                        "0"));
        assertTrue(e.getMessage().contains("before the array->bytes codec"), e.getMessage());
    }

    @Test
    void unknownCodecIsNamed() {
        UnknownCodecException e = assertThrows(
                UnknownCodecException.class,
                () -> pipeline(
                        "[{\"name\":\"bytes\"},{\"name\":\"org.example.nosuch\",\"must_understand\":true}]",
                        new int[] {2},
                        I2,
                        "0"));
        assertTrue(e.getMessage().contains("org.example.nosuch"), e.getMessage());
    }

    @Test
    void jenkinsLookup3MatchesReferenceVectors() {
        byte[] s = "Four score and seven years ago".getBytes(StandardCharsets.US_ASCII);
        assertEquals(0xdeadbeef, JenkinsLookup3Codec.hash(new byte[0], 0, 0));
        assertEquals(0x17770551, JenkinsLookup3Codec.hash(s, s.length, 0));
        assertEquals(0xcd628161, JenkinsLookup3Codec.hash(s, s.length, 1));
    }

    /** A 1-d int32 shard of 4 elements, inner chunks of 2: chunk 0 stored, chunk 1 empty; index + crc32c at the end. */
    private static byte[] shard(long offset0, boolean emptySecond) {
        ByteBuffer b = ByteBuffer.allocate(8 + 32 + 4).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(7).putInt(-8);
        b.putLong(offset0).putLong(8);
        b.putLong(emptySecond ? -1 : 0).putLong(emptySecond ? -1 : 8);
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 8, 32);
        b.putInt((int) crc.getValue());
        return b.array();
    }

    private static final String SHARDED = "[{\"name\":\"sharding_indexed\",\"configuration\":{\"chunk_shape\":[2],"
            + "\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
            + "\"index_codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}},{\"name\":\"crc32c\"}],"
            + "\"index_location\":\"end\"}}]";

    @Test
    void shardWithAnEmptyInnerChunkReadsFill() throws Exception {
        CodecPipeline p = pipeline(SHARDED, new int[] {4}, I4, "-1");
        byte[] out = p.decodeInto(shard(0, true), null, 16);
        ByteBuffer b = ByteBuffer.wrap(out).order(ByteOrder.LITTLE_ENDIAN);
        assertArrayEquals(new int[] {7, -8, -1, -1}, new int[] {b.getInt(0), b.getInt(4), b.getInt(8), b.getInt(12)});
    }

    @Test
    void shardIndexPointingPastTheEndFails() throws Exception {
        CodecPipeline p = pipeline(SHARDED, new int[] {4}, I4, "0");
        CodecException e = assertThrows(CodecException.class, () -> p.decodeInto(shard(1000, true), null, 16));
        assertTrue(e.getMessage().contains("index entry 0"), e.getMessage());
    }

    @Test
    void shardIndexWithABadChecksumFails() throws Exception {
        CodecPipeline p = pipeline(SHARDED, new int[] {4}, I4, "0");
        byte[] s = shard(0, true);
        s[s.length - 1] ^= 1;
        assertThrows(CodecException.class, () -> p.decodeInto(s, null, 16));
    }

    @Test
    void shardShorterThanItsIndexFails() throws Exception {
        CodecPipeline p = pipeline(SHARDED, new int[] {4}, I4, "0");
        CodecException e = assertThrows(CodecException.class, () -> p.decodeInto(new byte[10], null, 16));
        assertTrue(e.getMessage().contains("shorter than its"), e.getMessage());
    }

    @Test
    void fillValuesInEveryForm() throws Exception {
        NumpyDtype f4 = NumpyDtype.parseOrNull("<f4");
        NumpyDtype f2 = NumpyDtype.parseOrNull("<f2");
        NumpyDtype f8 = NumpyDtype.parseOrNull("<f8");
        assertEquals(1.5, V3Fill.floatValue(JSON.readTree("\"0x3fc00000\""), f4));
        assertEquals(1.5, V3Fill.floatValue(JSON.readTree("\"0x3e00\""), f2));
        assertEquals(-1000.0, V3Fill.floatValue(JSON.readTree("\"0xc08f400000000000\""), f8));
        assertTrue(Double.isNaN(V3Fill.floatValue(JSON.readTree("\"NaN\""), f8)));
        assertEquals(Double.NEGATIVE_INFINITY, V3Fill.floatValue(JSON.readTree("\"-Infinity\""), f8));
        JsonNode t = JSON.readTree("true");
        assertArrayEquals(new byte[] {1}, V3Fill.elementBytes(t, NumpyDtype.parseOrNull("|b1")));
        assertArrayEquals(new byte[] {0, 0, (byte) 0xc0, 0x7f}, V3Fill.elementBytes(JSON.readTree("\"NaN\""), f4));
    }
}
