#!/usr/bin/env python3
"""Issue 22, tensorstore: arrays written by tensorstore 0.1.86's `zarr` (v2) and `zarr3` drivers, with expected
manifests (`zarr-conformance-manifest/1`) from zarr-python 3.4.2 reading tensorstore's arrays (never from our
reader). Own venv (pins in requirements-tensorstore.txt):

    ~/.pyenv/versions/3.12.1/bin/python3 -m venv /work/venvs/tstore
    /work/venvs/tstore/bin/pip install -r test-data/autumn-2026/requirements-tensorstore.txt
    /work/venvs/tstore/bin/python test-data/autumn-2026/make_tensorstore.py

tensorstore writes arrays only (no group node, no attributes): the root group (with a `title`) is made by
zarr-python 3.4.2, then tensorstore creates and writes the arrays below it, then zarr-python consolidates the
metadata (a plain HTTP server cannot list). Deterministic values. Datasets (INDEX.json lists them):

* tensorstore_v3.zarr  `zarr3` driver. /sharded: int16 (6, 10), shards (4, 8) of inner chunks (2, 4) with
                       inner `bytes` big-endian + zstd, index at the **start** with crc32c, chunk key encoding
                       `v2` (keys `0.1`, written without a configuration), fill_value -9: one shard partly
                       written (empty inner chunks), one never written; dimension_names y, x.
                       /transposed: float32 (3, 4, 5) with `transpose` [2, 0, 1] + gzip, chunk key encoding
                       `default` with separator ".", fill_value NaN, a never-written chunk, no dimension_names.
                       /flags: bool (7,) fill_value true, chunk (3,), blosc lz4 bitshuffle, dimension_names [null].
* tensorstore_v2.zarr  `zarr` driver. /fgrid: >f8 (5, 7) order F, dimension_separator "/", blosc zstd
                       bitshuffle, fill_value NaN, chunks (2, 3) of which some are never written. /counts: <u4
                       (9,) zlib, fill_value 4000000000 (written as a number), a never-written chunk. tensorstore
                       writes no .zattrs: every axis is an anonymous `_zdim_<len>` dimension.
* tensorstore_v3_types.zarr  `zarr3` driver: bfloat16 (fill NaN, a never-written chunk), float16 big-endian + crc32c,
                       int64 sharded with big-endian inner chunks and the index at the end (two inner chunks never
                       written). Expected: tensorstore's own reads (zarr-python 3.4.2 cannot read bfloat16, nor
                       consolidate this group: no consolidated metadata, so plain HTTP refuses it).
* tensorstore_root_array.zarr  a bare `zarr3` array with no group (what tensorstore writes when used alone): read
                       as a root group holding that one array, named after the last segment of the dataset's path
                       (the project's rule for a root that is an array; SCHEMA.md has none). Expected: tensorstore's
                       own read. (Until stop 31 this was bad/tensorstore_root_array.zarr, refused.)
"""
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import make as A  # noqa: E402
import make_gdal as G  # noqa: E402
import manifest as M  # noqa: E402  (v2_manifest, v3_manifest; make_gdal imports rasterio only inside functions)

SCHEMA = A.SCHEMA


def ts_open(base, path, driver, metadata):
    import tensorstore as ts
    return ts.open({"driver": driver, "kvstore": {"driver": "file", "path": base + "/"}, "path": path,
                    "metadata": metadata, "create": True, "delete_existing": True}).result()


def tensorstore_v3():
    import zarr
    path = A.fresh("tensorstore_v3.zarr")
    zarr.open_group(path, mode="w", zarr_format=3, attributes={"title": "tensorstore zarr3"})
    a = ts_open(path, "sharded", "zarr3", {
        "shape": [6, 10], "data_type": "int16", "fill_value": -9,
        "chunk_key_encoding": {"name": "v2"},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 8]}},
        "codecs": [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2, 4],
            "codecs": [{"name": "bytes", "configuration": {"endian": "big"}},
                       {"name": "zstd", "configuration": {"level": 3}}],
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
            "index_location": "start"}}],
        "dimension_names": ["y", "x"]})
    v = np.arange(60, dtype="i2").reshape(6, 10) * 7 - 200
    a[0:4, :].write(v[0:4]).result()            # shards (0, 0), (0, 1)
    a[4:6, 0:4].write(v[4:6, 0:4]).result()     # shard (1, 0): one inner chunk of four; shard (1, 1) never written
    t = ts_open(path, "transposed", "zarr3", {
        "shape": [3, 4, 5], "data_type": "float32", "fill_value": "NaN",
        "chunk_key_encoding": {"name": "default", "configuration": {"separator": "."}},
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 4, 5]}},
        "codecs": [{"name": "transpose", "configuration": {"order": [2, 0, 1]}},
                   {"name": "bytes", "configuration": {"endian": "little"}},
                   {"name": "gzip", "configuration": {"level": 5}}]})
    t[0:2].write((np.arange(40, dtype="f4").reshape(2, 4, 5) - 10) / 4).result()   # chunk 1.0.0 never written
    f = ts_open(path, "flags", "zarr3", {
        "shape": [7], "data_type": "bool", "fill_value": True,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [3]}},
        "codecs": [{"name": "bytes"},
                   {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5, "shuffle": "bitshuffle",
                                                       "typesize": 1, "blocksize": 0}}],
        "dimension_names": [None]})
    f[0:6].write(np.array([True, False, False, True, False, True])).result()
    zarr.consolidate_metadata(path)
    A.write_manifest(G.v3_manifest(path, "autumn_tensorstore_v3"), "autumn_tensorstore_v3")


