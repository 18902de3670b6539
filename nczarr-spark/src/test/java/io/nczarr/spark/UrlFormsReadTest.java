package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.read.VariableReader;
import io.nczarr.testkit.Corpus;
import io.nczarr.testkit.http.RangeHttpServer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.DataTypes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The URL forms beyond plain stores through Spark, each equal to the core's read of the same URL: a CF-1.13
 * aggregation (Zarr fragments), Icechunk snapshots selected in the URL or by {@code nczarr.icechunk.*} options,
 * Icechunk virtual chunks authorized by an option, kerchunk Parquet references, and stores over HTTP.
 */
class UrlFormsReadTest {
    static SparkSession spark;
    static RangeHttpServer http;

    @TempDir
    static Path dir;

    @BeforeAll
    static void start() throws IOException {
        spark = SparkSessions.start();
        http = RangeHttpServer.start();
        http.putTree("/data", Corpus.testDataDir());
    }

    @AfterAll
    static void stop() {
        SparkSessions.stop(spark);
        http.close();
    }

    /** Rows ordered by the dimension columns; column {@code col} equals the core's read of {@code var}. */
    static void assertEqualsCore(Dataset<Row> df, String url, String var, String col) throws IOException {
        VariableReader v = CoreAccess.find(CoreAccess.dataset(url), var);
        Object raw = CoreAccess.readAll(v);
        int dims = v.dimensions().size();
        String[] names = df.schema().fieldNames();
        List<Row> rows = df.orderBy(names[0], java.util.Arrays.copyOfRange(names, 1, dims))
                .collectAsList();
        int at = List.of(names).indexOf(col);
        assertEquals(java.lang.reflect.Array.getLength(raw), rows.size(), url);
        for (int i = 0; i < rows.size(); i++) {
            double want = Values.asDouble(raw, i, v.type());
            double got = ((Number) rows.get(i).get(at)).doubleValue();
            assertEquals(want, got, 0.0, var + "[" + i + "] of " + url);
        }
    }

