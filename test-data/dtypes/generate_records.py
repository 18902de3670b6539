#!/usr/bin/env python3
"""Writes records.zarr (pure Zarr v2, issue 12) WITH zarr-python 2.18 and its expected manifest
records.expected.json from the numpy values written (never from the reader under test):
complex numbers, structured dtypes (nested, sub-array, byte-string, complex and bool fields,
padding-free packed layout as zarr-python writes dtype.descr), the fills zarr-python encodes
(complex: [real, imag]; structured: base64 of the packed record), object arrays and calendar
datetimes (left out, listed in _unreadable_arrays), and attributes of every JSON shape
(OME-NGFF-like multiscales, nested lists, null, empty list, mixed list, huge integers, 1e400,
a long string).

    python3 -m venv /tmp/venv-12 && /tmp/venv-12/bin/pip install -r test-data/requirements-dtypes.txt
    /tmp/venv-12/bin/python test-data/dtypes/generate_records.py

Arrays:
  /c64        <c8 [5], chunks [2], blosc; fill [1, -1]; the last chunk is never written (fill)
  /c128_be    >c16 [2, 3], chunks [1, 2], zlib, order F; fill null
  /rec        [a <i4, b <f8 [2], s |S3, n [x |u1, y >i2], z <c8, k |b1] [4], chunks [3]; fill a
              record (base64); the second chunk is never written (fill)
  /grid       [u <f4, v <f4] [2, 2] with _ARRAY_DIMENSIONS ["y", "x"]
  /blob       |O vlen-bytes [3], chunks [2]: opaque (one ByteBuffer per element)
  /ragged     |O vlen-array <i4: left out (listed)
  /months     <M8[M]: left out (CF has no calendar-exact "months since"; listed)
Manifest rules for records: structures.py.
"""
import json
import math
import os
import shutil
import sys

import numcodecs
import numpy as np
import zarr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, HERE)
import manifest as mf  # noqa: E402
import structures  # noqa: E402

STORE = os.path.join(HERE, "records.zarr")

