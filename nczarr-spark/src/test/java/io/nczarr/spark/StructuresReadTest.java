package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.types.StructType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Structure variables as struct columns (test-data/dtypes/records.zarr, written by zarr-python 2.18 from numpy
 * values: nested, sub-array, byte-string, complex and bool fields; autumn-2026's zarr-python 3 {@code struct}
 * arrays), and char variables whose only dimension is their text (one string, a table of one row), as scalars.
 */
class StructuresReadTest {
    static SparkSession spark;
    static String records;

    @BeforeAll
    static void start() {
        spark = SparkSessions.start();
        records = Corpus.dtypesDir().resolve("records.zarr").toUri() + "#mode=zarr,file";
    }

    @AfterAll
    static void stop() {
        SparkSessions.stop(spark);
    }

    static Dataset<Row> read(String url, String variables, String... options) {
        var r = spark.read().format("nczarr").option("variables", variables);
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        return r.load(url);
    }

    @Test
    void structuredDtypeFieldsAreTypedAsTheCoreTypesThem() {
        StructType s = read(records, "rec").schema();
        assertEquals(List.of("_zdim_4", "rec"), List.of(s.fieldNames()));
        StructType rec = (StructType) s.apply("rec").dataType();
        assertEquals(
                "struct<a:int,b:array<double>,s:string,n:struct<x:smallint,y:smallint>,"
                        + "z:struct<real:float,imag:float>,k:smallint>",
                rec.simpleString());
    }

    @Test
    void recordsEqualTheNumpyValuesInEveryPath() {
        // rows 0-2 as written, row 3 the fill record (its chunk never written): a=-1, b=[0.5,-0.5], s="ab", ...
        for (String[] opts : List.of(
                new String[] {"columnar", "true"}, new String[] {"columnar", "false"}, new String[] {"decode", "cf"})) {
            List<Row> rows = read(records, "rec", opts).orderBy("_zdim_4").collectAsList();
            String at = String.join("=", opts);
            assertEquals(4, rows.size(), at);
            List<Integer> a = new ArrayList<>();
            List<String> text = new ArrayList<>();
            List<Short> x = new ArrayList<>();
            List<Short> y = new ArrayList<>();
            List<Float> real = new ArrayList<>();
            List<Float> imag = new ArrayList<>();
            List<Short> k = new ArrayList<>();
            List<Double> b = new ArrayList<>();
            for (Row r : rows) {
                Row rec = r.getStruct(1);
                a.add(rec.getInt(0));
                b.addAll(rec.getList(1));
                text.add(rec.getString(2));
                x.add(rec.getStruct(3).getShort(0));
                y.add(rec.getStruct(3).getShort(1));
                real.add(rec.getStruct(4).getFloat(0));
                imag.add(rec.getStruct(4).getFloat(1));
                k.add(rec.getShort(5));
            }
            assertEquals(List.of(1, -2, Integer.MAX_VALUE, -1), a, at);
            assertEquals(List.of(1.5, Double.NaN, -0.0, Double.POSITIVE_INFINITY, 1e-300, 2.0, 0.5, -0.5), b, at);
            assertEquals(List.of("abc", "", "z", "ab"), text, at);
            assertEquals(List.of((short) 0, (short) 255, (short) 128, (short) 7), x, at);
            assertEquals(List.of((short) -32768, (short) 1, (short) 32767, (short) -3), y, at);
            assertEquals(List.of(0f, -1f, Float.NaN, 1f), real, at);
            assertEquals(List.of(1f, 0f, 2f, -2f), imag, at);
            assertEquals(List.of((short) 1, (short) 0, (short) 1, (short) 0), k, at);
        }
    }

    @Test
    void fieldsWorkInSqlAndTheChunksLayout() {
        read(records, "rec").createOrReplaceTempView("rec");
        List<Row> r = spark.sql("SELECT sum(rec.a), max(rec.n.x), count(*) FROM rec WHERE rec.z.imag >= 0")
                .collectAsList();
        assertEquals(Integer.MAX_VALUE - 1L, r.get(0).getLong(0));
        assertEquals((short) 255, r.get(0).getShort(1));
        assertEquals(3L, r.get(0).getLong(2));
        // chunks [3]: one row per chunk, the records as an array of structs
        List<Row> chunks =
                read(records, "rec", "layout", "chunks").orderBy("origin").collectAsList();
        assertEquals(2, chunks.size());
        assertEquals(3, chunks.get(0).getList(2).size());
        Row last = (Row) chunks.get(1).getList(2).get(0);
        assertEquals(-1, last.getInt(0));
        assertEquals("ab", last.getString(2));
    }

