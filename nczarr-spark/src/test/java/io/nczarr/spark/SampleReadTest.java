package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.sql.Timestamp;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** test-data/sample.file (NCZarr, netcdf-c) through Spark equals the core's reads. */
class SampleReadTest {
    static SparkSession spark;
    static String url;

    @BeforeAll
    static void start() {
        spark = SparkSessions.start();
        url = Corpus.testDataDir().resolve("sample.file").toUri() + "#mode=nczarr,file";
    }

    @AfterAll
    static void stop() {
        SparkSessions.stop(spark);
    }

    static Dataset<Row> load() {
        return spark.read().format("nczarr").load(url);
    }

    static Object core(String var) throws Exception {
        Opened ds = CoreAccess.dataset(url);
        return CoreAccess.readAll(CoreAccess.find(ds, var));
    }

    @Test
    void schemaHasDimensionsCoordinatesAndVariables() {
        StructType s = load().schema();
        assertEquals(List.of("time", "lat", "lon", "temp", "precip"), List.of(s.fieldNames()));
        assertEquals(DataTypes.TimestampType, s.apply("time").dataType());
        assertEquals(DataTypes.FloatType, s.apply("lat").dataType());
        assertEquals(DataTypes.FloatType, s.apply("temp").dataType());
        assertEquals(DataTypes.ShortType, s.apply("precip").dataType());
    }

    @Test
    void rawValuesEqualTheCoreReadInBothPaths() throws Exception {
        float[] temp = (float[]) core("temp");
        short[] precip = (short[]) core("precip");
        for (String columnar : List.of("true", "false")) {
            List<Row> rows = spark.read()
                    .format("nczarr")
                    .option("columnar", columnar)
                    .load(url)
                    .orderBy("time", "lat", "lon")
                    .collectAsList();
            assertEquals(60, rows.size());
            for (int i = 0; i < 60; i++) {
                Row r = rows.get(i);
                assertEquals(temp[i], r.getFloat(3), "temp " + i + " columnar=" + columnar);
                assertEquals(precip[i], r.getShort(4), "precip " + i + " columnar=" + columnar);
            }
            // days since 2000-01-01: 0, 31, 60, 91
            assertEquals(Timestamp.valueOf("2000-02-01 00:00:00"), rows.get(15).getTimestamp(0));
            assertEquals(-30f, rows.get(0).getFloat(1));
            assertEquals(288f, rows.get(4).getFloat(2));
        }
    }

    @Test
    void cfDecodingScalesAndNullsFills() throws Exception {
        short[] precip = (short[]) core("precip");
        Dataset<Row> df = spark.read().format("nczarr").option("decode", "cf").load(url);
        // unpacked to scale_factor's type, as CF says
        assertEquals(DataTypes.FloatType, df.schema().apply("precip").dataType());
        assertEquals(DataTypes.FloatType, df.schema().apply("temp").dataType());
        List<Row> rows = df.orderBy("time", "lat", "lon").collectAsList();
        int nulls = 0;
        for (int i = 0; i < 60; i++) {
            Row r = rows.get(i);
            if (precip[i] == -32767) {
                assertTrue(r.isNullAt(4));
                nulls++;
            } else {
                assertEquals((float) (precip[i] * (double) 0.01f), r.getFloat(4));
            }
        }
        assertEquals(1, nulls);
        // temp(1, 0, 3) is _FillValue
        assertTrue(rows.get(15 + 3).isNullAt(3));
        assertEquals(1, df.where("temp IS NULL").count());
    }

    @Test
    void theDatasetIsOpenedOncePerJvm() throws Exception {
        load().count();
        Opened first = CoreAccess.dataset(url);
        spark.read()
                .format("nczarr")
                .option("variables", "temp")
                .load(url)
                .selectExpr("max(temp)")
                .collect();
        // planning on the driver and every task of local[2] reuse the same open dataset (store, clients, pools)
        assertTrue(first == CoreAccess.dataset(url));
    }

    @Test
    void aggregationByTime() {
        List<Row> rows = spark.read()
                .format("nczarr")
                .option("variables", "precip")
                .option("decode", "cf")
                .load(url)
                .groupBy("time")
                .count()
                .orderBy("time")
                .collectAsList();
        assertEquals(4, rows.size());
        assertEquals(15L, rows.get(0).getLong(1));
    }

    @Test
    void filtersOnDimensionsPruneChunks() {
        Dataset<Row> df = load().where("time = timestamp'2000-02-01 00:00:00' AND lat >= 0");
        assertEquals(10, df.count());
        NcZarrScan scan = scan(df);
        // temp's chunks (3, 2, 4): time index 1 is in the first time chunk, lat 0..30 in both lat chunks
        assertEquals(10, scan.plan().rows());
        assertEquals(4, blocks(scan));
        // V2 predicates with the literal first prune the same
        NcZarrScan flipped = scan(load().where("0 <= lat AND timestamp'2000-02-01 00:00:00' = time"));
        assertEquals(4, blocks(flipped));
        assertTrue(flipped.description().contains("prunedBy=["), flipped.description());

        Dataset<Row> in =
                load().where("lon IN (0, 288) AND time BETWEEN timestamp'2000-03-01' AND timestamp'2000-04-01'");
        assertEquals(2 * 3 * 2, in.count());
    }

