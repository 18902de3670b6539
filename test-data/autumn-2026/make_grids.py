#!/usr/bin/env python3
"""Issue 22, grids and raw bytes: stores with the zarr-extensions `rectilinear` chunk grid and raw-bytes
data types, with expected manifests (`zarr-conformance-manifest/1`) from zarr-python's own reader. Same
venv and pinned requirements as make.py (requirements.txt):

    /work/venvs/autumn/bin/python test-data/autumn-2026/make_grids.py

Deterministic (fixed values, no randomness). Datasets (INDEX.json lists them):

* zarr342_rectilinear.zarr  zarr-python 3.4.2 with `zarr.config.set({"array.rectilinear_chunks": True})`
                        (the grid is experimental there): /a float32 edges [[2, 3], 6] x [3, 4], resized from
                        12 to 10 rows so the last edge runs past the shape, never-written chunks; /b int16
                        sharded with a rectilinear outer grid [4, 8, 4] x [[6, 2]] and regular inner chunks
                        (2, 3), one shard never written; /c uint8 run-length edges [[3, 5], 5]; /d float64
                        edges [1, 4] x [2, 3, 4]; /d2 float64 written with edges [[4, 3]] over 12 columns, resized to 9, its
                        zarr.json then rewritten with the bare-integer step 4 on that axis (same chunks; zarr-python
                        reads it back).
* zarr342_sharded_types.zarr  `struct` (zarr-python 3.4.2) and `bfloat16` (zarr-python's uint16 shards relabelled,
                        expected from ml_dtypes) inside `sharding_indexed`, missing shards and an empty inner chunk.
* zarr342_raw.zarr      zarr-python 3.4.2's `raw_bytes` data type (numpy `|V3`, what it writes for void
                        dtypes; it writes no `r<N>`) with a base64 fill_value and a never-written chunk, and
                        a hand-written `r24` twin of it (zarr-extensions `r*`: fill_value a list of byte
                        values); both are opaque of 3 bytes (SCHEMA's opaque form: count + sha256).
"""
import hashlib
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import make as A  # noqa: E402

SCHEMA = A.SCHEMA


