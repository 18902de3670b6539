#!/usr/bin/env python3
"""zarr-python reading one array whole into numpy: the baseline for `./nczarr bench`.

usage: /usr/bin/python3 bench/zarr_read.py STORE ARRAY [ROUNDS]
"""
import sys
import time

import zarr

a = zarr.open_group(sys.argv[1], mode="r")[sys.argv[2]]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
best = None
for r in range(rounds):
    t0 = time.perf_counter()
    v = a[...]
    dt = time.perf_counter() - t0
    best = dt if best is None else min(best, dt)
print("zarr-python %s %s: best %.3f s, %.1f MB/s (zarr %s)" % (sys.argv[1], sys.argv[2], best, v.nbytes / 1e6 / best,
                                                            zarr.__version__))
