#!/usr/bin/env python3
"""Datasets of bench/scaling.sh (issue 26's scaling table), written by zarr-python 2.x (pinned in
bench/requirements-anchors-zarr2.txt), deterministic, with the sha256 every reader must get back.

usage: make_scaling.py OUTDIR [--chunks 100,1000,10000,40000] [--days 7,30,90]

  chunks_N.zarr   chunk-count axis: float64 field(y=N/10, x=1000), chunks (10, 10), no compressor:
                  N chunk objects of the SAME size (800 B, as compare.sh's many_chunks), so the data grows
                  with N and a linear reader's time per chunk stays flat
  cube_Dd.zarr    data-size axis: compare.sh's zlib cube (float32 temperature(D, 721, 1440), chunks
                  (1, 721, 1440), zlib level 1) at D days: D chunks of 4.15 MB decoded

OUTDIR/compare.expected.json (the manifest name bench/compare_read.py reads): "datasets" (path, var, dtype,
shape, chunks, sha256 of the values as little-endian bytes in C order) and "axes" (the dataset names of
each axis, in order).
"""
import argparse
import hashlib
import json
import os
import sys
import time

import numpy as np
from numcodecs import Zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_compare import cube, fresh, le  # noqa: E402


def chunks(out, n):
    if n % 100:
        raise SystemExit("chunk counts must be multiples of 100 (rows of 1000 values, chunks of 10 x 10)")
    rows = n // 10
    name = "chunks_%d" % n
    g = fresh(os.path.join(out, name + ".zarr"))
    y = np.arange(rows)[:, None]
    x = np.arange(1000)[None, :]
    field = np.sin(y / 37.0) * np.cos(x / 23.0) * 100.0 + (y * 1000 + x) * 1e-6
    z = g.create_dataset("field", data=field, chunks=(10, 10), compressor=None, fill_value=None)
    z.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    return name, {"path": name + ".zarr", "var": "field", "dtype": "<f8", "shape": [rows, 1000], "chunks": n,
                  "sha256": hashlib.sha256(le(field)).hexdigest()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--chunks", default="100,1000,10000,40000")
    ap.add_argument("--days", default="7,30,90")
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.time()
    import zarr
    man = {"schema": "nczarr-scaling/1", "writer": "zarr-python " + zarr.__version__,
           "params": {"chunks": a.chunks, "days": a.days}, "datasets": {}, "axes": {"chunks": [], "size": []}}
    for n in map(int, a.chunks.split(",")):
        name, d = chunks(a.outdir, n)
        man["datasets"][name] = d
        man["axes"]["chunks"].append(name)
    for days in map(int, a.days.split(",")):
        name = "cube_%dd" % days
        d = cube(a.outdir, name, days, Zlib(level=1))
        d["chunks"] = days
        man["datasets"][name] = d
        man["axes"]["size"].append(name)
    with open(os.path.join(a.outdir, "compare.expected.json"), "w", encoding="utf-8") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    print("wrote %s in %.1f s" % (a.outdir, time.time() - t0), flush=True)


if __name__ == "__main__":
    main()