def tensorstore_v2():
    import zarr
    path = A.fresh("tensorstore_v2.zarr")
    zarr.open_group(path, mode="w", zarr_format=2, attributes={"title": "tensorstore zarr v2"})
    g = ts_open(path, "fgrid", "zarr", {
        "shape": [5, 7], "chunks": [2, 3], "dtype": ">f8", "fill_value": "NaN", "order": "F",
        "compressor": {"id": "blosc", "cname": "zstd", "clevel": 5, "shuffle": 2, "blocksize": 0},
        "dimension_separator": "/"})
    g[0:4, 0:6].write(np.arange(24, dtype="f8").reshape(4, 6) / 3 - 1).result()
    g[4:5, 6:7].write(np.array([[1e300]])).result()
    c = ts_open(path, "counts", "zarr", {
        "shape": [9], "chunks": [4], "dtype": "<u4", "fill_value": 4000000000, "order": "C",
        "compressor": {"id": "zlib", "level": 6}})
    c[0:4].write(np.array([0, 1, 4294967295, 4000000000], dtype="u4")).result()
    c[8:9].write(np.array([7], dtype="u4")).result()   # chunk 1 never written
    zarr.consolidate_metadata(path)
    A.write_manifest(G.v2_manifest(path, "autumn_tensorstore_v2"), "autumn_tensorstore_v2")


def tensorstore_v3_types():
    """bfloat16, float16 (big-endian + crc32c) and a sharded int64 (index at the end, never-written inner
    chunks): zarr-python 3.4.2 cannot read bfloat16 (nor consolidate a group holding it), so the expected values
    are tensorstore's own reads (bfloat16 widened exactly to float32) and the store has no consolidated metadata."""
    import ml_dtypes
    import tensorstore as ts
    import zarr
    path = A.fresh("tensorstore_v3_types.zarr")
    zarr.open_group(path, mode="w", zarr_format=3, attributes={"title": "tensorstore zarr3 types"})

    def grid(n):
        return {"name": "regular", "configuration": {"chunk_shape": [n]}}
    bf = ts_open(path, "bf16", "zarr3", {"shape": [5], "data_type": "bfloat16", "fill_value": "NaN",
                                         "chunk_grid": grid(2),
                                         "codecs": [{"name": "bytes", "configuration": {"endian": "little"}}]})
    bf[0:4].write(np.array([1.5, -2.25, 3.0e38, 0.0078125], dtype=ml_dtypes.bfloat16)).result()  # chunk 2: fill
    f16 = ts_open(path, "f16", "zarr3", {"shape": [4], "data_type": "float16", "fill_value": 0, "chunk_grid": grid(4),
                                         "codecs": [{"name": "bytes", "configuration": {"endian": "big"}},
                                                    {"name": "crc32c"}]})
    f16[...].write(np.array([0.5, -65504, 6.1e-5, np.inf], dtype="f2")).result()
    i64 = ts_open(path, "i64", "zarr3", {
        "shape": [8], "data_type": "int64", "fill_value": -1, "chunk_grid": grid(8), "dimension_names": ["n"],
        "codecs": [{"name": "sharding_indexed", "configuration": {
            "chunk_shape": [2], "codecs": [{"name": "bytes", "configuration": {"endian": "big"}}],
            "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}]}}]})
    i64[0:2].write(np.array([2 ** 62, -2 ** 62], dtype="i8")).result()
    i64[6:8].write(np.array([7, 8], dtype="i8")).result()
    m = {"schema": SCHEMA, "name": "autumn_tensorstore_v3_types",
         "groups": {"/": {"dimensions": {"_zdim_5": 5, "_zdim_4": 4, "n": 8},
                          "attributes": {"title": {"type": "char", "value": "tensorstore zarr3 types"}}}},
         "variables": {}}
    for name, nct, dims in (("bf16", "float", ["/_zdim_5"]), ("f16", "float", ["/_zdim_4"]), ("i64", "int64", ["/n"])):
        t = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}, "path": name}).result()
        v = np.asarray(t.read().result())
        if v.dtype != np.int64:
            v = v.astype("f4")           # exact widening of bfloat16 and float16
        m["variables"]["/" + name] = {"type": nct, "dimensions": dims, "shape": list(v.shape), "attributes": {},
                                      "data": M.summarize(v, nct)}
    A.write_manifest(m, "autumn_tensorstore_v3_types")


def root_array():
    import tensorstore as ts
    path = A.fresh("tensorstore_root_array.zarr")
    shutil.rmtree(os.path.join(HERE, "bad", "tensorstore_root_array.zarr"), ignore_errors=True)
    for old in ("bad/tensorstore_root_array.expected.json",):
        if os.path.exists(os.path.join(HERE, old)):
            os.remove(os.path.join(HERE, old))
    a = ts_open(path, "", "zarr3", {
        "shape": [4], "data_type": "uint8", "fill_value": 0,
        "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4]}},
        "codecs": [{"name": "bytes"}]})
    a.write(np.arange(4, dtype="u1")).result()
    t = ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": path + "/"}}).result()
    v = np.asarray(t.read().result())
    m = {"schema": SCHEMA, "name": "autumn_tensorstore_root_array",
         "groups": {"/": {"dimensions": {"_zdim_4": 4}, "attributes": {}}},
         "variables": {"/tensorstore_root_array.zarr": {
             "type": "ubyte", "dimensions": ["/_zdim_4"], "shape": [4], "attributes": {},
             "data": M.summarize(v, "ubyte")}}}
    A.write_manifest(m, "autumn_tensorstore_root_array")


def main():
    if sys.argv[1:] == ["root_array"]:  # only the bare array (stop 31), leaving the other datasets as they are
        root_array()
        return
    tensorstore_v3()
    tensorstore_v2()
    tensorstore_v3_types()
    root_array()
    shutil.rmtree(os.path.join(HERE, "__pycache__"), ignore_errors=True)


if __name__ == "__main__":
    main()
