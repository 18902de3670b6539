#!/usr/bin/env python3
"""The local Python anchor of IcechunkBench: icechunk-python 2.3.0 + zarr-python 3.4.2 open DIR/virtual.icechunk
(bench/icechunk_bench.py) and read the whole variable sst or one time step (7). Prints `seconds sum`.
Usage: icechunk_local_read.py DIR all|step"""
import sys, time, numpy as np, icechunk as ic, zarr
D, what = sys.argv[1], sys.argv[2]
prefix = "file://" + D.rstrip("/") + "/"
t0 = time.perf_counter()
repo = ic.Repository.open(ic.local_filesystem_storage(D + "/virtual.icechunk"),
                          authorize_virtual_chunk_access={prefix: ic.credentials.LocalFileSystemAccess})
arr = zarr.open_group(store=repo.readonly_session(branch="main").store, mode="r")["sst"]
v = arr[7] if what == "step" else arr[...]
total = float(np.asarray(v, dtype="f8").sum())
print("%.3f %.1f" % (time.perf_counter() - t0, total))
