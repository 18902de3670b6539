package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.s3.CountingProxy;
import io.nczarr.testkit.s3.LocalS3;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Zarr v3 sharded store, a kerchunk JSON and an NCZarr store on the loopback S3 server through Spark:
 * values equal the core's reads, partitions follow shards, and a filter on one time step fetches only the
 * chunks of that step (counted by the S3 relay).
 */
class StoresReadTest {
    static SparkSession spark;

    @BeforeAll
    static void start() {
        spark = SparkSessions.start();
    }

    @AfterAll
    static void stop() {
        SparkSessions.stop(spark);
    }

    static Object core(String url, String var) throws Exception {
        Opened ds = CoreAccess.dataset(url);
        return CoreAccess.readAll(CoreAccess.find(ds, var));
    }

    @Test
    void shardedV3PartitionsFollowShardsAndValuesEqualTheCore() throws Exception {
        String url = Corpus.v3Dir().resolve("sharding.zarr").toUri() + "#mode=zarr,file";
        Dataset<Row> df =
                spark.read().format("nczarr").option("variables", "end").load(url);
        assertEquals(List.of("row", "col", "end"), List.of(df.schema().fieldNames()));
        // uint16 widens to int
        assertEquals(DataTypes.IntegerType, df.schema().apply("end").dataType());
        NcZarrScan scan = SampleReadTest.scan(df);
        // 10 x 7 in shards of 4 x 4: 3 x 2 shards, each one block
        assertEquals(6, SampleReadTest.blocks(scan));
        short[] expected = (short[]) core(url, "end");
        List<Row> rows = df.orderBy("row", "col").collectAsList();
        assertEquals(70, rows.size());
        for (int i = 0; i < 70; i++) {
            assertEquals(expected[i] & 0xffff, rows.get(i).getInt(2), "end " + i);
            assertEquals((long) (i / 7), rows.get(i).getLong(0));
        }
        // a square matrix's repeated dimension gets a second column name
        Dataset<Row> nested =
                spark.read().format("nczarr").option("variables", "nested").load(url);
        assertEquals(
                List.of("_zdim_8", "_zdim_8_1", "nested"),
                List.of(nested.schema().fieldNames()));
        assertEquals(
                2016L,
                nested.agg(org.apache.spark.sql.functions.sum("nested")).first().getLong(0));
    }

    @Test
    void kerchunkReferencesReadLikeTheCore() throws Exception {
        String url = Corpus.testDataDir().resolve("kerchunk/nc4.v1.json").toUri() + "#mode=kerchunk";
        Dataset<Row> df = spark.read().format("nczarr").option("decode", "cf").load(url);
        assertEquals(List.of("time", "y", "x", "temp"), List.of(df.schema().fieldNames()));
        assertEquals(DataTypes.TimestampType, df.schema().apply("time").dataType());
        float[] expected = (float[]) core(url, "temp");
        List<Row> rows = df.orderBy("time", "y", "x").collectAsList();
        assertEquals(expected.length, rows.size());
        for (int i = 0; i < expected.length; i++) {
            if (expected[i] == -999f) {
                assertTrue(rows.get(i).isNullAt(3), "fill at " + i);
            } else {
                assertEquals(expected[i], rows.get(i).getFloat(3), "temp " + i);
            }
        }
        // hours since 2000-01-01: step 2 is 12:00
        assertEquals(120, df.where("time = timestamp'2000-01-01 12:00:00'").count());
    }

    @Test
    void onS3AFilterOnOneTimeStepFetchesOnlyThatStepsChunks() throws Exception {
        LocalS3 s3 = LocalS3.get();
        s3.upload(Corpus.testDataDir().resolve("sample.file"), "spark", "sample.file");
        String url = s3.signed.endpoint() + "/spark/sample.file";
        CountingProxy p = s3.signed;
        Dataset<Row> df = spark.read()
                .format("nczarr")
                .option("mode", "nczarr,s3")
                .option("aws.profile", LocalS3.PROFILE)
                .option("variables", "precip")
                .load(url);
        // metadata and coordinates were read on the driver when the table was made
        p.reset();
        Dataset<Row> step = df.where("time = timestamp'2000-04-01 00:00:00'");
        assertEquals(15, step.select("precip").collectAsList().size());
        List<CountingProxy.Request> gets =
                p.requests().stream().filter(r -> r.method().equals("GET")).toList();
        // precip is chunked (2, 2, 2): time index 3 is in the second time chunk, 2 x 3 chunks of it
        assertEquals(6, gets.size(), gets.toString());
        assertTrue(gets.stream().allMatch(r -> r.path().contains("/precip/1.")), gets.toString());

        p.reset();
        assertEquals(60, df.select("precip").collectAsList().size());
        assertEquals(12, p.counts().get(), "every chunk once: " + p.requests());

        // count(*) needs no column: no chunk is fetched
        p.reset();
        assertEquals(60, df.count());
        assertEquals(0, p.counts().get(), p.requests().toString());

        // column pruning: only the coordinates are needed, no chunk of precip is fetched
        p.reset();
        assertEquals(4, df.select("time").distinct().count());
        assertEquals(0, p.counts().get(), p.requests().toString());
    }

    @Test
    void aForbiddenChunkFailsTheQueryWithTheCoresMessage() {
        LocalS3 s3 = LocalS3.get();
        s3.upload(Corpus.testDataDir().resolve("sample.file"), "spark", "sample.file");
        String url = s3.signedUrl("spark", "sample.file", "nczarr,s3");
        Dataset<Row> df =
                spark.read().format("nczarr").option("variables", "precip").load(url);
        s3.signed.faults(
                r -> r.path().endsWith("/precip/0.0.1") ? CountingProxy.Fault.status(403, "AccessDenied") : null);
        try {
            long start = System.nanoTime();
            Exception e =
                    assertThrows(Exception.class, () -> df.select("precip").collectAsList());
            String m = String.valueOf(e.getMessage());
            // the task's error: dataset, object key and status, no credentials; the job ends (no retry loop)
            assertTrue(m.contains("precip/0.0.1") && m.contains("403"), m);
            assertTrue(!m.contains("local-test-secret"), m);
            assertTrue(System.nanoTime() - start < 60_000_000_000L);
        } finally {
            s3.signed.faults(null);
        }
    }
}