MULTISCALES = [{
    "version": "0.4", "name": "img",
    "axes": [{"name": "y", "type": "space", "unit": "micrometer"},
             {"name": "x", "type": "space", "unit": "micrometer"}],
    "datasets": [{"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [0.5, 0.5]}]}],
    "type": "gaussian", "metadata": {"method": "skimage", "kwargs": None},
}]

ROOT_ATTRS = {
    "title": "issue 12: records and attributes",
    "multiscales": MULTISCALES,
    "nested": [[1, 2], [3]],
    "none": None,
    "yes": True,
    "flags": [True, False],
    "empty": [],
    "mixed": [1, "a", None],
    "obj": {"k": [1, 2]},
    "long": "x" * 10000,
    "huge": 2**100,
    "big": float("inf"),          # zarr-python writes Infinity, what 1e400 parses to
    "u64": 2**64 - 1,
    "neg64": [-1, 2**32],
    "numbers": [1, 2.5],
    "strs": ["a", "b"],
    "unicode": "\u00e9t\u00e9 \u2603",
}


def main():
    if os.path.exists(STORE):
        shutil.rmtree(STORE)
    g = zarr.open_group(STORE, mode="w")
    g.attrs.update(ROOT_ATTRS)
    m = mf.new_manifest("records")
    dims = {}
    variables = m["variables"]

    c64 = np.array([1 + 2j, complex(np.nan, 0), complex(np.inf, -0.0), 3.5 - 1j], dtype="<c8")
    a = g.create_dataset("c64", shape=(5,), chunks=(2,), dtype="<c8", fill_value=1 - 1j)
    a[0:4] = c64
    dims["_zdim_5"] = 5
    variables.update(structures.entries(
        "/c64", np.concatenate([c64, np.array([1 - 1j], "<c8")]), ["/_zdim_5"]))

    c128 = np.array([[1e300 + 1j, -2.5j, 0], [complex(-np.inf, np.nan), 7, 1e-310 - 1e-310j]], dtype=">c16")
    a = g.create_dataset("c128_be", shape=(2, 3), chunks=(1, 2), dtype=">c16", fill_value=None,
                         compressor=numcodecs.Zlib(level=1), order="F")
    a[:] = c128
    dims["_zdim_2"] = 2
    dims["_zdim_3"] = 3
    variables.update(structures.entries("/c128_be", c128, ["/_zdim_2", "/_zdim_3"]))

    dt = np.dtype([("a", "<i4"), ("b", "<f8", (2,)), ("s", "S3"), ("n", [("x", "u1"), ("y", ">i2")]),
                   ("z", "<c8"), ("k", "?")])
    fill = np.zeros((), dtype=dt)
    fill["a"] = -1
    fill["b"] = [0.5, -0.5]
    fill["s"] = b"ab"
    fill["n"]["x"] = 7
    fill["n"]["y"] = -3
    fill["z"] = 1 - 2j
    rec = np.zeros(3, dtype=dt)
    rec["a"] = [1, -2, 2**31 - 1]
    rec["b"] = [[1.5, np.nan], [-0.0, np.inf], [1e-300, 2]]
    rec["s"] = [b"abc", b"", b"z"]
    rec["n"]["x"] = [0, 255, 128]
    rec["n"]["y"] = [-32768, 1, 32767]
    rec["z"] = [1j, -1, complex(np.nan, 2)]
    rec["k"] = [True, False, True]
    a = g.create_dataset("rec", shape=(4,), chunks=(3,), dtype=dt, fill_value=fill[()], compressor=None)
    a[0:3] = rec
    dims["_zdim_4"] = 4
    variables.update(structures.entries("/rec", np.concatenate([rec, fill.reshape(1)]), ["/_zdim_4"]))

    gdt = np.dtype([("u", "<f4"), ("v", "<f4")])
    grid = np.array([[(1, 2), (3, 4)], [(5, 6), (7, 8)]], dtype=gdt)
    a = g.create_dataset("grid", shape=(2, 2), chunks=(2, 1), dtype=gdt, fill_value=None)
    a[:] = grid
    a.attrs["_ARRAY_DIMENSIONS"] = ["y", "x"]
    a.attrs["long_name"] = "wind"
    dims["y"] = 2
    dims["x"] = 2
    variables.update(structures.entries(
        "/grid", grid, ["/y", "/x"], {"long_name": {"type": "char", "value": "wind"}}))

    blob = [b"a", b"", b"\x00\xffxyz"]
    a = g.create_dataset("blob", shape=(3,), chunks=(2,), dtype=object, object_codec=numcodecs.VLenBytes())
    a[:] = np.array(blob, dtype=object)
    dims["_zdim_3"] = 3
    variables["/blob"] = {"type": "opaque", "dimensions": ["/_zdim_3"], "shape": [3], "attributes": {},
                          "data": structures.opaque_summary(blob)}
    a = g.create_dataset("ragged", shape=(2,), dtype=object, object_codec=numcodecs.VLenArray("<i4"))
    a[:] = np.array([np.array([1, 2], "<i4"), np.array([3], "<i4")], dtype=object)
    a = g.create_dataset("months", shape=(2,), dtype="<M8[M]")
    a[:] = np.array(["2000-01", "2000-02"], dtype="<M8[M]")

    with open(os.path.join(STORE, ".zattrs")) as f:
        written = json.load(f, parse_constant=lambda c: float(c.replace("Infinity", "inf")))
    m["groups"]["/"] = {
        "dimensions": dims,
        "attributes": {k: mf.infer_zarr_attr(v) for k, v in written.items()},
    }
    with open(os.path.join(HERE, "records.expected.json"), "w") as f:
        json.dump(m, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    index_path = os.path.join(HERE, "INDEX.json")
    with open(index_path) as f:
        index = json.load(f)
    index["datasets"] = [d for d in index["datasets"] if d["name"] != "records"] + [{
        "name": "records",
        "category": "zarr-v2-dtypes",
        "path": "records.zarr",
        "fragment": "#mode=zarr,file",
        "expected": "records.expected.json",
        "twin": None,
        "producer": "test-data/dtypes/generate_records.py (zarr-python %s, numpy %s)"
                    % (zarr.__version__, np.__version__),
        "oracle": "the numpy values the script wrote",
    }]
    with open(index_path, "w") as f:
        json.dump(index, f, indent=1)
        f.write("\n")
    assert not math.isnan(0.0)


if __name__ == "__main__":
    main()
