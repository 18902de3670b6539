#!/usr/bin/env python3
"""Copy a make-bench.py cube into zstd- and blosc-zstd-compressed stores (same values), for the codec benchmark.

usage: /usr/bin/python3 bench/make_zstd.py BENCH_DIR
"""
import sys

import zarr
from numcodecs import Blosc, Zstd

src = zarr.open_group(sys.argv[1] + "/temperature_zlib.zarr", mode="r")
t = src["temperature"]
for name, comp in (("temperature_zstd.zarr", Zstd(level=3)),
                   ("temperature_blosc_zstd.zarr", Blosc(cname="zstd", clevel=5, shuffle=Blosc.SHUFFLE))):
    dst = zarr.open_group(sys.argv[1] + "/" + name, mode="w")
    a = dst.create_dataset("temperature", shape=t.shape, chunks=t.chunks, dtype=t.dtype, compressor=comp)
    for i in range(t.shape[0]):
        a[i] = t[i]
    a.attrs["_ARRAY_DIMENSIONS"] = ["time", "lat", "lon"]
    print("wrote", name)
