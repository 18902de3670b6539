package io.nczarr.spark;

import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.connector.read.Scan;
import org.apache.spark.sql.execution.SparkPlan;
import org.apache.spark.sql.execution.datasources.v2.BatchScanExec;
import scala.collection.Iterator;

/** The DataSource V2 scan Spark planned for a query (tests look at its pruning). */
final class ScanProbe {
    private ScanProbe() {}

    static Scan scan(Dataset<Row> df) {
        SparkPlan plan = df.queryExecution().executedPlan();
        Scan s = find(plan);
        if (s == null) {
            throw new AssertionError("no nczarr scan in " + plan);
        }
        return s;
    }

    private static Scan find(SparkPlan p) {
        if (p instanceof BatchScanExec b) {
            return b.scan();
        }
        Iterator<SparkPlan> it = p.children().iterator();
        while (it.hasNext()) {
            Scan s = find(it.next());
            if (s != null) {
                return s;
            }
        }
        if (p instanceof org.apache.spark.sql.execution.adaptive.AdaptiveSparkPlanExec a) {
            return find(a.executedPlan());
        }
        return null;
    }
}
