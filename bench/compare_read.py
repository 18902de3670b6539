#!/usr/bin/env python3
"""The anchors of bench/compare.sh: tensorstore (zarr driver), zarr-python 3 and zarr-python 2 read
the datasets of bench/make_compare.py, locally or from the loopback S3 server.

Run by io.nczarr.cli.bench.CompareBenchmark (which owns the S3 server and its counting relay):

  compare_read.py --lib tensorstore|zarr3|zarr2 --data DIR [--s3 http://127.0.0.1:PORT/BUCKET]
                  --workloads zlib,blosc,many,row,open,open-cons [--iters 3] [--count]
  compare_read.py --lib ... --data DIR [--s3 ...] --oneshot row|zlib|many|blosc|DATASET
                  (one open + read, then exit: one process per read, the driver times the process)

Workloads: zlib, blosc, many = the whole variable of cube_zlib / cube_blosc / many_chunks (one
open, a warm-up read, then the best of --iters reads); row = one row across 100 chunks of
many_chunks, best of --iters reads after one open; open / open-cons = open the group of 200 arrays
(without / with .zmetadata) and every array's metadata, best of --iters fresh opens. On S3 (--s3)
the datasets are under BUCKET/<dataset dir>; credentials come from AWS_ACCESS_KEY_ID /
AWS_SECRET_ACCESS_KEY (every request is signed). Prints per workload
  RESULT lib workload best_seconds sha256
(and first "VERSION lib x.y.z"),
where sha256 is that of the values as little-endian bytes in C order (for opens: of the sorted
"name shape" lines). A workload may also name a dataset of the manifest (its whole variable:
bench/scaling.sh). With --oneshot the process prints "PHASES start imported opened read" (CLOCK_MONOTONIC
ns: first line of this script, libraries imported, array open, values read), "RSS kib" (peak resident
set, VmHWM), "CPU ticks" (user + system, 1/100 s) and last the sha256. With --count, the open and the last timed read are bracketed by "@reset" and
"@count open|read <workload>" lines (outside the timed part); after each the script waits for one
line on stdin (the driver reads the relay's request counts there).
"""
import time

_T_START = time.monotonic_ns()  # before any other import: the interpreter's start ends here

import argparse  # noqa: E402
import hashlib
import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

from bench_child import mark, oneshot_report  # noqa: E402


WHOLE = {"zlib": "cube_zlib", "blosc": "cube_blosc", "many": "many_chunks"}


def sha(a):
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()).hexdigest()


def names_sha(pairs):
    return hashlib.sha256("\n".join(sorted("%s %s" % (n, ",".join(map(str, s))) for n, s in pairs)).encode()).hexdigest()


class Where:
    """A dataset directory locally or on S3."""

    def __init__(self, args):
        self.data = args.data
        self.s3 = None
        if args.s3:
            ep, bucket = args.s3.split("://", 1)[1].split("/", 1)
            self.s3 = ("http://" + ep, bucket.strip("/"))

    def local(self, rel):
        return os.path.join(self.data, rel)

    def ts_kvstore(self, rel):
        if self.s3 is None:
            return {"driver": "file", "path": self.local(rel).rstrip("/") + "/"}
        return {"driver": "s3", "bucket": self.s3[1], "path": rel.strip("/") + "/", "endpoint": self.s3[0],
                "aws_region": "us-east-1", "aws_credentials": {"type": "environment"}}

    def fsspec(self, rel):
        """(url, storage_options) for zarr-python."""
        if self.s3 is None:
            return self.local(rel), None
        return "s3://%s/%s" % (self.s3[1], rel), {
            "key": os.environ["AWS_ACCESS_KEY_ID"], "secret": os.environ["AWS_SECRET_ACCESS_KEY"],
            "endpoint_url": self.s3[0], "client_kwargs": {"region_name": "us-east-1"}}


def tensorstore_reader(where):
    import tensorstore as ts

    def open_array(rel):
        return ts.open({"driver": "zarr", "kvstore": where.ts_kvstore(rel)}, read=True, open=True,
                       context=ts.Context()).result()

    def read(a, origin=None, shape=None):
        if origin is None:
            return a.read().result()
        return a[tuple(slice(o, o + s) for o, s in zip(origin, shape))].read().result()

    def open_group(rel, consolidated):
        # tensorstore has no group API and does not read .zmetadata: list the keys, then open
        # every array found (all opens in flight at once, one shared context)
        ctx = ts.Context()
        kv = ts.KvStore.open(where.ts_kvstore(rel), context=ctx).result()
        names = sorted({k.decode().rsplit("/", 1)[0] for k in kv.list().result() if k.endswith(b"/.zarray")})
        kvs = where.ts_kvstore(rel)
        futs = [ts.open({"driver": "zarr", "kvstore": dict(kvs, path=kvs["path"] + n + "/")}, read=True,
                        open=True, context=ctx) for n in names]
        return [(n, f.result().shape) for n, f in zip(names, futs)]

    return open_array, read, open_group


