#!/usr/bin/env python3
"""The Python anchor of the Parquet reference benchmark: fsspec's ReferenceFileSystem (LazyReferenceMapper over
the Parquet folder, read through s3fs) + xarray/zarr-python 3 reading the whole variable `temp` from the loopback
S3 server's unauthenticated endpoint. Prints `seconds sum`. Usage: parquet_xarray.py ENDPOINT s3://BUCKET/FOLDER [all|step]
(step: time step 50 only)."""
import sys
import time

import xarray as xr

endpoint, folder = sys.argv[1], sys.argv[2]
step = len(sys.argv) > 3 and sys.argv[3] == "step"
so = {"anon": True, "client_kwargs": {"endpoint_url": endpoint}}
t0 = time.perf_counter()
ds = xr.open_dataset(
    "reference://",
    engine="zarr",
    backend_kwargs={
        "consolidated": False,
        "zarr_format": 2,
        "storage_options": {
            "fo": folder,
            "target_options": so,
            "remote_protocol": "s3",
            "remote_options": dict(so, asynchronous=True),
            "skip_instance_cache": True,
        },
    },
)
v = ds["temp"][50] if step else ds["temp"]
total = float(v.values.astype("f8").sum())
print("%.3f %.1f" % (time.perf_counter() - t0, total))
