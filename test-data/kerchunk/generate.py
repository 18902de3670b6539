#!/usr/bin/env python3
"""Generates the kerchunk test data (issue 13). Run with the pinned venv:

    python3 -m venv /tmp/venv-13 && /tmp/venv-13/bin/pip install -r test-data/requirements-kerchunk.txt
    cd test-data/kerchunk && /tmp/venv-13/bin/python generate.py

Writes, in this folder:
* nc4.nc  netCDF-4 (netCDF4-python): chunked zlib+shuffle float/int variables, a contiguous variable,
          a group with its own dimension and variable, a vlen string variable, attributes.
* nc3.nc  netCDF-3 classic: fixed and record variables.
* references (kerchunk), with target URLs RELATIVE to the reference file or templated:
    nc4.v1.json    version 1, every target "{{u}}" with template u = "nc4.nc"
    nc4.v0.json    version 0 (flat key -> value), targets "nc4.nc"
    nc3.v1.json    version 1 of nc3.nc (NetCDF3ToZarr), targets "nc3.nc"
    gen.v1.json    version 1 with a "gen" section: the chunks of nc3.nc's record variable /rec
                   generated from dimensions (offset = expression of the record index)
* *.expected.json  manifests of the SOURCE files read by netCDF4-python (test-data/manifest.py
                   from_netcdf4): the oracle for the variables' types, shapes and data.
Tests rewrite the relative targets to loopback HTTP/S3 URLs at test time.
"""
import base64
import json
import os
import sys

import numpy as np
import netCDF4
import ujson  # noqa: F401  (kerchunk's writer)
from kerchunk.hdf import SingleHdf5ToZarr
from kerchunk.netCDF3 import NetCDF3ToZarr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import manifest  # noqa: E402


def write_nc4(path):
    ds = netCDF4.Dataset(path, "w", format="NETCDF4")
    ds.title = "kerchunk test: netCDF-4"
    ds.createDimension("time", 6)
    ds.createDimension("y", 10)
    ds.createDimension("x", 12)
    t = ds.createVariable("time", "f8", ("time",), contiguous=True)
    t.units = "hours since 2000-01-01"
    t[:] = np.arange(6) * 6.0
    temp = ds.createVariable("temp", "f4", ("time", "y", "x"), zlib=True, shuffle=True,
                             chunksizes=(2, 5, 6), fill_value=np.float32(-999))
    temp.units = "K"
    v = (np.arange(6 * 10 * 12, dtype="f4").reshape(6, 10, 12) * 0.25 + 250).astype("f4")
    v[0, 0, 0] = -999
    temp[:] = v
    cnt = ds.createVariable("count", "i4", ("y", "x"), zlib=True, shuffle=True, chunksizes=(4, 5))
    cnt[:] = np.arange(120, dtype="i4").reshape(10, 12) - 60
    flat = ds.createVariable("flat", "i2", ("y",), contiguous=True)
    flat[:] = np.arange(10, dtype="i2") * 3
    g = ds.createGroup("obs")
    g.createDimension("station", 5)
    elev = g.createVariable("elevation", "f8", ("station",), zlib=True, chunksizes=(2,))
    elev.units = "m"
    elev[:] = [10.5, 20.25, 30.0, 40.125, 50.0]
    name = g.createVariable("name", str, ("station",))
    for i, s in enumerate(["alpha", "beta", "gamma", "delta", "eps"]):
        name[i] = s
    ds.close()


def write_nc3(path):
    ds = netCDF4.Dataset(path, "w", format="NETCDF3_CLASSIC")
    ds.title = "kerchunk test: netCDF-3"
    ds.createDimension("rec", None)
    ds.createDimension("x", 4)
    a = ds.createVariable("fixed", "f4", ("x",))
    a.units = "m"
    a[:] = [1.5, 2.5, 3.5, 4.5]
    r = ds.createVariable("rec", "i4", ("rec",))
    r[:] = np.arange(5, dtype="i4") * 7 - 3
    r2 = ds.createVariable("rec2d", "f8", ("rec", "x"))
    r2[:] = np.arange(20, dtype="f8").reshape(5, 4) / 8
    ds.close()


def relative(refs, name, template=None):
    """Rewrites the absolute target URLs kerchunk wrote to `name` (or to "{{template}}")."""
    out = {}
    for k, v in refs.items():
        if isinstance(v, list) and v and isinstance(v[0], str) and v[0].endswith(name):
            v = ["{{%s}}" % template if template else name] + v[1:]
        out[k] = v
    return out


def dump(obj, path):
    with open(path, "w") as f:
        json.dump(obj, f, indent=0, sort_keys=True)
        f.write("\n")


def main():
    os.chdir(HERE)
    write_nc4("nc4.nc")
    write_nc3("nc3.nc")

    h = SingleHdf5ToZarr(os.path.abspath("nc4.nc"), inline_threshold=0).translate()
    assert h["version"] == 1
    dump({"version": 1, "templates": {"u": "nc4.nc"}, "refs": relative(h["refs"], "nc4.nc", "u")},
         "nc4.v1.json")
    v0 = relative(h["refs"], "nc4.nc")
    # version 0 has JSON text values; one metadata value as a JSON object, one as base64 (both legal)
    v0[".zattrs"] = json.loads(v0[".zattrs"]) if isinstance(v0[".zattrs"], str) else v0[".zattrs"]
    v0[".zgroup"] = "base64:" + base64.b64encode(v0[".zgroup"].encode()).decode()
    dump(v0, "nc4.v0.json")

    n = NetCDF3ToZarr(os.path.abspath("nc3.nc"), inline_threshold=0).translate()
    refs = relative(n["refs"], "nc3.nc")
    dump({"version": 1, "refs": refs}, "nc3.v1.json")

    # gen: the chunks of /rec (one per record) from a dimension and offset arithmetic
    recs = sorted((k, v) for k, v in refs.items() if k.startswith("rec/") and not k.startswith("rec/."))
    assert len(recs) == 5, recs
    offsets = [v[1] for _, v in recs]
    step = offsets[1] - offsets[0]
    assert all(offsets[i] == offsets[0] + i * step for i in range(5)), offsets
    gen_refs = {k: v for k, v in refs.items() if not (k.startswith("rec/") and not k.startswith("rec/."))}
    gen = [{"key": "rec/{{i}}", "url": "{{u}}", "offset": "{{%d + i * %d}}" % (offsets[0], step),
            "length": str(recs[0][1][2]), "dimensions": {"i": {"stop": 5}}}]
    dump({"version": 1, "templates": {"u": "nc3.nc"}, "gen": gen, "refs": gen_refs}, "gen.v1.json")

    for src, name in [("nc4.nc", "nc4"), ("nc3.nc", "nc3")]:
        m = manifest.from_netcdf4(src, name)
        dump(m, name + ".expected.json")


if __name__ == "__main__":
    main()
