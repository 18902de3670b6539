package io.nczarr.spark;

import java.util.List;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

/**
 * What a user of {@code spark-submit --jars nczarr-spark-*-all.jar} runs: Spark's API only, the data source
 * found by its short name. {@link ShadedJarIT} starts it in a JVM whose class path is Spark's and the shaded
 * jar (no core classes, no module classes).
 */
public final class ShadedJarMain {
    private ShadedJarMain() {}

    public static void main(String[] args) {
        SparkSession spark = SparkSessions.start();
        try {
            List<Row> r = spark.read()
                    .format("nczarr")
                    .option("decode", "cf")
                    .load(args[0])
                    .where("time = timestamp'2000-02-01 00:00:00'")
                    .selectExpr("count(*)", "count(temp)", "round(sum(precip), 2)")
                    .collectAsList();
            System.out.println("RESULT " + r.get(0).getLong(0) + " " + r.get(0).getLong(1) + " "
                    + r.get(0).get(2));
        } finally {
            spark.stop();
        }
    }
}
