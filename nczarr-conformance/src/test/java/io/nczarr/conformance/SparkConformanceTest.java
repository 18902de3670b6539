package io.nczarr.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.nczarr.model.NcType;
import io.nczarr.open.Datasets;
import io.nczarr.open.NcZarrOptions;
import io.nczarr.open.OpenDataset;
import io.nczarr.read.CfEncoding;
import io.nczarr.read.TypedArray;
import io.nczarr.read.VariableReader;
import io.nczarr.testkit.Corpus;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The conformance corpora through the Spark binding (issue 24): one dataset per family (NCZarr, Zarr v2, Zarr v3
 * sharded, kerchunk, Icechunk, autumn-2026, and an aggregation) read with {@code spark.read.format("nczarr")} on
 * one local[2] session. Every numeric variable with dimensions (grouped into tables by their dimensions) has the
 * Spark type its manifest's netCDF type maps to, the core's values ({@link VariableReader}) in C order, the
 * 1-D coordinates as its dimension columns, and with {@code decode cf} nulls exactly where the core's {@link
 * CfEncoding} says missing. Structure variables (Zarr v2 structured dtypes, complex numbers, Zarr v3 struct) are
 * struct columns whose leaf members hash as the manifests' do. The shared corpus' datasets are skipped (visibly)
 * without ../shared.
 */
class SparkConformanceTest {
    static final ObjectMapper JSON = new ObjectMapper();
    /** Tables (variable groups of the same dimensions) compared per dataset at most: keeps the run short. */
    static final int MAX_TABLES = 3;

    static SparkSession spark;
    static NcZarrOptions options;

