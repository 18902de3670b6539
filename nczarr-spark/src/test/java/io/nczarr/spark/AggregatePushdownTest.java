package io.nczarr.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.nczarr.testkit.Corpus;
import java.util.List;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Pushed-down aggregates on test-data/sample.file: the tasks' partial COUNT/MIN/MAX/SUM (and AVG as Spark's SUM /
 * COUNT) grouped by dimension columns equal what Spark computes from the rows (option pushAggregates false), raw
 * and CF-decoded (nulls skipped), over one partition and over many (Spark merging the partials).
 */
class AggregatePushdownTest {
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

    /** The query on a view of the sample with these options, pushed or not; its rows and its scan. */
    static Dataset<Row> query(String sql, boolean push, String... options) {
        var r = spark.read().format("nczarr").option("variables", "temp,precip");
        for (int i = 0; i < options.length; i += 2) {
            r = r.option(options[i], options[i + 1]);
        }
        r.option("pushAggregates", String.valueOf(push)).load(url).createOrReplaceTempView("s");
        return spark.sql(sql);
    }

    static void same(String sql, boolean pushed, String... options) {
        Dataset<Row> with = query(sql, true, options);
        List<Row> got = with.collectAsList();
        if (pushed) {
            assertInstanceOf(AggregateScan.class, ScanProbe.scan(with), sql);
        } else {
            assertInstanceOf(NcZarrScan.class, ScanProbe.scan(with), sql);
        }
        Dataset<Row> without = query(sql, false, options);
        assertInstanceOf(NcZarrScan.class, ScanProbe.scan(without), sql);
        List<Row> want = without.collectAsList();
        assertEquals(want.size(), got.size(), sql);
        for (int i = 0; i < want.size(); i++) {
            for (int c = 0; c < want.get(i).size(); c++) {
                Object w = want.get(i).get(c);
                Object g = got.get(i).get(c);
                String at = sql + " " + String.join(",", options) + " row " + i + " column " + c + ": " + want.get(i)
                        + " vs " + got.get(i);
                if (w instanceof Double d && g instanceof Double e) {
                    // float partial sums: Spark casts them back to float before merging
                    assertTrue(d.equals(e) || Math.abs(d - e) <= 1e-6 * Math.abs(d), at);
                } else {
                    assertEquals(w, g, at);
                }
            }
        }
    }

    @Test
    void groupedByTimeRawAndCf() {
        String q = "SELECT time, avg(temp), min(temp), max(temp), count(temp), count(*), max(precip), min(precip)"
                + " FROM s GROUP BY time ORDER BY time";
        same(q, true);
        // partitions of a few chunks each: Spark merges many partials per group
        same(q, true, "decode", "cf", "partitionBytes", "64");
    }

    @Test
    void groupedByTwoDimensionsAndNotGrouped() {
        same(
                "SELECT lat, lon, sum(temp), avg(precip) FROM s GROUP BY lat, lon ORDER BY lat, lon",
                true,
                "decode",
                "cf");
        same("SELECT count(*), min(temp), max(temp), avg(temp) FROM s", true, "partitionBytes", "64");
        same("SELECT lon, time, max(temp) FROM s GROUP BY lon, time ORDER BY lon, time", true);
    }

    @Test
    void whatIsNotPushedStillAnswersRight() {
        // a raw short's sum (Spark would cast a partial sum back to short), a filter, a variable as the group
        same("SELECT time, sum(precip) FROM s GROUP BY time ORDER BY time", false);
        same("SELECT precip, count(*) FROM s WHERE lat > 0 GROUP BY precip ORDER BY precip", false);
    }
}
