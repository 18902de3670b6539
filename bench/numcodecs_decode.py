#!/usr/bin/env python3
"""numcodecs' decode throughput over the chunk files of one Zarr array (the same chunks CodecBench decodes).

usage: /usr/bin/python3 bench/numcodecs_decode.py ARRAY_DIR [ROUNDS]
Prints decoded MB/s (1 MB = 10^6 bytes), single thread, best of ROUNDS.
"""
import json
import os
import sys
import time

import numcodecs

d = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
meta = json.load(open(os.path.join(d, ".zarray")))
codec = numcodecs.get_codec(meta["compressor"])
chunks = []
for root, _, files in os.walk(d):
    for f in files:
        if not f.startswith("."):
            chunks.append(open(os.path.join(root, f), "rb").read())


def run(label):
    best = None
    out = 0
    for r in range(rounds + 1):
        t0 = time.perf_counter()
        out = sum(len(codec.decode(c)) for c in chunks)
        dt = time.perf_counter() - t0
        if r > 0:
            best = dt if best is None else min(best, dt)
    print("numcodecs %-8s %10.1f MB/s  (%d chunks, %s, %s)" % (meta["compressor"]["id"], out / 1e6 / best,
                                                               len(chunks), numcodecs.__version__, label))


if meta["compressor"]["id"] == "blosc":
    from numcodecs import blosc
    run("blosc default: %d internal threads" % blosc.get_nthreads())
    blosc.use_threads = False
    blosc.set_nthreads(1)
    run("1 thread")
else:
    run("1 thread")