def zarr_reader(where, v3):
    import zarr

    def open_array(rel):
        url, so = where.fsspec(rel)
        if so is None:
            return zarr.open_array(url, mode="r")
        return zarr.open_array(url, mode="r", storage_options=so)

    def read(a, origin=None, shape=None):
        if origin is None:
            return a[...]
        return a[tuple(slice(o, o + s) for o, s in zip(origin, shape))]

    def open_group(rel, consolidated):
        url, so = where.fsspec(rel)
        kw = {} if so is None else {"storage_options": so}
        if v3:
            g = zarr.open_group(url, mode="r", use_consolidated=consolidated, **kw)
        elif consolidated:
            g = zarr.open_consolidated(url, mode="r", **kw)
        else:
            g = zarr.open_group(url, mode="r", **kw)
        return [(n, a.shape) for n, a in g.arrays()]

    return open_array, read, open_group


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lib", required=True, choices=["tensorstore", "zarrs", "zarr3", "zarr2"])
    p.add_argument("--data", required=True)
    p.add_argument("--s3")
    p.add_argument("--iters", type=int, default=3)
    p.add_argument("--workloads", default="zlib,blosc,many,row,open,open-cons")
    p.add_argument("--count", action="store_true")
    p.add_argument("--oneshot")
    args = p.parse_args()
    man = json.load(open(os.path.join(args.data, "compare.expected.json")))
    where = Where(args)
    if args.lib == "tensorstore":
        open_array, read, open_group = tensorstore_reader(where)
    else:
        if args.s3:
            try:
                import s3fs  # noqa: F401
            except ImportError:
                print("%s on S3 needs s3fs (not installed): skipped" % args.lib, file=sys.stderr)
                return
        if args.lib == "zarrs":  # zarr-python 3 with the zarrs (Rust) codec pipeline
            import zarr
            import zarrs  # noqa: F401

            zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline"})
        open_array, read, open_group = zarr_reader(where, args.lib != "zarr2")
    ds = man["datasets"]
    if args.lib == "tensorstore":
        from importlib.metadata import version
        print("VERSION tensorstore " + version("tensorstore"), flush=True)
    elif args.lib == "zarrs":
        from importlib.metadata import version
        print("VERSION zarrs %s" % version("zarrs"), flush=True)
    else:
        import zarr
        print("VERSION %s %s" % (args.lib, zarr.__version__), flush=True)

    def array_of(dsname):
        d = ds[dsname]
        return d["path"] + "/" + d["var"]

    if args.oneshot:  # one read per process: import, open, read, print; the driver times the process
        t_imported = time.monotonic_ns()
        if args.oneshot == "row":
            row = man["row"]
            src, origin, shape = array_of(row["dataset"]), row["origin"], row["shape"]
        else:
            src, origin, shape = array_of(WHOLE.get(args.oneshot, args.oneshot)), None, None
        a = open_array(src)
        t_opened = time.monotonic_ns()
        r = read(a, origin, shape)
        t_read = time.monotonic_ns()
        oneshot_report(_T_START, t_imported, t_opened, t_read, sha(r))
        return
    for w in args.workloads.split(","):
        if w in ("open", "open-cons"):
            rel = man["open"]["consolidated" if w == "open-cons" else "plain"]
            best = float("inf")
            digest = names_sha(open_group(rel, w == "open-cons"))  # warm-up
            for _ in range(args.iters):
                t0 = time.perf_counter()
                found = open_group(rel, w == "open-cons")
                best = min(best, time.perf_counter() - t0)
                digest = digest if names_sha(found) == digest else "differs-between-runs"
            print("RESULT %s %s %.6f %s" % (args.lib, w, best, digest), flush=True)
            continue
        if w == "row":
            src, origin, shape = array_of(man["row"]["dataset"]), man["row"]["origin"], man["row"]["shape"]
        else:
            src, origin, shape = array_of(WHOLE.get(w, w)), None, None
        if args.count:
            mark("reset")
        a = open_array(src)
        if args.count:
            mark("count open " + w)
        digest = sha(read(a, origin, shape))  # warm-up
        best = float("inf")
        for i in range(args.iters):
            last = i == args.iters - 1
            if args.count and last:
                mark("reset")
            t0 = time.perf_counter()
            r = read(a, origin, shape)
            best = min(best, time.perf_counter() - t0)
            if args.count and last:
                mark("count read " + w)
            if last and sha(r) != digest:
                digest = "differs-between-runs"
            del r
        print("RESULT %s %s %.6f %s" % (args.lib, w, best, digest), flush=True)


if __name__ == "__main__":
    main()
