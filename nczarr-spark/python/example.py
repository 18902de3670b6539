"""The PySpark example of the README's Spark section, runnable: reads test-data/sample.file through the
nczarr data source and checks a few values. Run by run-example.sh (not part of mvn verify: pyspark is
~400 MB)."""
import sys

from pyspark.sql import SparkSession

jar, url = sys.argv[1], sys.argv[2]
spark = (
    SparkSession.builder.master("local[2]")
    .config("spark.jars", jar)
    .config("spark.ui.enabled", "false")
    .config("spark.sql.session.timeZone", "UTC")
    .getOrCreate()
)
df = spark.read.format("nczarr").option("variables", "precip").option("decode", "cf").load(url)
df.printSchema()
rows = df.groupBy("time").avg("precip").orderBy("time").collect()
for r in rows:
    print(r)
assert len(rows) == 4, rows
assert [f.name for f in df.schema.fields] == ["time", "lat", "lon", "precip"]
# one time step, pruned to its chunks before any read
step = df.where("time = timestamp'2000-02-01 00:00:00'").collect()
assert len(step) == 15 and sum(r.precip is None for r in step) == 1, step
spark.stop()
print("OK pyspark example")
