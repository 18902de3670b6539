package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.error.MetadataException;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import org.junit.jupiter.api.Test;

/**
 * zarr-extensions raw bits {@code r<N>} and zarr-python's {@code raw_bytes}: opaque values of N/8 bytes, a missing
 * chunk reading as the fill bytes (a list of byte values, or base64). The zarr-python store:
 * AutumnConformanceTest (autumn_zarr342_raw).
 */
class RawBitsTest {
    private static final String ROOT = "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{}}";

    private static String array(String dataType, String fill) {
        return "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":[3],\"data_type\":" + dataType + ","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":[2]}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}},"
                + "\"fill_value\":" + fill + ",\"codecs\":[{\"name\":\"bytes\"}],"
                + "\"dimension_names\":[\"x\"],\"attributes\":{}}";
    }

    private static byte[][] read(String dataType, String fill) throws IOException {
        MemoryStore s = MemoryStore.builder("mem:raw")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array(dataType, fill))
                .put("v/c/0", new byte[] {1, 2, 3, 4, 5, 6})
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.ZARR, true);
        VarModel v = m.root().variables().get(0);
        assertEquals(NcType.OPAQUE, v.type());
        return (byte[][]) new ChunkReader(s, v, CodecRegistry.standard(), null).readAll();
    }

    @Test
    void rawBitsReadAsOpaqueOfTheirBytes() throws IOException {
        byte[][] r = read("\"r24\"", "[9, 8, 7]");
        assertArrayEquals(new byte[][] {{1, 2, 3}, {4, 5, 6}, {9, 8, 7}}, r);
        // each element its own array
        r[2][0] = 0;
        assertArrayEquals(new byte[] {9, 8, 7}, read("\"r24\"", "[9, 8, 7]")[2]);
    }

    @Test
    void zarrPythonsRawBytesWithABase64Fill() throws IOException {
        byte[][] r = read("{\"name\":\"raw_bytes\",\"configuration\":{\"length_bytes\":3}}", "\"AQID\"");
        assertArrayEquals(new byte[][] {{1, 2, 3}, {4, 5, 6}, {1, 2, 3}}, r);
    }

    @Test
    void noFillMeansZeros() throws IOException {
        assertArrayEquals(new byte[] {0, 0, 0}, read("\"r24\"", "0")[2]);
    }

    @Test
    void aFillOfTheWrongLengthIsAMetadataError() {
        MemoryStore s = MemoryStore.builder("mem:raw")
                .put("zarr.json", ROOT)
                .put("v/zarr.json", array("\"r24\"", "[1, 2]"))
                .build();
        MetadataException e =
                assertThrows(MetadataException.class, () -> MetadataReader.read(s, DatasetUrl.Format.ZARR, true));
        assertEquals("v/zarr.json", e.key());
        assertTrue(e.getMessage().contains("is not 3 raw bytes"), e.getMessage());
    }
}
