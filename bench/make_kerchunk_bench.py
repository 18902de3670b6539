#!/usr/bin/env python3
"""Kerchunk benchmark data (issue 13): DIR/big.nc, a ~100 MB netCDF-4 file whose variable `temp`
float32 (100, 500, 500) has 100 chunks of (1, 500, 500) = 1 MB (uncompressed, so the file is the size of
the data), plus DIR/big.json, its kerchunk v1 reference file with the RELATIVE target "big.nc".
Needs the venv of test-data/requirements-kerchunk.txt. Usage: make_kerchunk_bench.py [DIR]"""
import json
import os
import sys

import netCDF4
import numpy as np
from kerchunk.hdf import SingleHdf5ToZarr

d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/nczarr-kerchunk-bench"
os.makedirs(d, exist_ok=True)
nc = os.path.join(d, "big.nc")
ds = netCDF4.Dataset(nc, "w", format="NETCDF4")
ds.createDimension("time", 100)
ds.createDimension("y", 500)
ds.createDimension("x", 500)
v = ds.createVariable("temp", "f4", ("time", "y", "x"), chunksizes=(1, 500, 500))
base = np.linspace(0, 1, 500 * 500, dtype="f4").reshape(500, 500)
for t in range(100):
    v[t] = base + t
ds.close()
refs = SingleHdf5ToZarr(nc, inline_threshold=0).translate()
for k, r in refs["refs"].items():
    if isinstance(r, list):
        r[0] = "big.nc"
with open(os.path.join(d, "big.json"), "w") as f:
    json.dump(refs, f)
print(nc, os.path.getsize(nc))