    @Test
    void complexNumbersAndTwoDimensionalRecords() {
        // >c16 (big-endian, order F) over 2 x 3
        List<Row> c = read(records, "c128_be").orderBy("_zdim_2", "_zdim_3").collectAsList();
        assertEquals(6, c.size());
        assertEquals(1e300, c.get(0).getStruct(2).getDouble(0));
        assertEquals(-2.5, c.get(1).getStruct(2).getDouble(1));
        assertEquals(Double.NEGATIVE_INFINITY, c.get(3).getStruct(2).getDouble(0));
        assertTrue(Double.isNaN(c.get(3).getStruct(2).getDouble(1)));
        // [u <f4, v <f4] over y, x
        List<Row> g = read(records, "grid").orderBy("y", "x").collectAsList();
        assertEquals(
                List.of("y", "x", "grid"),
                List.of(read(records, "grid").schema().fieldNames()));
        float[] u = new float[4];
        float[] v = new float[4];
        for (int i = 0; i < 4; i++) {
            u[i] = g.get(i).getStruct(2).getFloat(0);
            v[i] = g.get(i).getStruct(2).getFloat(1);
        }
        assertEquals("[1.0, 3.0, 5.0, 7.0]", java.util.Arrays.toString(u));
        assertEquals("[2.0, 4.0, 6.0, 8.0]", java.util.Arrays.toString(v));
    }

    @Test
    void zarrV3StructsNestedAndSharded() {
        String url = Corpus.autumnDir().resolve("zarr342_struct.zarr").toUri() + "#mode=zarr,file";
        Dataset<Row> df = read(url, "nested,legacy");
        assertEquals(
                "struct<k:bigint,nested:struct<p:smallint,q:struct<x:float,y:smallint>>,legacy:struct<a:bigint,b:float>>",
                df.schema().simpleString());
        List<Row> rows = df.orderBy("k").collectAsList();
        assertEquals(
                List.of((short) 1, (short) -2, (short) 300),
                rows.stream().map(r -> r.getStruct(1).getShort(0)).toList());
        assertEquals(
                List.of(0.5f, 1.25f, -3.0f),
                rows.stream().map(r -> r.getStruct(1).getStruct(1).getFloat(0)).toList());
        assertEquals(
                List.of((short) 7, (short) 8, (short) 255),
                rows.stream().map(r -> r.getStruct(1).getStruct(1).getShort(1)).toList());
        assertEquals(4000000000L, rows.get(0).getStruct(2).getLong(0));
        // a sharded struct array: fill records where no chunk was written
        String sharded =
                Corpus.autumnDir().resolve("zarr342_sharded_types.zarr").toUri() + "#mode=zarr,file";
        List<Row> rec = read(sharded, "rec").orderBy("n").collectAsList();
        assertEquals(
                List.of(-5, -2, -1, -1, 7, 10, -1, -1),
                rec.subList(0, 8).stream().map(r -> r.getStruct(1).getInt(0)).toList());
    }

    @Test
    void aOneDimensionalCharVariableIsOneString() {
        // |S1 [4] "ab\0d": its only dimension is the text, cut at the first NUL as char variables are
        String url = Corpus.autumnDir().resolve("zarr342_strings.zarr").toUri() + "#mode=zarr,file";
        Dataset<Row> df = read(url, "flag");
        assertEquals("struct<flag:string>", df.schema().simpleString());
        List<Row> rows = df.collectAsList();
        assertEquals(1, rows.size());
        assertEquals("ab", rows.get(0).getString(0));
        assertEquals("ab", read(url, "flag", "columnar", "false").first().getString(0));
        Row chunk = read(url, "flag", "layout", "chunks").first();
        assertEquals(List.of("ab"), chunk.getList(2));
        assertEquals(0, chunk.getList(0).size());
        // a string variable beside it has a dimension: not the same table
        Exception e = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> read(url, "flag,codes"));
        assertTrue(String.valueOf(e.getMessage()).contains("codes"), e.getMessage());
    }

    @Test
    void aScalarIsATableOfOneRow() {
        String url = Corpus.testDataDir().resolve("edge.zarr").toUri() + "#mode=zarr,file";
        Dataset<Row> df = read(url, "scalar");
        assertEquals("struct<scalar:double>", df.schema().simpleString());
        List<Row> rows = df.collectAsList();
        assertEquals(1, rows.size());
        assertEquals(273.15, rows.get(0).getDouble(0));
        assertFalse(rows.get(0).isNullAt(0));
        assertEquals(1L, df.count());
    }
}