def zarr342_rectilinear():
    import zarr
    zarr.config.set({"array.rectilinear_chunks": True})
    path = A.fresh("zarr342_rectilinear.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs["title"] = "rectilinear chunk grids written by zarr-python 3.4.2"
    a = root.create_array("a", shape=(12, 7), chunks=[[2, 2, 2, 6], [3, 4]], dtype="float32", fill_value=-9.0,
                          dimension_names=["y", "x"])
    a[0:6, :] = np.arange(42, dtype="f4").reshape(6, 7) * 0.5
    a.resize((10, 7))                                  # edges keep summing to 12: the last runs past the shape
    a[8:10, 3:7] = np.array([[100, 101, 102, 103], [104, 105, 106, 107]], dtype="f4")
    b = root.create_array("b", shape=(16, 12), shards=[[4, 8, 4], [6, 6]], chunks=(2, 3), dtype="int16",
                          fill_value=-1, dimension_names=["y2", "x2"])
    v = (np.arange(192, dtype="i2").reshape(16, 12) * 7 - 300).astype("i2")
    b[0:12, :] = v[0:12, :]
    b[12:16, 0:6] = v[12:16, 0:6]                      # shard (2, 1) never written
    b[4:6, 6:9] = -1                                   # an inner chunk of fill values: not stored
    c = root.create_array("c", shape=(20,), chunks=[[3] * 5 + [5]], dtype="uint8", fill_value=1,
                          dimension_names=["n"])
    c[0:9] = np.arange(9, dtype="u1") * 3 + 10
    c[15:20] = 250
    d = root.create_array("d", shape=(5, 9), chunks=[[1, 4], [2, 3, 4]], dtype="float64", fill_value="NaN",
                          dimension_names=["p", "q"])
    d[...] = np.arange(45, dtype="f8").reshape(5, 9) / 8.0
    d[0, 0] = np.inf
    # a bare integer step on axis q (zarr-extensions: "an integer: regular chunks of that size"), as another
    # writer may spell it; zarr-python reads it back (RectilinearChunkGridMetadata keeps bare ints)
    meta_path = os.path.join(path, "d", "zarr.json")
    with open(meta_path, encoding="utf-8") as f:
        meta = json.load(f)
    assert meta["chunk_grid"]["configuration"]["chunk_shapes"][1] == [2, 3, 4]
    d2 = root.create_array("d2", shape=(5, 12), chunks=[[1, 4], [4, 4, 4]], dtype="float64", fill_value="NaN",
                           dimension_names=["p", "q2"])
    d2.resize((5, 9))                                  # q edges [4, 4, 4]: the last runs past the shape
    d2[...] = np.arange(45, dtype="f8").reshape(5, 9) * -2.0
    with open(os.path.join(path, "d2", "zarr.json"), encoding="utf-8") as f:
        meta2 = json.load(f)
    meta2["chunk_grid"]["configuration"]["chunk_shapes"][1] = 4
    with open(os.path.join(path, "d2", "zarr.json"), "w", encoding="utf-8") as f:
        json.dump(meta2, f, indent=2)
    zarr.consolidate_metadata(path)
    for name in ("a", "b", "c", "d", "d2"):
        print(name, json.dumps(zarr.open_array(path, path=name).metadata.to_dict()["chunk_grid"]))
    A.write_manifest(A.v3_manifest(path, "autumn_zarr342_rectilinear"), "autumn_zarr342_rectilinear")


def opaque_summary(values):
    """SCHEMA's opaque data: count and sha256 over each element's 4-byte big-endian length and bytes."""
    h = hashlib.sha256()
    for v in values:
        h.update(len(v).to_bytes(4, "big"))
        h.update(v)
    return {"count": len(values), "sha256": h.hexdigest()}


def zarr342_raw():
    import zarr
    path = A.fresh("zarr342_raw.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    a = root.create_array("raw", shape=(6,), chunks=(4,), dtype=np.dtype("V3"),
                          fill_value=np.void(b"\x01\x02\x03"), dimension_names=["n"],
                          attributes={"long_name": "three raw bytes"})
    a[0:4] = np.frombuffer(bytes(range(200, 212)), dtype="V3")    # chunk 1 never written: the fill value
    values = [bytes(x.tobytes()) for x in a[...]]
    # the zarr-extensions r* spelling of the same array, hand-written: same chunks, fill as byte values
    meta = a.metadata.to_dict()
    assert meta["data_type"] == {"name": "raw_bytes", "configuration": {"length_bytes": 3}}, meta["data_type"]
    meta["data_type"] = "r24"
    meta["fill_value"] = [1, 2, 3]
    # consolidated (a plain HTTP server cannot list): zarr-python consolidates raw, r24 is added by hand
    zarr.consolidate_metadata(path)
    rdir = os.path.join(path, "r24")
    shutil.copytree(os.path.join(path, "raw"), rdir)
    with open(os.path.join(rdir, "zarr.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
        root_meta = json.load(f)
    root_meta["consolidated_metadata"]["metadata"]["r24"] = meta
    with open(os.path.join(path, "zarr.json"), "w", encoding="utf-8") as f:
        json.dump(root_meta, f, indent=2)
    m = {"schema": SCHEMA, "name": "autumn_zarr342_raw",
         "groups": {"/": {"dimensions": {"n": 6}, "attributes": {}}},
         "variables": {}}
    for name in ("raw", "r24"):
        m["variables"]["/" + name] = {
            "type": "opaque", "dimensions": ["/n"], "shape": [6],
            "attributes": {"long_name": {"type": "char", "value": "three raw bytes"}},
            "data": opaque_summary(values)}
    A.write_manifest(m, "autumn_zarr342_raw")


def zarr342_sharded_types():
    """struct and bfloat16 inside sharding_indexed. struct: zarr-python 3.4.2 writes and reads it. bfloat16:
    zarr-python 3.4.2 has no such type, so the same bits are written as uint16 by zarr-python (the shard layout,
    index and crc32c are its own), then zarr.json says bfloat16 (fill 0x7fc0 = NaN); expected = ml_dtypes'
    float32 widening of those bits."""
    import ml_dtypes
    import zarr
    import make_codecs as C
    path = A.fresh("zarr342_sharded_types.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    dt = np.dtype([("id", "<i4"), ("t", "<f8"), ("ok", "?")])
    fill = np.array([(-1, -9.5, True)], dtype=dt)[0]
    a = root.create_array("rec", shape=(10,), shards=(4,), chunks=(2,), dtype=dt, fill_value=fill,
                          dimension_names=["n"])
    a[0:6] = np.array([(i * 3 - 5, i / 4.0, i % 2 == 0) for i in range(6)], dt)   # shard 2 never written
    a[2:4] = fill                                      # an inner chunk of fill values: not stored
    bf = (np.arange(24, dtype="f4").reshape(4, 6) * 1.5 - 7.0).astype(ml_dtypes.bfloat16)
    bf[1, 2] = np.nan
    bits = bf.view("<u2")
    b = root.create_array("bf16", shape=(6, 6), shards=(4, 6), chunks=(2, 3), dtype="uint16", fill_value=0x7fc0,
                          dimension_names=["y", "x"])
    b[0:4, :] = bits                                   # shard (1, 0) never written: NaN
    zarr.consolidate_metadata(path)    # before the relabelling: zarr-python cannot parse bfloat16
    zj = os.path.join(path, "bf16", "zarr.json")
    with open(zj, encoding="utf-8") as f:
        meta = json.load(f)
    meta["data_type"] = "bfloat16"
    meta["fill_value"] = "0x7fc0"
    with open(zj, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
        root_meta = json.load(f)
    root_meta["consolidated_metadata"]["metadata"]["bf16"] = meta
    with open(os.path.join(path, "zarr.json"), "w", encoding="utf-8") as f:
        json.dump(root_meta, f, indent=2)
    r = zarr.open_array(path, path="rec", mode="r")
    m = {"schema": SCHEMA, "name": "autumn_zarr342_sharded_types",
         "groups": {"/": {"dimensions": {"n": 10, "y": 6, "x": 6}, "attributes": {}}}, "variables": {}}
    C._struct_vars(m, "/rec", np.asarray(r[...]), ["/n"])
    expect = np.full((6, 6), np.nan, "f4")
    expect[0:4, :] = bf.astype("f4")
    m["variables"]["/bf16"] = {"type": "float", "dimensions": ["/y", "/x"], "shape": [6, 6], "attributes": {},
                               "data": A.M.summarize(expect, "float")}
    A.write_manifest(m, "autumn_zarr342_sharded_types")


def main():
    zarr342_rectilinear()
    zarr342_raw()
    zarr342_sharded_types()


if __name__ == "__main__":
    main()
