#!/usr/bin/env python3
"""The anchors of bench/blosc-cpu.sh (issue 26): for each store, zarr-python 3 with the zarrs (Rust) codec
pipeline reads the whole array (process CPU, all threads, per decoded MB: the mean of ROUNDS reads after one
warm-up), and numcodecs decodes the chunk files on one thread (thread CPU per decoded MB).

usage: /tmp/anchors-312/bin/python bench/blosc_cpu_read.py DATA ROUNDS STORE...
Output: RESULT store zarrsCpuMsPerMB zarrsWallMs numcodecsCpuMsPerMB sha256
"""
import hashlib
import json
import os
import sys
import time

import numcodecs
import numpy as np
import zarr
import zarrs  # noqa: F401
from numcodecs import blosc

zarr.config.set({"codec_pipeline.path": "zarrs.ZarrsCodecPipeline"})


def zarrs_read(path, rounds):
    a = zarr.open_array(path, mode="r", zarr_format=2)
    first = a[...]
    digest = hashlib.sha256(np.ascontiguousarray(first, dtype="<f4").tobytes()).hexdigest()
    c0, t0 = time.process_time(), time.perf_counter()  # the mean of the rounds, as ours
    for _ in range(rounds):
        a[...]
    best, wall = (time.process_time() - c0) / rounds, (time.perf_counter() - t0) / rounds
    return best * 1e3 / (first.nbytes / 1e6), wall * 1e3, digest


def numcodecs_decode(path, rounds):
    meta = json.load(open(os.path.join(path, ".zarray")))
    codec = numcodecs.get_codec(meta["compressor"])
    blosc.use_threads = False
    blosc.set_nthreads(1)
    chunks = [open(os.path.join(path, f), "rb").read() for f in sorted(os.listdir(path)) if not f.startswith(".")]
    n = 0
    best = float("inf")
    for r in range(rounds + 1):
        c0 = time.thread_time()
        n = sum(len(codec.decode(c)) for c in chunks)
        c = time.thread_time() - c0
        if r > 0:
            best = min(best, c)
    return best * 1e3 / (n / 1e6)


def main():
    data, rounds = sys.argv[1], int(sys.argv[2])
    for store in sys.argv[3:]:
        path = os.path.join(data, store, "temperature")
        cpu, wall, digest = zarrs_read(path, rounds)
        print("RESULT %s %.4f %.2f %.4f %s" % (store, cpu, wall, numcodecs_decode(path, rounds), digest), flush=True)


if __name__ == "__main__":
    main()
