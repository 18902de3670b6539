package io.nczarr.meta;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.nczarr.chunk.ChunkReader;
import io.nczarr.codec.CodecRegistry;
import io.nczarr.model.Attr;
import io.nczarr.model.DatasetModel;
import io.nczarr.model.GroupModel;
import io.nczarr.model.NcType;
import io.nczarr.model.VarModel;
import io.nczarr.store.MemoryStore;
import io.nczarr.url.DatasetUrl;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Issue 22, finding 6 (NCZarr over Zarr v3, netcdf-c's draft; hand-written from its documented
 * spelling since no released netcdf-c writes it): child groups under {@code subgroups}, a dimension
 * reference into a sibling group visited later, a char variable's {@code _FillValue}.
 */
class NcZarrV3DraftTest {

    static String group(String dims, String members) {
        return "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{" + "\"_nczarr_group\":{\"dimensions\":"
                + dims + "," + members + "}}}";
    }

    static String array(String dtype, String shape, String fill, String refs, String attrs) {
        return "{\"zarr_format\":3,\"node_type\":\"array\",\"shape\":" + shape + ",\"data_type\":\"" + dtype + "\","
                + "\"chunk_grid\":{\"name\":\"regular\",\"configuration\":{\"chunk_shape\":" + shape + "}},"
                + "\"chunk_key_encoding\":{\"name\":\"default\",\"configuration\":{\"separator\":\"/\"}},"
                + "\"fill_value\":" + fill
                + ",\"codecs\":[{\"name\":\"bytes\",\"configuration\":{\"endian\":\"little\"}}],"
                + "\"attributes\":{" + attrs + "\"_nczarr_array\":{\"dimension_references\":" + refs + "}}}";
    }

    @Test
    void subgroupsSiblingDimensionsAndCharFill() throws IOException {
        String root = "{\"zarr_format\":3,\"node_type\":\"group\",\"attributes\":{"
                + "\"_nczarr_superblock\":{\"version\":\"3.0.0\",\"format\":3},"
                + "\"_nczarr_group\":{\"dimensions\":{\"x\":{\"size\":3,\"unlimited\":0}},\"arrays\":[\"c\"],"
                + "\"subgroups\":[\"a\",\"b\"]}}}";
        MemoryStore s = MemoryStore.builder("mem:nczv3")
                .put("zarr.json", root)
                // /a is read before /b, but its array uses /b's dimension
                .put("a/zarr.json", group("{}", "\"arrays\":[\"v\"]"))
                .put("a/v/zarr.json", array("int16", "[2,3]", "0", "[\"/b/y\",\"/x\"]", ""))
                .put("a/v/c/0/0", new byte[] {1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0})
                .put("b/zarr.json", group("{\"y\":2}", "\"arrays\":[]"))
                .put(
                        "c/zarr.json",
                        array("uint8", "[3]", "0", "[\"/x\"]", "\"_FillValue\":\"*\",\"_nczarr_array_extra\":null,")
                                .replace("\"_nczarr_array\":{", "\"_nczarr_array\":{\"nczarr_type\":\"char\","))
                .build();
        DatasetModel m = MetadataReader.read(s, DatasetUrl.Format.NCZARR, true);
        List<GroupModel> groups = m.root().groups();
        assertEquals(List.of("a", "b"), groups.stream().map(GroupModel::name).toList());
        VarModel v = groups.get(0).variables().get(0);
        assertEquals(List.of("/b/y", "/x"), v.dimensions());
        short[] data = (short[]) new ChunkReader(s, v, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new short[] {1, 2, 3, 4, 5, 6}, data);
        VarModel c = m.root().variables().get(0);
        assertEquals(NcType.CHAR, c.type());
        Attr fill = c.attributes().stream()
                .filter(a -> a.name().equals("_FillValue"))
                .findFirst()
                .orElseThrow();
        assertEquals(NcType.CHAR, fill.type());
        assertEquals("*", fill.value());
        byte[] chars = (byte[]) new ChunkReader(s, c, CodecRegistry.builtIns(), null).readAll();
        assertArrayEquals(new byte[] {'*', '*', '*'}, chars);
    }
}
