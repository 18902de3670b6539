#!/usr/bin/env python3
"""Parquet reference benchmark data (issue 23): DIR/big.nc, the ~100 MB netCDF-4 file of the kerchunk
benchmark (make_kerchunk_bench.py: `temp` float32 (100, 500, 500), 100 uncompressed chunks of 1 MB), and its
kerchunk references as fsspec Parquet folders written by kerchunk.df.refs_to_dataframe (fastparquet, zstd),
record_size 10 (10 record files):
  DIR/big.parq/      target path RELATIVE ("big.nc", a sibling of the folder): read by nczarr-java
  DIR/big-s3.parq/   target path s3://BUCKET/PREFIX/big.nc (fsspec does not resolve relative paths): read by
                     fsspec ReferenceFileSystem + xarray/zarr-python (parquet_xarray.py)
Needs the venv of test-data/parquet-refs/requirements.txt. Usage: make_parquet_bench.py DIR S3_FOLDER"""
import os
import subprocess
import sys

from kerchunk.df import refs_to_dataframe
from kerchunk.hdf import SingleHdf5ToZarr

d = sys.argv[1] if len(sys.argv) > 1 else "/tmp/nczarr-parquet-bench"
s3_folder = sys.argv[2] if len(sys.argv) > 2 else "s3://bench/parquet/"
os.makedirs(d, exist_ok=True)
nc = os.path.join(d, "big.nc")
if not os.path.exists(nc):
    subprocess.run([sys.executable, os.path.join(os.path.dirname(__file__), "make_kerchunk_bench.py"), d], check=True)
refs = SingleHdf5ToZarr(nc, inline_threshold=0).translate()["refs"]
for name, target in (("big.parq", "big.nc"), ("big-s3.parq", s3_folder + "big.nc")):
    r = {k: ([target] + v[1:] if isinstance(v, list) else v) for k, v in refs.items()}
    refs_to_dataframe(r, os.path.join(d, name), record_size=10)
print(d)
