package io.nczarr.spark;

import org.apache.spark.sql.SparkSession;

/** The test SparkSession: local[2], no UI, few shuffle partitions, no whole-stage codegen (one per test class, stopped after it). */
final class SparkSessions {
    private SparkSessions() {}

    static SparkSession start() {
        return SparkSession.builder()
                .master("local[2]")
                .appName("nczarr-spark-test")
                .config("spark.ui.enabled", "false")
                .config("spark.sql.shuffle.partitions", "2")
                .config("spark.sql.session.timeZone", "UTC")
                // tiny data: compiling whole-stage code and re-planning adaptively cost more than they save
                .config("spark.sql.codegen.wholeStage", "false")
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1")
                .getOrCreate();
    }

    static void stop(SparkSession spark) {
        if (spark != null) {
            spark.stop();
        }
        CoreAccess.closeAll();
    }
}
