#!/usr/bin/env python3
"""(c) of the kerchunk benchmark: xarray + kerchunk references + fsspec (s3fs) reading the whole variable
`temp` from the loopback S3 server's unauthenticated endpoint. Prints `seconds sum`.
Usage: kerchunk_xarray.py ENDPOINT BUCKET/KEY_OF_big.json"""
import sys
import time

import fsspec
import xarray as xr

endpoint, key = sys.argv[1], sys.argv[2]
so = {"anon": True, "client_kwargs": {"endpoint_url": endpoint}}
t0 = time.perf_counter()
fs = fsspec.filesystem("reference", fo="s3://" + key, target_options=so, remote_protocol="s3",
                       remote_options=so, asynchronous=False)
ds = xr.open_dataset(fs.get_mapper(""), engine="zarr", consolidated=False, zarr_format=2)
total = float(ds["temp"].values.astype("f8").sum())
print("%.3f %.1f" % (time.perf_counter() - t0, total))
