#!/usr/bin/env python3
"""Datasets of bench/compare.sh (issue 16's table), written by zarr-python 2.x (Zarr v2, the
format every reader of the comparison reads), deterministic, plus a manifest of what each reader
must get back.

usage: make_compare.py OUTDIR [--days 30] [--rows 1000] [--arrays 200]

  cube_zlib.zarr      float32 temperature(time=DAYS, lat=721, lon=1440), chunks (1, 721, 1440),
                      zlib level 1 (the values of ../shared/corpus/make-bench.py's dataset 1)
  cube_blosc.zarr     the same values, blosc lz4 clevel 5, byte shuffle (dataset 2)
  many_chunks.zarr    float64 field(y=ROWS, x=1000), chunks (10, 10), no compressor: ROWS * 10
                      chunk objects of 800 B (dataset 3 when ROWS = 1000)
  arrays.zarr         a group of ARRAYS small float32 arrays a000.. (16,), no .zmetadata
  arrays_cons.zarr    the same with consolidated metadata (.zmetadata)

OUTDIR/compare.expected.json: per dataset the variable, dtype, shape and the sha256 of the values
as little-endian bytes in C order; the row section (one row across 100 chunks) with its sha256;
for the groups the sha256 of the sorted "name shape" lines every reader must list.
"""
import argparse
import hashlib
import json
import os
import shutil
import time

import numpy as np
import zarr
from numcodecs import Blosc, Zlib


def temperature_slice(t, lat, lon):
    """Deterministic synthetic surface temperature (K) for day t (as in make-bench.py)."""
    la = np.deg2rad(lat)[:, None]
    lo = np.deg2rad(lon)[None, :]
    season = np.cos(2 * np.pi * (t - 200) / 365.0)
    base = 288.0 - 40.0 * np.sin(la) ** 2 + 15.0 * season * np.sin(la)
    waves = 4.0 * np.sin(3 * lo + 0.1 * t) * np.cos(2 * la) + 2.0 * np.cos(5 * lo - 0.05 * t) * np.sin(la)
    rng = np.random.default_rng(1000 + t)
    noise = rng.standard_normal((lat.size, lon.size)) * 0.5
    return (base + waves + noise).astype("f4")


def le(a):
    return np.ascontiguousarray(a).astype(a.dtype.newbyteorder("<"), copy=False).tobytes()


def fresh(path):
    if os.path.exists(path):
        shutil.rmtree(path)
    return zarr.open_group(zarr.DirectoryStore(path), mode="w")


def cube(out, name, days, compressor):
    g = fresh(os.path.join(out, name + ".zarr"))
    lat = np.linspace(-90.0, 90.0, 721)
    lon = np.arange(1440) * 0.25
    z = g.create_dataset("temperature", shape=(days, 721, 1440), chunks=(1, 721, 1440), dtype="f4",
                         compressor=compressor, fill_value=np.float32(np.nan))
    z.attrs["_ARRAY_DIMENSIONS"] = ["time", "lat", "lon"]
    h = hashlib.sha256()
    for t in range(days):
        s = temperature_slice(t, lat, lon)
        z[t] = s
        h.update(le(s))
    return {"path": name + ".zarr", "var": "temperature", "dtype": "<f4", "shape": [days, 721, 1440],
            "sha256": h.hexdigest()}


def many_chunks(out, rows):
    g = fresh(os.path.join(out, "many_chunks.zarr"))
    y = np.arange(rows)[:, None]
    x = np.arange(1000)[None, :]
    field = np.sin(y / 37.0) * np.cos(x / 23.0) * 100.0 + (y * 1000 + x) * 1e-6
    z = g.create_dataset("field", data=field, chunks=(10, 10), compressor=None, fill_value=None)
    z.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    r = rows // 2 + 3  # an interior row, not on a chunk edge
    ds = {"path": "many_chunks.zarr", "var": "field", "dtype": "<f8", "shape": [rows, 1000],
          "sha256": hashlib.sha256(le(field)).hexdigest()}
    row = {"dataset": "many_chunks", "origin": [r, 0], "shape": [1, 1000],
           "sha256": hashlib.sha256(le(field[r:r + 1, :])).hexdigest()}
    return ds, row


def arrays(out, n):
    lines = []
    for name, consolidated in (("arrays", False), ("arrays_cons", True)):
        path = os.path.join(out, name + ".zarr")
        g = fresh(path)
        for i in range(n):
            a = g.create_dataset("a%03d" % i, data=np.arange(16, dtype="f4") + i, chunks=(16,), compressor=None)
            a.attrs["_ARRAY_DIMENSIONS"] = ["n%03d" % i]
        if consolidated:
            zarr.consolidate_metadata(zarr.DirectoryStore(path))
    lines = sorted("a%03d 16" % i for i in range(n))
    return {"plain": "arrays.zarr", "consolidated": "arrays_cons.zarr", "count": n,
            "sha256": hashlib.sha256("\n".join(lines).encode()).hexdigest()}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir")
    ap.add_argument("--days", type=int, default=30)
    ap.add_argument("--rows", type=int, default=1000)
    ap.add_argument("--arrays", type=int, default=200)
    a = ap.parse_args()
    if a.rows % 10 or a.rows < 10:
        ap.error("--rows must be a positive multiple of 10")
    os.makedirs(a.outdir, exist_ok=True)
    t0 = time.time()
    man = {"schema": "nczarr-compare/1", "writer": "zarr-python " + zarr.__version__,
           "params": {"days": a.days, "rows": a.rows, "arrays": a.arrays}, "datasets": {}}
    man["datasets"]["cube_zlib"] = cube(a.outdir, "cube_zlib", a.days, Zlib(level=1))
    man["datasets"]["cube_blosc"] = cube(a.outdir, "cube_blosc", a.days,
                                         Blosc(cname="lz4", clevel=5, shuffle=Blosc.SHUFFLE))
    man["datasets"]["many_chunks"], man["row"] = many_chunks(a.outdir, a.rows)
    man["open"] = arrays(a.outdir, a.arrays)
    with open(os.path.join(a.outdir, "compare.expected.json"), "w", encoding="utf-8") as f:
        json.dump(man, f, indent=1)
        f.write("\n")
    print("wrote %s in %.1f s" % (a.outdir, time.time() - t0), flush=True)


if __name__ == "__main__":
    main()
