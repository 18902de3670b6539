package io.nczarr.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.cdm.NcZarrFiles;
import io.nczarr.error.ChunkException;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import ucar.ma2.Array;
import ucar.ma2.InvalidRangeException;
import ucar.ma2.Section;
import ucar.nc2.NetcdfFile;
import ucar.nc2.Variable;

/**
 * Partial reads of sharded Zarr v3 arrays: every section gives the values of the whole read (which
 * reads each shard with one GET), and on S3 one inner chunk costs two GETs (its shard's index and
 * the chunk), a whole shard one GET, neighbouring inner chunks one request together.
 */
class V3ShardingReadTest {

    static final String BUCKET = "corpus";

    static Path sharding() {
        return Corpus.v3Dir().resolve("sharding.zarr");
    }

    static String s3Url() {
        LocalS3 s3 = LocalS3.get();
        s3.upload(sharding(), BUCKET, "v3_sharding_reads/sharding.zarr");
        return s3.signedUrl(BUCKET, "v3_sharding_reads/sharding.zarr", "zarr,s3");
    }

    /** The variable with cdm's cache off, so every read reaches the reader (small variables are cached whole). */
    static Variable uncached(NetcdfFile nc, String name) {
        Variable v = nc.findVariable(name);
        v.setCaching(false);
        return v;
    }

    /** Every window of 1..3 elements per dimension equals the same part of the whole read. */
    static void sectionsMatchWholeRead(NetcdfFile nc, String name) throws IOException, InvalidRangeException {
        Variable v = uncached(nc, name);
        Array whole = v.read();
        int[] shape = v.getShape();
        int[] size = new int[shape.length];
        for (int len = 1; len <= 3; len++) {
            java.util.Arrays.fill(size, len);
            int[] origin = new int[shape.length];
            while (true) {
                int[] count = new int[shape.length];
                for (int d = 0; d < shape.length; d++) {
                    count[d] = Math.min(size[d], shape[d] - origin[d]);
                }
                Section s = new Section(origin, count);
                Array part = v.read(s);
                Array expected = whole.section(origin, count);
                assertEquals(expected.toString(), part.toString(), name + " " + s);
                int d = shape.length - 1;
                while (d >= 0 && ++origin[d] >= shape[d]) {
                    origin[d] = 0;
                    d--;
                }
                if (d < 0) {
                    break;
                }
            }
        }
    }

    @Test
    void sectionsOfEveryShardedArrayMatchTheWholeRead() throws Exception {
        try (NetcdfFile nc = NcZarrFiles.open(sharding().toUri() + "#mode=zarr,file")) {
            for (String name : List.of("end", "start", "nested", "inner_chain", "strings", "index_no_crc")) {
                sectionsMatchWholeRead(nc, name);
            }
        }
    }

    @Test
    void onS3OneInnerChunkIsTwoGetsAndAWholeShardOne() throws Exception {
        LocalS3 s3 = LocalS3.get();
        String url = s3Url();
        try (NetcdfFile nc = NcZarrFiles.open(url)) {
            Variable end = uncached(nc, "end");
            Variable start = uncached(nc, "start");
            CountingProxy p = s3.signed;

            p.reset();
            end.read(new Section(new int[] {0, 0}, new int[] {2, 2}));
            assertEquals(2, p.counts().get(), "one inner chunk, index at the end: " + p.requests());
            assertTrue(
                    p.requests().stream().allMatch(r -> r.method().equals("GET")),
                    p.requests().toString());

            p.reset();
            start.read(new Section(new int[] {2, 3}, new int[] {2, 3}));
            assertEquals(2, p.counts().get(), "one inner chunk, index at the start: " + p.requests());

            p.reset();
            end.read(new Section(new int[] {0, 0}, new int[] {4, 4}));
            assertEquals(1, p.counts().get(), "a whole shard: " + p.requests());

            p.reset();
            end.read(new Section(new int[] {2, 0}, new int[] {2, 4}));
            assertEquals(2, p.counts().get(), "two neighbouring inner chunks, coalesced: " + p.requests());

            p.reset();
            end.read(new Section(new int[] {8, 4}, new int[] {2, 2}));
            assertEquals(1, p.counts().get(), "the shard never written: its index GET finds nothing");

            sectionsMatchWholeRead(nc, "end");
            sectionsMatchWholeRead(nc, "strings");
        }
    }

    @Test
    void aShardIndexPastTheEndFailsPartialAndWholeReads() throws Exception {
        Path bad = Corpus.v3Dir().resolve("bad/v3_bad_shard_index_past_end.zarr");
        try (NetcdfFile nc = NcZarrFiles.open(bad.toUri() + "#mode=zarr,file")) {
            Variable v = uncached(nc, "v");
            IOException whole = assertThrows(IOException.class, v::read);
            assertTrue(whole.getMessage().contains("c/0"), whole.getMessage());
            int[] shape = v.getShape();
            int[] count = shape.clone();
            count[0] = 1;
            boolean failed = false;
            for (int i = 0; i < shape[0]; i++) {
                int[] origin = new int[shape.length];
                origin[0] = i;
                try {
                    v.read(new Section(origin, count));
                } catch (ChunkException e) {
                    failed = true;
                    assertTrue(e.getMessage().contains("v"), e.getMessage());
                }
            }
            assertTrue(failed, "some partial read must reach the bad index entry");
        }
    }
}