    @Test
    void columnPruningAndLimit() {
        Dataset<Row> df = load().select("temp");
        NcZarrScan scan = scan(df);
        assertEquals(List.of("temp"), List.of(scan.readSchema().fieldNames()));
        assertEquals(7, load().limit(7).collectAsList().size());
        NcZarrScan limited = scan(load().limit(7));
        assertTrue(
                limited.plan().rows() >= 7 && limited.plan().rows() < 60,
                "rows " + limited.plan().rows());
        assertEquals(60L, scan.estimateStatistics().numRows().getAsLong());
    }

    @Test
    void chunksLayoutIsOneRowPerChunkWithItsValues() throws Exception {
        float[] temp = (float[]) core("temp");
        Dataset<Row> df = spark.read()
                .format("nczarr")
                .option("layout", "chunks")
                .option("variables", "temp")
                .option("decode", "cf")
                .load(url);
        assertEquals(List.of("origin", "shape", "temp"), List.of(df.schema().fieldNames()));
        List<Row> rows = df.collectAsList();
        // temp (4, 3, 5) in chunks of (3, 2, 4): 2 x 2 x 2 chunks
        assertEquals(8, rows.size());
        int points = 0;
        int nulls = 0;
        for (Row r : rows) {
            List<Long> o = r.getList(0);
            List<Integer> sh = r.getList(1);
            List<Float> v = r.getList(2);
            assertEquals(sh.get(0) * sh.get(1) * sh.get(2), v.size());
            int k = 0;
            for (int t = 0; t < sh.get(0); t++) {
                for (int y = 0; y < sh.get(1); y++) {
                    for (int x = 0; x < sh.get(2); x++) {
                        int flat = (int) ((o.get(0) + t) * 15 + (o.get(1) + y) * 5 + (o.get(2) + x));
                        if (v.get(k) == null) {
                            assertEquals(-999f, temp[flat]);
                            nulls++;
                        } else {
                            assertEquals(temp[flat], v.get(k));
                        }
                        k++;
                    }
                }
            }
            points += v.size();
        }
        assertEquals(60, points);
        assertEquals(1, nulls);
    }

    @Test
    void charAndStringVariablesAreStringColumns() {
        // char name(station, strlen): one string per station, beside a float of the same dimension
        Dataset<Row> obs = spark.read()
                .format("nczarr")
                .option("variables", "obs/name,obs/elevation")
                .load(url);
        assertEquals(
                List.of("station", "name", "elevation"), List.of(obs.schema().fieldNames()));
        assertEquals(DataTypes.StringType, obs.schema().apply("name").dataType());
        List<Row> rows = obs.orderBy("station").collectAsList();
        assertEquals(
                List.of("Boulder", "Bergen"),
                rows.stream().map(r -> r.getString(1)).toList());
        assertEquals(12f, rows.get(1).getFloat(2));
        List<String> chunked = new java.util.ArrayList<>();
        for (Row r : spark.read()
                .format("nczarr")
                .option("layout", "chunks")
                .option("variables", "obs/name")
                .load(url)
                .orderBy("origin")
                .collectAsList()) {
            chunked.addAll(r.getList(2));
        }
        assertEquals(List.of("Boulder", "Bergen"), chunked);
        // vlen strings (Zarr v2 object dtype)
        String edge = Corpus.testDataDir().resolve("edge.zarr").toUri() + "#mode=zarr,file";
        List<Row> codes = spark.read()
                .format("nczarr")
                .option("variables", "codes")
                .load(edge)
                .orderBy("code")
                .collectAsList();
        assertEquals(
                List.of("abc", "xy", "", "z", "q"),
                codes.stream().map(r -> r.getString(1)).toList());
    }

    @Test
    void createTableUsingNczarr() {
        spark.sql("CREATE TABLE sample_t USING nczarr OPTIONS (path '" + url + "', variables 'temp')");
        try {
            List<Row> r = spark.sql("SELECT count(*), max(temp) FROM sample_t WHERE lon = 72")
                    .collectAsList();
            assertEquals(12L, r.get(0).getLong(0));
            assertEquals(303.25f, r.get(0).getFloat(1));
        } finally {
            spark.sql("DROP TABLE IF EXISTS sample_t");
        }
    }

    @Test
    void badInputNamesDatasetAndVariable() {
        Exception e = assertThrows(
                Exception.class,
                () -> spark.read()
                        .format("nczarr")
                        .option("variables", "nope")
                        .load(url)
                        .count());
        assertTrue(String.valueOf(e.getMessage()).contains("nope"), e.getMessage());
        Exception mixed = assertThrows(
                Exception.class,
                () -> spark.read()
                        .format("nczarr")
                        .option("variables", "temp,obs/t2m")
                        .load(url));
        assertTrue(String.valueOf(mixed.getMessage()).contains("t2m"), mixed.getMessage());
    }

    static NcZarrScan scan(Dataset<Row> df) {
        return (NcZarrScan) ScanProbe.scan(df);
    }

    static int blocks(NcZarrScan scan) {
        int n = 0;
        for (ChunkPartition p : scan.plan().partitions()) {
            n += p.origins().length;
        }
        return n;
    }
}
