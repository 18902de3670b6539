#!/usr/bin/env python3
"""The baselines of bench/v3-bench.sh: reads the v3 sharding benchmark array with tensorstore
(driver zarr3) or zarr-python 3, from a local folder or from the loopback S3 server.

Run by io.nczarr.cli.bench.V3Benchmark (which owns the S3 server and its counting relay), but
also usable alone for local reads:

  v3_read.py --lib tensorstore|zarrs|zarr --manifest bench-data/v3sharded.expected.json \
             [--local DIR | --s3 http://127.0.0.1:PORT/bucket/key] [--iters 3] [--workloads whole,chunk,row]
             [--count]

Per workload: one warm-up read, then --iters runs, each a fresh open (new tensorstore context /
new zarr array, so nothing is cached between runs) and a timed read; the result of every run is
checked against the manifest's sha256. Prints one line per workload:
  RESULT lib workload best_read_s best_open_s ok|BAD
With --count, a last untimed run brackets the open and the read by "@reset" / "@count open" /
"@count read" lines on stdout and waits for one line on stdin after each (the driver records the
relay's request counts there).
With --oneshot WORKLOAD: one open and one read in this process, then "PHASES start imported opened read"
(CLOCK_MONOTONIC ns: first line of this script, libraries imported, array open, values read), "RSS kib"
(peak resident set, VmHWM), "CPU ticks" (user + system, 1/100 s) and last the sha256 of the values (the driver times the process and checks it).
"""
import time

_T_START = time.monotonic_ns()  # before any other import: the interpreter's start ends here

import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

from bench_child import mark, oneshot_report  # noqa: E402


def opener(args):
    if args.lib == "tensorstore":
        import tensorstore as ts

        if args.local:
            kv = {"driver": "file", "path": args.local.rstrip("/") + "/"}
        else:
            ep, rest = args.s3.split("://", 1)[1].split("/", 1)
            bucket, key = rest.split("/", 1)
            kv = {
                "driver": "s3",
                "bucket": bucket,
                "path": key.rstrip("/") + "/",
                "endpoint": "http://" + ep,
                "aws_region": "us-east-1",
                "aws_credentials": {"type": "anonymous"},
            }
        spec = {"driver": "zarr3", "kvstore": kv}

        def open_():
            return ts.open(spec, read=True, open=True, context=ts.Context()).result()

        def read(a, o, s):
            return a[o[0]:o[0] + s[0], o[1]:o[1] + s[1]].read().result()

        return open_, read
    import zarr

    if args.lib == "zarrs":  # zarr-python 3 with the zarrs (Rust) codec pipeline
        import zarrs  # noqa: F401

        zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline"})
    if args.local:
        def open_():
            return zarr.open_array(args.local, mode="r")
    else:
        ep, rest = args.s3.split("://", 1)[1].split("/", 1)
        opts = {"anon": True, "endpoint_url": "http://" + ep, "client_kwargs": {"region_name": "us-east-1"}}

        def open_():
            return zarr.open_array("s3://" + rest, mode="r", storage_options=opts)

    def read(a, o, s):
        return a[o[0]:o[0] + s[0], o[1]:o[1] + s[1]]

    return open_, read


def sha(a):
    return hashlib.sha256(np.ascontiguousarray(a).astype("<f4", copy=False).tobytes()).hexdigest()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, choices=["tensorstore", "zarrs", "zarr"])
    p.add_argument("--manifest", required=True)
    p.add_argument("--local")
    p.add_argument("--s3")
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--workloads", default="whole,chunk,row")
    p.add_argument("--count", action="store_true")
    p.add_argument("--oneshot")
    args = p.parse_args()
    if args.lib in ("zarr", "zarrs") and args.s3:
        try:
            import s3fs  # noqa: F401
        except ImportError:
            print("zarr-python on S3 needs s3fs (not installed): skipped", file=sys.stderr)
            return
    sections = json.load(open(args.manifest))["sections"]
    open_, read = opener(args)
    if args.oneshot:
        t_imported = time.monotonic_ns()
        o, s = sections[args.oneshot]["origin"], sections[args.oneshot]["shape"]
        a = open_()
        t_opened = time.monotonic_ns()
        r = read(a, o, s)
        t_read = time.monotonic_ns()
        oneshot_report(_T_START, t_imported, t_opened, t_read, sha(r))
        return
    for w in args.workloads.split(","):
        o, s, want = sections[w]["origin"], sections[w]["shape"], sections[w]["sha256"]
        ok = sha(read(open_(), o, s)) == want  # warm-up
        best_read = best_open = float("inf")
        for _ in range(args.iters):
            t0 = time.perf_counter()
            a = open_()
            t1 = time.perf_counter()
            r = read(a, o, s)
            t2 = time.perf_counter()
            ok = ok and sha(r) == want
            best_open, best_read = min(best_open, t1 - t0), min(best_read, t2 - t1)
            del r
        if args.count:
            mark("reset")
            a = open_()
            mark("count open " + w)
            ok = ok and sha(read(a, o, s)) == want
            mark("count read " + w)
        print(f"RESULT {args.lib} {w} {best_read:.6f} {best_open:.6f} {'ok' if ok else 'BAD'}", flush=True)


if __name__ == "__main__":
    main()