    private static void array(Path store, String name, String shape, String dtype, String attrs, byte[] chunk)
            throws IOException {
        Path a = store.resolve(name);
        Files.createDirectories(a);
        Files.writeString(
                a.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": " + shape + ", \"chunks\": " + shape + ", \"dtype\": \"" + dtype
                        + "\", \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
        Files.writeString(a.resolve(".zattrs"), attrs);
        if (chunk != null) {
            Files.write(a.resolve("0"), chunk);
        }
    }

    private static byte[] le(int width, double... v) {
        ByteBuffer b = ByteBuffer.allocate(width * v.length).order(ByteOrder.LITTLE_ENDIAN);
        for (double x : v) {
            if (width == 4) {
                b.putFloat((float) x);
            } else {
                b.putDouble(x);
            }
        }
        return b.array();
    }

    /**
     * agg.zarr: tas(time, lat) aggregated from two Zarr fragments along time (2 + 3 steps), time a coordinate in
     * days since 2000-01-01; the fragment map, URIs and identifiers are bookkeeping the table does not show.
     */
    static String aggregation() throws IOException {
        Path agg = dir.resolve("agg.zarr");
        if (!Files.exists(agg)) {
            Files.createDirectories(agg);
            Files.writeString(agg.resolve(".zgroup"), "{\"zarr_format\": 2}");
            array(
                    agg,
                    "time",
                    "[5]",
                    "<f8",
                    "{\"_ARRAY_DIMENSIONS\": [\"time\"], \"units\": \"days since 2000-01-01\"}",
                    le(8, 0, 1, 2, 3, 4));
            array(agg, "lat", "[2]", "<f4", "{\"_ARRAY_DIMENSIONS\": [\"lat\"]}", le(4, 10, 20));
            // fragment_map(j, i): one row per aggregated dimension, time cut 2 + 3, lat whole (padded with -1)
            ByteBuffer map = ByteBuffer.allocate(8 * 4).order(ByteOrder.LITTLE_ENDIAN);
            map.putLong(2).putLong(3).putLong(2).putLong(-1);
            Path m = agg.resolve("fragment_map");
            Files.createDirectories(m);
            Files.writeString(
                    m.resolve(".zarray"),
                    "{\"zarr_format\": 2, \"shape\": [2, 2], \"chunks\": [2, 2], \"dtype\": \"<i8\","
                            + " \"compressor\": null, \"fill_value\": -1, \"order\": \"C\", \"filters\": null}");
            Files.writeString(m.resolve(".zattrs"), "{\"_ARRAY_DIMENSIONS\": [\"j\", \"i\"]}");
            Files.write(m.resolve("0.0"), map.array());
            array(agg, "fragment_uris", "[2]", "|S7", "{\"_ARRAY_DIMENSIONS\": [\"f\"]}", null);
            Files.write(agg.resolve("fragment_uris/0"), "f0.zarrf1.zarr".getBytes(StandardCharsets.US_ASCII));
            array(agg, "fragment_identifiers", "[2]", "|S3", "{\"_ARRAY_DIMENSIONS\": [\"f\"]}", null);
            Files.write(agg.resolve("fragment_identifiers/0"), "tastas".getBytes(StandardCharsets.US_ASCII));
            array(
                    agg,
                    "tas",
                    "[]",
                    "<f4",
                    "{\"_ARRAY_DIMENSIONS\": [], \"units\": \"K\", \"aggregated_dimensions\": \"time lat\","
                            + " \"aggregated_data\": \"map: fragment_map uris: fragment_uris"
                            + " identifiers: fragment_identifiers\"}",
                    null);
            fragment(dir.resolve("f0.zarr"), 2, le(4, 280.5, 281, 281.5, 282));
            fragment(dir.resolve("f1.zarr"), 3, le(4, 283, 283.5, 284, 284.5, 285, 285.5));
        }
        return agg.toUri() + "#mode=zarr,file";
    }

    private static void fragment(Path f, int steps, byte[] values) throws IOException {
        Files.createDirectories(f);
        Files.writeString(f.resolve(".zgroup"), "{\"zarr_format\": 2}");
        Path a = f.resolve("tas");
        Files.createDirectories(a);
        Files.writeString(
                a.resolve(".zarray"),
                "{\"zarr_format\": 2, \"shape\": [" + steps + ", 2], \"chunks\": [" + steps + ", 2], \"dtype\":"
                        + " \"<f4\", \"compressor\": null, \"fill_value\": null, \"order\": \"C\", \"filters\": null}");
        Files.writeString(a.resolve(".zattrs"), "{\"_ARRAY_DIMENSIONS\": [\"time\", \"lat\"], \"units\": \"K\"}");
        Files.write(a.resolve("0.0"), values);
    }

    @Test
    void aCfAggregationOfZarrFragmentsIsOneTable() throws Exception {
        String url = aggregation();
        Dataset<Row> df = spark.read().format("nczarr").load(url);
        assertEquals(List.of("time", "lat", "tas"), List.of(df.schema().fieldNames()));
        assertEquals(DataTypes.TimestampType, df.schema().apply("time").dataType());
        assertEqualsCore(df, url, "tas", "tas");
        List<Row> rows = df.where("time = timestamp'2000-01-04'").orderBy("lat").collectAsList();
        assertEquals(2, rows.size());
        assertEquals(284.5f, rows.get(1).getFloat(2));
    }

    @Test
    void icechunkSnapshotsByUrlAndByOption() throws Exception {
        String repo = Corpus.icechunkDir()
                .resolve("native.icechunk")
                .toUri()
                .toString()
                .replaceAll("/$", "");
        String v1 = repo + "#mode=zarr,icechunk&tag=v1";
        Dataset<Row> byUrl =
                spark.read().format("nczarr").option("variables", "temp").load(v1);
        assertEquals(List.of("time", "y", "x", "temp"), List.of(byUrl.schema().fieldNames()));
        assertEqualsCore(byUrl, v1, "temp", "temp");
        // the tag as an option: the same snapshot (sub/deep/big differs between v1 and main)
        Dataset<Row> byOption = spark.read()
                .format("nczarr")
                .option("mode", "zarr,icechunk")
                .option("nczarr.icechunk.tag", "v1")
                .option("variables", "sub/deep/big")
                .load(repo);
        assertEqualsCore(byOption, v1, "sub/deep/big", "big");
        assertEquals(-1.0, byOption.orderBy("r", "c").first().getDouble(2));
        Dataset<Row> main = spark.read()
                .format("nczarr")
                .option("mode", "zarr,icechunk")
                .option("variables", "sub/deep/big")
                .load(repo);
        assertEquals(2.0, main.orderBy("r", "c").first().getDouble(2));
    }

    @Test
    void icechunkVirtualChunksWithTheContainerAuthorizedByAnOption() throws Exception {
        String repo = Corpus.icechunkDir()
                .resolve("virtual.icechunk")
                .toUri()
                .toString()
                .replaceAll("/$", "");
        String src = Corpus.icechunkDir().toUri().toString();
        Dataset<Row> df = spark.read()
                .format("nczarr")
                .option("mode", "zarr,icechunk")
                .option("nczarr.icechunk.containers", "src=" + src)
                .option("variables", "flat")
                .load(repo);
        assertEqualsCore(df, repo + "#mode=zarr,icechunk&icechunk.container.src=" + src, "flat", "flat");
    }

    @Test
    void kerchunkParquetReferencesLocalAndOverHttp() throws Exception {
        Path refs = Corpus.testDataDir().resolve("parquet-refs/nc4.pyarrow-zstd-v2.parq");
        String local = refs.toUri().toString().replaceAll("/$", "") + "#mode=kerchunk";
        Dataset<Row> df =
                spark.read().format("nczarr").option("variables", "temp").load(local);
        assertEquals(List.of("time", "y", "x", "temp"), List.of(df.schema().fieldNames()));
        assertEqualsCore(df, local, "temp", "temp");
        String remote = http.url("/data/parquet-refs/nc4.pyarrow-zstd-v2.parq") + "#mode=kerchunk";
        assertEqualsCore(
                spark.read().format("nczarr").option("variables", "temp").load(remote), local, "temp", "temp");
    }

    @Test
    void anNcZarrStoreOverHttp() throws Exception {
        String url = http.url("/data/sample.file") + "#mode=nczarr";
        Dataset<Row> df = spark.read()
                .format("nczarr")
                .option("nczarr.requestThreads", "4")
                .load(url);
        assertEquals(
                List.of("time", "lat", "lon", "temp", "precip"),
                List.of(df.schema().fieldNames()));
        assertEqualsCore(df, url, "precip", "precip");
        assertEquals(15, df.where("time = timestamp'2000-02-01'").count());
        assertTrue(Map.of().isEmpty());
    }
}
