package io.nczarr.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.error.CodecException;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * Issue 22: VirtualiZarr 2.8 writes {@code {"id": "imagecodecs_lzf", "header": true}} for HDF5's LZF filter, whose
 * chunks (h5py) are bare liblzf streams. Such a chunk reads right when it fills exactly the expected size; a
 * headered stream is read as before; anything else is an error, never other bytes.
 */
class LzfHeaderlessTest {

    static final ObjectMapper JSON = new ObjectMapper();

    static BytesBytesCodec lzf(String json) throws Exception {
        return LzfCodec.create(new CodecConfig("imagecodecs_lzf", JSON.readTree(json), "|u1"));
    }

    static byte[] expected(CodecContractTest.Sample s) throws Exception {
        byte[] d = lzf("{\"id\":\"imagecodecs_lzf\"}").decode(s.encoded(), s.decodedBytes());
        assertTrue(TestSupport.sha256(d).equals(s.decodedSha256()));
        return d;
    }

    @Test
    void aBareStreamUnderADeclaredHeaderFillingTheChunkReads() throws Exception {
        CodecContractTest.Sample s = ContractSamples.lzf();
        byte[] bare = Arrays.copyOfRange(s.encoded(), 4, s.encoded().length);
        byte[] out = lzf("{\"id\":\"imagecodecs_lzf\",\"header\":true}").decode(bare, s.decodedBytes());
        assertArrayEquals(expected(s), out);
    }

    @Test
    void aHeaderedStreamStillReads() throws Exception {
        CodecContractTest.Sample s = ContractSamples.lzf();
        assertArrayEquals(
                expected(s), lzf("{\"id\":\"imagecodecs_lzf\",\"header\":true}").decode(s.encoded(), s.decodedBytes()));
    }

    @Test
    void aBareStreamThatDoesNotFillTheChunkKeepsTheHeaderError() throws Exception {
        CodecContractTest.Sample s = ContractSamples.lzf();
        byte[] bare = Arrays.copyOfRange(s.encoded(), 4, s.encoded().length);
        CodecException e = assertThrows(
                CodecException.class, () -> lzf("{\"id\":\"imagecodecs_lzf\"}").decode(bare, s.decodedBytes() + 8));
        assertTrue(e.getMessage().contains("imagecodecs_lzf"), e.getMessage());
    }

    @Test
    void withoutHeaderOnlyTheBareFormIsTried() throws Exception {
        CodecContractTest.Sample s = ContractSamples.lzf();
        assertThrows(
                CodecException.class,
                () -> lzf("{\"id\":\"imagecodecs_lzf\",\"header\":false}").decode(s.encoded(), s.decodedBytes()));
    }
}
