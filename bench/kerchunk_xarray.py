#!/usr/bin/env python3
"""(c) of the kerchunk benchmark: xarray + kerchunk references + fsspec (s3fs) reading the whole variable
`temp` from the loopback S3 server's unauthenticated endpoint. fsspec does not resolve relative target
URLs, so the script makes them absolute (s3://BUCKET/PREFIX/big.nc) after reading the reference file.
Prints `seconds sum`. Usage: kerchunk_xarray.py ENDPOINT BUCKET/KEY_OF_big.json"""
import json
import posixpath
import sys
import time

import fsspec
import xarray as xr

endpoint, key = sys.argv[1], sys.argv[2]
so = {"anon": True, "client_kwargs": {"endpoint_url": endpoint}}
t0 = time.perf_counter()
s3 = fsspec.filesystem("s3", skip_instance_cache=True, **so)
refs = json.loads(s3.cat_file(key))
folder = "s3://" + posixpath.dirname(key) + "/"
for k, v in refs["refs"].items():
    if isinstance(v, list) and "://" not in v[0]:
        v[0] = folder + v[0]
ds = xr.open_dataset(
    "reference://",
    engine="zarr",
    backend_kwargs={
        "consolidated": False,
        "storage_options": {"fo": refs, "remote_protocol": "s3", "remote_options": dict(so, asynchronous=True)},
    },
)
total = float(ds["temp"].values.astype("f8").sum())
print("%.3f %.1f" % (time.perf_counter() - t0, total))
