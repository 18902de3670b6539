#!/usr/bin/env python3
"""Issue 24's Spark benchmark, one run: the per-time-step mean of the zlib cube (bench/make_compare.py,
float32 temperature(time=30, lat=721, lon=1440), one 4 MB zlib chunk per day) three ways, each warmed up once
and then timed (best and median of RUNS):

  spark local[1] / local[2]  spark.read.format("nczarr") ... groupBy("time").agg(avg("temperature"))
                             through the shaded nczarr-spark jar (PySpark 4.0.1, the JVM of JAVA_HOME)
  core read                  the same variable read whole by the core (io.nczarr.read) in that JVM, no Spark
                             job: what the connector adds on top of reading
  xarray + dask              xr.open_zarr(...).temperature.mean(("lat","lon")).compute(), threaded scheduler
                             with as many workers as Spark cores

Every result is checked against the others (the 30 means agree to 1e-4 relative).

usage: spark_bench.py CUBE_ZARR JAR [RUNS] [PARTITION_BYTES, e.g. 16m; default: the connector's 128m]
"""
import statistics
import sys
import time

import numpy as np


def timed(fn, runs):
    fn()  # warm-up
    out, times = None, []
    for _ in range(runs):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return out, min(times), statistics.median(times)


def spark_runs(cube, jar, cores, runs, partition_bytes):
    from pyspark.sql import SparkSession, functions as F

    spark = (SparkSession.builder.master("local[%d]" % cores).appName("nczarr-spark-bench")
             .config("spark.jars", jar).config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", str(cores)).getOrCreate())
    spark.sparkContext.setLogLevel("WARN")
    url = cube + "#mode=zarr,file"

    def query():
        reader = spark.read.format("nczarr").option("variables", "temperature")
        if partition_bytes:
            reader = reader.option("partitionBytes", partition_bytes)
        df = reader.load(url)
        rows = df.groupBy("time").agg(F.avg("temperature").alias("m")).collect()
        return np.array([r["m"] for r in sorted(rows, key=lambda r: r["time"])])

    def core_read():
        jvm = spark._jvm
        d = jvm.io.nczarr.open.Datasets
        with_ds = d.open(d.parse(url), jvm.io.nczarr.open.NcZarrOptions.shared())
        try:
            return with_ds.variable("/temperature").readAll().size()
        finally:
            with_ds.close()

    means, best, med = timed(query, runs)
    core = None
    if cores == 2:
        _, cbest, cmed = timed(core_read, runs)
        core = (cbest, cmed)
    spark.stop()
    return means, best, med, core


def dask_runs(cube, workers, runs):
    import dask
    import xarray as xr

    def mean():
        with dask.config.set(scheduler="threads", num_workers=workers):
            ds = xr.open_zarr(cube, consolidated=False)
            return ds.temperature.mean(("lat", "lon")).compute().values.astype(np.float64)

    return timed(mean, runs)


def main():
    cube, jar = sys.argv[1], sys.argv[2]
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    partition_bytes = sys.argv[4] if len(sys.argv) > 4 else None
    mb = 30 * 721 * 1440 * 4 / 1e6
    rows = []
    m1, b1, d1, _ = spark_runs(cube, jar, 1, runs, partition_bytes)
    rows.append(("Spark local[1]", b1, d1))
    m2, b2, d2, core = spark_runs(cube, jar, 2, runs, partition_bytes)
    rows.append(("Spark local[2]", b2, d2))
    rows.append(("core read, whole variable (no Spark job)", core[0], core[1]))
    dm, db, dd = dask_runs(cube, 2, runs)
    rows.append(("xarray + dask, 2 threads", db, dd))
    dm1, db1, dd1 = dask_runs(cube, 1, runs)
    rows.append(("xarray + dask, 1 thread", db1, dd1))
    for other in (m2, dm, dm1):
        if not np.allclose(m1, other, rtol=1e-4):
            sys.exit("the means disagree: %s vs %s" % (m1[:3], other[:3]))
    print("| run (%.1f MB decoded, %d runs after a warm-up, partitionBytes %s) | best s | median s | MB/s (best) |"
          % (mb, runs, partition_bytes or "128m"))
    print("|---|---:|---:|---:|")
    for name, b, d in rows:
        print("| %s | %.3f | %.3f | %.0f |" % (name, b, d, mb / b))
    print()
    print("speed-up local[1] -> local[2]: %.2fx" % (b1 / b2))
    print("Spark local[2] / dask 2 threads (speed ratio, > 1 = Spark faster): %.2f" % (db / b2))
    print("Spark local[1] / dask 1 thread: %.2f" % (db1 / b1))
    print("Spark local[2] time over the core read: %.2fx" % (b2 / core[0]))


if __name__ == "__main__":
    main()
