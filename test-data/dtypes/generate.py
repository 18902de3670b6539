#!/usr/bin/env python3
"""Writes dtypes.zarr (pure Zarr v2, issue 12: every data type, partial open) and its expected
manifest dtypes.expected.json, both from the numpy values below, independently of any reader.

The .zarray / .zattrs JSON is written by hand, chunks are numpy's bytes (zlib for /good), as
zarr-python 2 lays them out. Run with any Python that has numpy, e.g.
    /tmp/v3venv/bin/python test-data/dtypes/generate.py

Arrays:
  /good      <i4 [6], chunks [4] (edge chunk stored full size), zlib
  /half      <f2 [8]: 1, -2.5, 65504, 2**-24 (subnormal), +inf, -inf, NaN, -0.0; fill NaN
  /half_be   >f2 [3]: 0.333, 1e-5 (subnormal), 3.14
  /time      <M8[ns] [4] with NaT, fill_value null
  /dur       <m8[s] [3], fill_value 0
  /nocodec   <i4 [4] with compressor id "nosuchcodec": opens, reading it fails
  /raw       |V8 [2]: no netCDF type, left out (listed in _unreadable_arrays)
  /rec       structured [["a","<i4"],["b","<f4"]] [2]: a Structure (structures.py has the manifest
             rules for records; records.zarr, written by zarr-python, has the harder cases)

Rules the manifest follows (docs/architecture.md, "Data types"): float16 reads as float
(exact); datetime64/timedelta64 read as int64 counts with CF units ("<unit> since
1970-01-01T00:00:00" plus calendar "proleptic_gregorian" for datetimes, "<unit>" for
durations) and NaT (the smallest int64) as _FillValue and fill when fill_value is null or "NaT".
The _unreadable_arrays attribute is left out of the manifest (compare.py ignores it unless
listed; its wording is the reader's) and checked by DtypesConformanceTest.
"""
import json
import os
import shutil
import sys
import zlib

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import manifest as mf  # noqa: E402  (test-data/manifest.py: summarize, attr_entry)
sys.path.insert(0, HERE)
import structures  # noqa: E402  (the manifest rules for records)

STORE = os.path.join(HERE, "dtypes.zarr")
NAT = np.iinfo(np.int64).min


def put(key, data):
    path = os.path.join(STORE, key)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as f:
        f.write(data)


def put_json(key, obj):
    put(key, json.dumps(obj, indent=4, sort_keys=True) + "\n")


def zarray(shape, chunks, dtype, fill, compressor=None):
    return {"zarr_format": 2, "shape": list(shape), "chunks": list(chunks), "dtype": dtype,
            "compressor": compressor, "filters": None, "fill_value": fill, "order": "C"}


def main():
    if os.path.exists(STORE):
        shutil.rmtree(STORE)
    put_json(".zgroup", {"zarr_format": 2})
    put_json(".zattrs", {"title": "issue 12: every data type"})
    m = mf.new_manifest("dtypes")
    dims = {}
    variables = m["variables"]

    def var(name, values, nctype, attrs, data=True):
        n = len(values)
        dims["_zdim_%d" % n] = n
        entry = {"type": nctype, "dimensions": ["/_zdim_%d" % n], "shape": [n], "attributes": attrs}
        if data:
            entry["data"] = mf.summarize(np.asarray(values), nctype)
        variables["/" + name] = entry

    # /good: two chunks of 4, the second padded with the fill value (0)
    good = np.array([1, -2, 3, 2**31 - 1, -2**31, 0], dtype="<i4")
    put_json("good/.zarray", zarray([6], [4], "<i4", 0, {"id": "zlib", "level": 1}))
    put("good/0", zlib.compress(good[:4].tobytes(), 1))
    put("good/1", zlib.compress(np.concatenate([good[4:], np.zeros(2, "<i4")]).tobytes(), 1))
    var("good", good, "int", {"_FillValue": mf.attr_entry("int", [0])})

    half = np.array([1.0, -2.5, 65504.0, 2.0**-24, np.inf, -np.inf, np.nan, -0.0], dtype="<f2")
    put_json("half/.zarray", zarray([8], [8], "<f2", "NaN"))
    put("half/0", half.tobytes())
    var("half", half.astype("<f4"), "float", {"_FillValue": mf.attr_entry("float", [np.nan])})

    half_be = np.array([0.333, 1e-5, 3.14], dtype=">f2")
    put_json("half_be/.zarray", zarray([3], [3], ">f2", None))
    put("half_be/0", half_be.tobytes())
    var("half_be", half_be.astype("<f4"), "float", {})

    time = np.array(["1970-01-01T00:00:00", "2000-01-01T12:00:00.5", "NaT", "1677-09-22"],
                    dtype="<M8[ns]")
    put_json("time/.zarray", zarray([4], [4], "<M8[ns]", None))
    put("time/0", time.tobytes())
    var("time", time.view("<i8"), "int64", {
        "units": {"type": "char", "value": "nanoseconds since 1970-01-01T00:00:00"},
        "calendar": {"type": "char", "value": "proleptic_gregorian"},
        "_FillValue": mf.attr_entry("int64", [NAT]),
    })

    dur = np.array([0, 3600, -86400], dtype="<m8[s]")
    put_json("dur/.zarray", zarray([3], [3], "<m8[s]", 0))
    put("dur/0", dur.tobytes())
    var("dur", dur.view("<i8"), "int64", {
        "units": {"type": "char", "value": "seconds"},
        "_FillValue": mf.attr_entry("int64", [0]),
    })

    nocodec = np.arange(4, dtype="<i4")
    put_json("nocodec/.zarray", zarray([4], [4], "<i4", 0, {"id": "nosuchcodec", "level": 3}))
    put("nocodec/0", nocodec.tobytes())
    var("nocodec", nocodec, "int", {"_FillValue": mf.attr_entry("int", [0])}, data=False)

    raw = np.array([b"\x00\x01\x02\x03\x04\x05\x06\x07", b"abcdefgh"], dtype="|V8")
    put_json("raw/.zarray", zarray([2], [2], "|V8", None))
    put("raw/0", raw.tobytes())

    rec = np.array([(1, 1.5), (2, -2.5)], dtype=[("a", "<i4"), ("b", "<f4")])
    put_json("rec/.zarray", zarray([2], [2], [["a", "<i4"], ["b", "<f4"]], None))
    put("rec/0", rec.tobytes())
    dims["_zdim_2"] = 2
    variables.update(structures.entries("/rec", rec, ["/_zdim_2"]))

    m["groups"]["/"] = {
        "dimensions": dims,
        "attributes": {"title": {"type": "char", "value": "issue 12: every data type"}},
    }
    m["expect"] = {"outcome": "read_error", "mentions": ["nosuchcodec"], "read_errors": ["/nocodec"]}
    with open(os.path.join(HERE, "dtypes.expected.json"), "w") as f:
        json.dump(m, f, indent=1, sort_keys=True)
        f.write("\n")
    index = {
        "schema": "zarr-conformance-index/1",
        "about": "issue 12 data types (Zarr v2); regenerate with test-data/dtypes/generate.py",
        "datasets": [{
            "name": "dtypes",
            "category": "zarr-v2-dtypes",
            "path": "dtypes.zarr",
            "fragment": "#mode=zarr,file",
            "expected": "dtypes.expected.json",
            "twin": None,
            "producer": "test-data/dtypes/generate.py (numpy %s, hand-written .zarray)" % np.__version__,
            "oracle": "the numpy values the script wrote",
        }],
    }
    with open(os.path.join(HERE, "INDEX.json"), "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
