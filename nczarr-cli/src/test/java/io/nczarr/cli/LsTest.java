package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Issue 25, item 5: {@code ls} on Zarr v3 shows the codec chain, the shard shape and the inner chunk shape. */
class LsTest {

    static Map<String, String> lines(String dataset) {
        MainTest.Run r = MainTest.run("ls", Corpus.v3Dir().resolve(dataset).toString());
        assertEquals(0, r.rc(), r.err());
        Map<String, String> m = new java.util.HashMap<>();
        r.out().lines().skip(1).forEach(l -> m.put(l.substring(0, l.indexOf(' ')), l));
        return m;
    }

    @Test
    void v3CodecChainsAreShownNotUncompressed() {
        Map<String, String> ls = lines("codecs.zarr");
        assertTrue(ls.get("/gzip").contains("bytes(endian=little) -> gzip(level="), ls.get("/gzip"));
        assertTrue(ls.get("/gzip_crc32c").matches(".*gzip\\(level=\\d+\\) -> crc32c$"), ls.get("/gzip_crc32c"));
        assertTrue(
                ls.get("/blosc_zstd_shuffle").contains("blosc(")
                        && ls.get("/blosc_zstd_shuffle").contains("cname=zstd"),
                ls.get("/blosc_zstd_shuffle"));
        assertTrue(
                ls.get("/zstd_level5_checksum").contains("zstd(level=5,checksum=true)"),
                ls.get("/zstd_level5_checksum"));
        assertTrue(ls.get("/transpose_2d").contains("transpose(order=[1, 0]) -> bytes"), ls.get("/transpose_2d"));
        assertTrue(ls.get("/uncompressed_uint64").endsWith("bytes(endian=little)"), ls.get("/uncompressed_uint64"));
        for (String line : ls.values()) {
            assertFalse(
                    line.contains("uncompressed")
                            && !line.startsWith("/uncompressed")
                            && !line.startsWith("/one_byte_uint8_uncompressed")
                            && !line.startsWith("/string_uncompressed"),
                    line);
        }
    }

    @Test
    void shardsShowTheShardAndTheInnerChunkShape() {
        Map<String, String> ls = lines("sharding.zarr");
        String end = ls.get("/end");
        assertTrue(end.contains("shard [4, 4] chunks [2, 2]"), end);
        assertTrue(
                end.contains(
                        "sharding[bytes(endian=little) -> zstd(level=0,checksum=false); index: bytes(endian=little)"
                                + " -> crc32c, end]"),
                end);
        String nested = ls.get("/nested");
        assertTrue(
                nested.matches(".*shard \\[\\d+, \\d+\\] chunks \\[\\d+, \\d+\\] chunks \\[\\d+, \\d+\\].*"), nested);
    }
}
