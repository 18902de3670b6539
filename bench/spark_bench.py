#!/usr/bin/env python3
"""Issue 24's Spark benchmark, one run: the per-time-step mean of the zlib cube (bench/make_compare.py,
float32 temperature(time=DAYS, lat=721, lon=1440), one 4 MB zlib chunk per day) three ways, each warmed up once
and then timed (best and median of RUNS):

  spark local[1] / local[2]  spark.read.format("nczarr") ... groupBy("time").agg(avg("temperature"))
                             through the shaded nczarr-spark jar (PySpark 4.0.1, the JVM of JAVA_HOME): the
                             connector computes the aggregate per task (pushed down); at local[2] also
                             with pushAggregates false (Spark averages one row per grid point)
  core read                  the same variable read whole by the core (io.nczarr.read) in that JVM, no Spark
                             job: what the connector adds on top of reading
  xarray + dask              xr.open_zarr(...).temperature.mean(("lat","lon")).compute(), threaded scheduler
                             with as many workers as Spark cores

With --s3 'RELAY COMMAND' the same again on the loopback S3 server behind a latency relay
(io.nczarr.cli.bench.S3Relay, started here with the cube's directory and --latency): Spark reads
ENDPOINT/bench/CUBE#mode=zarr,s3&aws.profile=none, xarray + dask s3://bench/CUBE through s3fs (anonymous, the
relay as endpoint_url); the relay's request counts per run are shown. Every result is checked against the
others (the means agree to 1e-4 relative). Prints Markdown tables.

usage: spark_bench.py CUBE_ZARR JAR [RUNS] [PARTITION_BYTES, e.g. 16m; default: the connector's 128m]
                      [--s3 'java -cp ... io.nczarr.cli.bench.S3Relay'] [--latency MS (20)] [--s3-only]
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
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


class Relay:
    """The S3Relay process: its endpoint, and request counts since the last call."""

    def __init__(self, command, cube, latency):
        self.proc = subprocess.Popen(shlex.split(command) + [cube, str(latency)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline().split()
        if len(line) != 2 or line[0] != "endpoint":
            self.proc.kill()
            sys.exit("S3Relay did not start (got %r)" % line)
        self.endpoint = line[1]

    def counts(self):
        self.proc.stdin.write("counts\n")
        self.proc.stdin.flush()
        f = self.proc.stdout.readline().split()
        return {"total": int(f[1]), "get": int(f[2]), "bytes": int(f[6])}

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def counted(relay, runs, fn):
    """timed(fn, runs) and, behind the relay, the requests of one run (warm-up included in the average)."""
    if relay:
        relay.counts()
    out = timed(fn, runs)
    per_run = None
    if relay:
        c = relay.counts()
        per_run = c["total"] / (runs + 1)
    return out, per_run


def spark_runs(url, jar, cores, runs, partition_bytes, relay, rows_too=False):
    from pyspark.sql import SparkSession, functions as F

    spark = (SparkSession.builder.master("local[%d]" % cores).appName("nczarr-spark-bench")
             .config("spark.jars", jar).config("spark.ui.enabled", "false")
             .config("spark.sql.shuffle.partitions", str(cores)).getOrCreate())
    spark.sparkContext.setLogLevel("WARN")

    def query(push=True):
        reader = spark.read.format("nczarr").option("variables", "temperature")
        if partition_bytes:
            reader = reader.option("partitionBytes", partition_bytes)
        df = reader.option("pushAggregates", str(push).lower()).load(url)
        rows = df.groupBy("time").agg(F.avg("temperature").alias("m")).collect()
        return np.array([r["m"] for r in sorted(rows, key=lambda r: r["time"])])

    def core_read():
        jvm = spark._jvm
        d = jvm.io.nczarr.open.Datasets
        options = jvm.io.nczarr.open.NcZarrOptions.shared()
        with_ds = d.open(d.resolve(d.parse(url), options), options)
        try:
            return with_ds.variable("/temperature").readAll().size()
        finally:
            with_ds.close()

    (means, best, med), requests = counted(relay, runs, query)
    core = rows = None
    if rows_too:
        (rmeans, rbest, rmed), rreq = counted(relay, runs, lambda: query(False))
        if not np.allclose(means, rmeans, rtol=1e-4):
            sys.exit("pushed and row means disagree: %s vs %s" % (means[:3], rmeans[:3]))
        rows = (rbest, rmed, rreq)
    if cores == 2:
        (_, cbest, cmed), creq = counted(relay, runs, core_read)
        core = (cbest, cmed, creq)
    spark.stop()
    return means, best, med, requests, core, rows


def dask_runs(path, workers, runs, storage_options, relay):
    import dask
    import xarray as xr

    def mean():
        with dask.config.set(scheduler="threads", num_workers=workers):
            ds = xr.open_zarr(path, consolidated=False, storage_options=storage_options)
            return ds.temperature.mean(("lat", "lon")).compute().values.astype(np.float64)

    (out, best, med), requests = counted(relay, runs, mean)
    return out, best, med, requests


def leg(title, spark_url, dask_path, storage_options, jar, runs, partition_bytes, mb, relay):
    rows = []
    m1, b1, d1, r1, _, _ = spark_runs(spark_url, jar, 1, runs, partition_bytes, relay)
    rows.append(("Spark local[1]", b1, d1, r1))
    m2, b2, d2, r2, core, by_rows = spark_runs(spark_url, jar, 2, runs, partition_bytes, relay, rows_too=True)
    rows.append(("Spark local[2]", b2, d2, r2))
    rows.append(("Spark local[2], pushAggregates false (Spark averages the rows)",) + by_rows)
    rows.append(("core read, whole variable (no Spark job)", core[0], core[1], core[2]))
    dm, db, dd, dr = dask_runs(dask_path, 2, runs, storage_options, relay)
    rows.append(("xarray + dask, 2 threads", db, dd, dr))
    dm1, db1, dd1, dr1 = dask_runs(dask_path, 1, runs, storage_options, relay)
    rows.append(("xarray + dask, 1 thread", db1, dd1, dr1))
    for other in (m2, dm, dm1):
        if not np.allclose(m1, other, rtol=1e-4):
            sys.exit("the means disagree: %s vs %s" % (m1[:3], other[:3]))
    req = relay is not None
    print("### %s" % title)
    print()
    print("| run (%.1f MB decoded, %d runs after a warm-up, partitionBytes %s) | best s | median s | MB/s (best) |%s"
          % (mb, runs, partition_bytes or "128m", " requests per run |" if req else ""))
    print("|---|---:|---:|---:|%s" % ("---:|" if req else ""))
    for name, b, d, r in rows:
        print("| %s | %.3f | %.3f | %.0f |%s" % (name, b, d, mb / b, (" %.0f |" % r) if req else ""))
    print()
    print("- speed-up local[1] -> local[2]: %.2fx" % (b1 / b2))
    print("- Spark local[2] / dask 2 threads (speed ratio, > 1 = Spark faster): %.2f" % (db / b2))
    print("- Spark local[1] / dask 1 thread: %.2f" % (db1 / b1))
    print("- Spark local[2] time over the core read: %.2fx" % (b2 / core[0]))
    print("- the pushed-down aggregate against Spark averaging rows (local[2]): %.2fx faster" % (by_rows[0] / b2))
    print("- load average after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    print()
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cube")
    ap.add_argument("jar")
    ap.add_argument("runs", nargs="?", type=int, default=3)
    ap.add_argument("partition_bytes", nargs="?", default=None)
    ap.add_argument("--s3", metavar="RELAY_COMMAND", help="command starting io.nczarr.cli.bench.S3Relay")
    ap.add_argument("--latency", type=int, default=20)
    ap.add_argument("--s3-only", action="store_true")
    a = ap.parse_args()
    cube = os.path.abspath(a.cube)
    shape = json.load(open(os.path.join(cube, "temperature", ".zarray")))["shape"]
    mb = int(np.prod(shape)) * 4 / 1e6
    print("cube %s %s, load average before: %s" % (os.path.basename(cube), shape,
                                                   " ".join(open("/proc/loadavg").read().split()[:3])))
    print()
    if not a.s3_only:
        leg("local files", cube + "#mode=zarr,file", cube, None, a.jar, a.runs, a.partition_bytes, mb, None)
    if a.s3:
        relay = Relay(a.s3, cube, a.latency)
        try:
            name = os.path.basename(cube)
            url = "%s/bench/%s#mode=zarr,s3&aws.profile=none" % (relay.endpoint, name)
            so = {"anon": True, "client_kwargs": {"endpoint_url": relay.endpoint, "region_name": "us-east-1"}}
            leg("loopback S3, %d ms per request (relay %s)" % (a.latency, relay.endpoint), url,
                "s3://bench/%s" % name, so, a.jar, a.runs, a.partition_bytes, mb, relay)
        finally:
            relay.close()


if __name__ == "__main__":
    main()
