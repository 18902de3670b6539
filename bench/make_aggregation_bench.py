#!/usr/bin/env python3
"""Aggregation benchmark data (issue 14): 100 netCDF-4 fragments of ~2 MB (tas(time=1, lat=720,
lon=720) float32, contiguous) and a CF-1.13 aggregation file over them with relative URIs, plus the
expected sum of the whole variable (numpy float64) in expected.json.

usage: make_aggregation_bench.py DIR [fragments=100]   (netCDF4 + numpy: test-data/requirements-aggregation.txt)
"""
import json
import os
import sys

import netCDF4
import numpy as np

out = sys.argv[1]
n = int(sys.argv[2]) if len(sys.argv) > 2 else 100
ny = nx = 720
os.makedirs(out, exist_ok=True)
total = 0.0
rng = np.random.default_rng(14)
for i in range(n):
    data = rng.random((1, ny, nx), dtype="f4") * 40 + 250
    total += float(data.astype("f8").sum())
    with netCDF4.Dataset(os.path.join(out, "tas_%03d.nc" % i), "w", format="NETCDF4") as ds:
        ds.createDimension("time", 1)
        ds.createDimension("lat", ny)
        ds.createDimension("lon", nx)
        v = ds.createVariable("tas", "f4", ("time", "lat", "lon"))
        v.units = "K"
        v[...] = data
with netCDF4.Dataset(os.path.join(out, "agg.nc"), "w", format="NETCDF4") as ds:
    ds.Conventions = "CF-1.13"
    for d, k in [("time", n), ("lat", ny), ("lon", nx), ("f_time", n), ("f_lat", 1), ("f_lon", 1), ("j", 3),
                 ("i", n)]:
        ds.createDimension(d, k)
    t = ds.createVariable("time", "f8", ("time",))
    t.units = "days since 2000-01-01"
    t[:] = np.arange(n)
    m = ds.createVariable("fragment_map", "i4", ("j", "i"), fill_value=-1)
    rows = np.ma.masked_all((3, n), dtype="i4")
    rows[0, :] = 1
    rows[1, 0] = ny
    rows[2, 0] = nx
    m[...] = rows
    u = ds.createVariable("fragment_uris", str, ("f_time", "f_lat", "f_lon"))
    u[...] = np.array(["tas_%03d.nc" % i for i in range(n)], dtype=object).reshape(n, 1, 1)
    idv = ds.createVariable("fragment_identifiers", str, ())
    idv[0] = "tas"
    v = ds.createVariable("tas", "f4", ())
    v.units = "K"
    v.aggregated_dimensions = "time lat lon"
    v.aggregated_data = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"
with open(os.path.join(out, "expected.json"), "w") as fh:
    json.dump({"fragments": n, "sum": total}, fh)
print("wrote", n, "fragments to", out)