    @BeforeAll
    static void start() {
        spark = SparkSession.builder()
                .master("local[2]")
                .appName("nczarr-conformance")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "UTC")
                .config("spark.sql.codegen.wholeStage", "false")
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
        options = NcZarrOptions.shared();
    }

    @AfterAll
    static void stop() {
        if (spark != null) {
            spark.stop();
        }
    }

    /** One dataset per family: names of Corpus entries (the shared corpus' ones are skipped without it). */
    static Stream<String> families() {
        return Stream.of(
                "nczarr_types", // NCZarr (netcdf-c ncgen), every numeric type (shared corpus)
                "zarr_groups_consolidated", // Zarr v2 (zarr-python), groups (shared corpus)
                "sample", // NCZarr (test-data)
                "v3_sharding", // Zarr v3 sharded
                "kerchunk_nc4", // kerchunk JSON references
                "icechunk_native_v1", // Icechunk, a tag
                "autumn_nczarr_410", // autumn-2026
                "autumn_xarray_v3_fill");
    }

    static Corpus.Entry entry(String name) {
        if (name.equals("kerchunk_nc4")) {
            java.nio.file.Path k = Corpus.testDataDir().resolve("kerchunk");
            return new Corpus.Entry(
                    name, k.resolve("nc4.v1.json"), "#mode=kerchunk", k.resolve("nc4.expected.json"), null, "kerchunk");
        }
        if (name.startsWith("icechunk")) {
            return Corpus.icechunkDatasets().stream()
                    .filter(e -> e.name().equals(name))
                    .findFirst()
                    .orElseThrow();
        }
        return Corpus.byName(name);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("families")
    void readsLikeTheCore(String name) throws Exception {
        Corpus.Entry e = entry(name);
        JsonNode expected = JSON.readTree(e.expected().toFile()).get("variables");
        String url = e.url();
        try (OpenDataset ds = Datasets.open(Datasets.resolve(Datasets.parse(url), options), options)) {
            Map<List<String>, List<String>> tables = tables(ds);
            assertFalse(tables.isEmpty(), name + " has no numeric variable with dimensions");
            int n = 0;
            for (Map.Entry<List<String>, List<String>> t : tables.entrySet()) {
                if (n++ == MAX_TABLES) {
                    break;
                }
                compare(ds, expected, url, t.getKey(), t.getValue(), false, name);
                if (n == 1) {
                    compare(ds, expected, url, t.getKey(), t.getValue(), true, name);
                }
            }
        }
    }

    /** The datasets with structure variables: Zarr v2 structured dtypes and complex numbers, Zarr v3 struct. */
    static Stream<String> structures() {
        return Stream.of("records", "autumn_zarr342_struct", "autumn_zarr342_sharded_types", "v3_unmapped_types");
    }

    /**
     * Every structure variable read alone as a struct column: one row per record in C order, each leaf member's
     * values ({@link SparkRecords}) hashing to the manifest's sha256, with the Spark type of its netCDF type.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("structures")
    void structuresReadLikeTheManifest(String name) throws Exception {
        Corpus.Entry e = entry(name);
        JsonNode expected = JSON.readTree(e.expected().toFile()).get("variables");
        int n = 0;
        for (Map.Entry<String, JsonNode> v : expected.properties()) {
            if (!v.getValue().path("type").asText().equals("structure")) {
                continue;
            }
            n++;
            Dataset<Row> df = spark.read()
                    .format("nczarr")
                    .option("variables", v.getKey())
                    .load(e.url());
            int rank = v.getValue().path("shape").size();
            String[] cols = df.schema().fieldNames();
            assertEquals(rank + 1, cols.length, name + " " + v.getKey() + ": " + df.schema());
            org.apache.spark.sql.Column[] order = new org.apache.spark.sql.Column[rank];
            for (int d = 0; d < rank; d++) {
                order[d] = functions.col(cols[d]).asc();
            }
            List<Row> rows = df.orderBy(order).collectAsList();
            assertEquals(v.getValue().path("data").path("count").asLong(), rows.size(), name + " " + v.getKey());
            SparkRecords.compare(rows, rank, df.schema(), expected, v.getKey(), name);
        }
        assertTrue(n > 0, name + " has no structure variable");
    }

    /**
     * The aggregation family: the core reads aggregations of Zarr fragments alone (nczarr-spark's UrlFormsReadTest
     * reads one through Spark); cf_lat_zarr's fragments are netCDF files, which need the netCDF-Java binding: the
     * Spark read fails with the core's message naming the reason, and no task retries into a hang.
     */
    @Test
    void anAggregationOfNetcdfFragmentsIsRefusedClearly() {
        java.nio.file.Path agg = Corpus.testDataDir().resolve("aggregation/cf_lat_zarr.zarr");
        Dataset<Row> df = spark.read().format("nczarr").option("variables", "q").load(agg.toUri() + "#mode=zarr,file");
        assertTrue(List.of(df.schema().fieldNames()).contains("q"), df.schema().toString());
        Exception x = assertThrows(Exception.class, () -> df.select("q").collectAsList());
        String m = String.valueOf(x.getMessage());
        assertTrue(m.contains("cf_lat_f0.nc") && m.contains("netCDF-Java binding"), m);
    }

    /** Numeric variables with dimensions, not 1-D coordinates, by their dimensions, in dataset order. */
    static Map<List<String>, List<String>> tables(OpenDataset ds) throws IOException {
        Map<List<String>, List<String>> out = new LinkedHashMap<>();
        for (String path : ds.variables().keySet()) {
            VariableReader v = ds.variable(path);
            long elements = Arrays.stream(v.shape()).reduce(1, (a, b) -> a * b);
            if (!v.type().isNumeric() || v.shape().length == 0 || elements == 0 || isCoordinate(v)) {
                continue;
            }
            out.computeIfAbsent(v.dimensions(), k -> new ArrayList<>()).add(path);
        }
        return out;
    }

    static boolean isCoordinate(VariableReader v) {
        if (v.dimensions().size() != 1) {
            return false;
        }
        String d = v.dimensions().get(0);
        return d.substring(d.lastIndexOf('/') + 1).equals(v.name());
    }

    private static void compare(
            OpenDataset ds,
            JsonNode expected,
            String url,
            List<String> dims,
            List<String> vars,
            boolean cf,
            String name)
            throws IOException {
        Dataset<Row> df = spark.read()
                .format("nczarr")
                .option("variables", String.join(",", vars))
                .option("decode", cf ? "cf" : "raw")
                .load(url);
        StructType schema = df.schema();
        int rank = dims.size();
        assertEquals(rank + vars.size(), schema.size(), name + ": " + schema);
        String[] cols = schema.fieldNames();
        // C order: each dimension column sorted the way its coordinate runs (plev falls: 1000, 850, ...)
        org.apache.spark.sql.Column[] order = new org.apache.spark.sql.Column[rank];
        for (int d = 0; d < rank; d++) {
            VariableReader c = coordinate(ds, dims.get(d));
            TypedArray v = c == null ? null : c.readAll();
            boolean falls = v != null && v.size() > 1 && v.getDouble(0) > v.getDouble(1);
            order[d] = falls
                    ? functions.col(cols[d]).desc()
                    : functions.col(cols[d]).asc();
        }
        List<Row> rows = df.orderBy(order).collectAsList();
        String label = name + (cf ? " (decode cf)" : "") + " " + vars;
        long[] shape = ds.variable(vars.get(0)).shape();
        assertEquals(Arrays.stream(shape).reduce(1, (a, b) -> a * b), rows.size(), label + " rows");
        for (int d = 0; d < rank; d++) {
            dimension(ds, dims.get(d), schema.fields()[d].dataType(), rows, d, shape, label);
        }
        for (int c = 0; c < vars.size(); c++) {
            VariableReader v = ds.variable(vars.get(c));
            int col = rank + c;
            DataType type = schema.fields()[col].dataType();
            String t = expected.path(v.path()).path("type").asText(v.type().cdlName());
            CfEncoding enc = v.encoding();
            if (!cf || !enc.isPacked()) {
                assertEquals(sparkType(t), type, label + " " + v.path() + " (" + t + ")");
            }
            TypedArray a = v.readAll();
            for (int i = 0; i < rows.size(); i++) {
                Row r = rows.get(i);
                String at = label + " " + v.path() + "[" + i + "]";
                if (cf && enc.isMissing(a.getDouble(i))) {
                    assertTrue(r.isNullAt(col), at + " should be null");
                    continue;
                }
                assertFalse(r.isNullAt(col), at + " is null");
                Number got = (Number) r.get(col);
                if (cf && enc.isPacked()) {
                    double u = enc.unpack(a.getDouble(i));
                    double want = type == DataTypes.FloatType ? (float) u : u;
                    assertEquals(0, Double.compare(want, got.doubleValue()), at);
                } else if (v.type().isFloatingPoint()) {
                    assertEquals(0, Double.compare(a.getDouble(i), got.doubleValue()), at);
                } else {
                    assertEquals(a.getLong(i), got.longValue(), at);
                }
            }
        }
    }

    /** A dimension column: the coordinate's values (or timestamps), else the index. */
    private static void dimension(
            OpenDataset ds, String dim, DataType type, List<Row> rows, int d, long[] shape, String label)
            throws IOException {
        long inner = 1;
        for (int k = d + 1; k < shape.length; k++) {
            inner *= shape[k];
        }
        VariableReader c = coordinate(ds, dim);
        TypedArray values = c != null && c.type().isNumeric() && c.shape().length == 1 ? c.readAll() : null;
        for (int i = 0; i < rows.size(); i += (int) Math.max(1, inner)) {
            long index = (i / inner) % shape[d];
            Object got = rows.get(i).get(d);
            String at = label + " dimension " + dim + " row " + i;
            if (type == DataTypes.TimestampType) {
                assertTrue(values != null && got instanceof java.sql.Timestamp, at);
            } else if (values == null) {
                assertEquals(DataTypes.LongType, type, at);
                assertEquals(index, ((Number) got).longValue(), at);
            } else if (values.type().isFloatingPoint()) {
                assertEquals(0, Double.compare(values.getDouble((int) index), ((Number) got).doubleValue()), at);
            } else {
                assertEquals(values.getLong((int) index), ((Number) got).longValue(), at);
            }
        }
    }

    /** The coordinate: a 1-D variable of this one dimension named as it (in any group, as the binding finds it). */
    static VariableReader coordinate(OpenDataset ds, String dim) throws IOException {
        for (String p : ds.variables().keySet()) {
            VariableReader v = ds.variable(p);
            if (isCoordinate(v) && v.dimensions().get(0).equals(dim) && v.type().isNumeric()) {
                return v;
            }
        }
        return null;
    }

    /** The Spark type of a manifest's netCDF type: unsigned types widened. */
    static DataType sparkType(String netcdf) {
        switch (NcType.valueOf(netcdf.toUpperCase(java.util.Locale.ROOT))) {
            case BYTE:
                return DataTypes.ByteType;
            case UBYTE:
            case SHORT:
                return DataTypes.ShortType;
            case USHORT:
            case INT:
                return DataTypes.IntegerType;
            case UINT:
            case INT64:
                return DataTypes.LongType;
            case UINT64:
                return DataTypes.createDecimalType(20, 0);
            case FLOAT:
                return DataTypes.FloatType;
            case DOUBLE:
                return DataTypes.DoubleType;
            default:
                throw new AssertionError("not numeric: " + netcdf);
        }
    }
}
