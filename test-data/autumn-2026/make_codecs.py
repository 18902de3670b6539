#!/usr/bin/env python3
"""Issue 22, codecs: stores using zarr-extensions codecs, with expected manifests
(`zarr-conformance-manifest/1`) from the producer's reader. Same venv as make.py, plus the pinned
cast-value-rs (zarr-python 3.4.2's `cast_value` backend) and ml-dtypes in requirements.txt:

    /work/venvs/autumn/bin/python test-data/autumn-2026/make_codecs.py

Deterministic (fixed values, no randomness). Datasets (INDEX.json lists them):

* zarr342_codecs.zarr   zarr-python 3.4.2 writes and reads: `scale_offset` + `cast_value` (uint8,
                        clamp) on float32, `scale_offset` alone on int32 (exact division), `cast_value`
                        float64 -> float32, `cast_value` int32 -> int8 with `out_of_range: wrap`,
                        `numcodecs.bitround` (decode = identity) and a never-written chunk of each; shards whose
                        inner chunks are stored in `morton` and `colexicographic` order (`subchunk_write_order`).
* eopf_s2_like.zarr     zarr-python 3.4.2, laid out like ESA's Sentinel-2 L2A EOPF Zarr:
                        /measurements/reflectance/r10m/{b02,b03,b04} float64 reflectances stored as uint16
                        through `[scale_offset, cast_value]` *inside* `sharding_indexed` (scalar_map NaN <-> 0,
                        fill_value NaN, one shard never written), x/y coordinates, CF attributes and xarray's
                        base64 `_FillValue`. Expected: zarr-python reading it.
* zarr342_struct.zarr   zarr-python 3.4.2: `struct` data types (flat with a bool field and an object fill_value,
                        nested), and one rewritten to zarr-python 3.1's legacy `structured` spelling (read back
                        by zarr-python 3.4.2). Expected: SCHEMA's structure form from zarr-python's records.
* imagecodecs_v2.zarr   zarr-python 3.4.2 (Zarr v2) with imagecodecs 2026.10.10's numcodecs codecs
                        `imagecodecs_lzf` (with and without its size header), `imagecodecs_lz4h5` (one and several
                        blocks) and `imagecodecs_bz2`: the ids VirtualiZarr writes for HDF5's LZF, LZ4 and bzip2
                        filters. Expected: zarr-python reading it.
* ome_ngff_05.zarr      an OME-NGFF 0.5 image (Zarr v3; `ome` attributes with `version` 0.5, `multiscales`,
                        `omero`) of two levels, the full one sharded with blosc/zstd bitshuffle, written with
                        zarr-python 3.4.2 per the NGFF 0.5 layout. Expected: zarr-python reading it.
* handmade_types.zarr   hand-written with ml_dtypes/numpy (zarr-python 3.4.2 has none of these types): bfloat16
                        (hex NaN fill, a never-written chunk) read as float; float8_e4m3 and int4 arrays,
                        which no netCDF type holds, are left out (listed in `_unreadable_arrays`); r16 is opaque
                        of 2 bytes.
* handmade_codecs.zarr  hand-written (zarr-python 3.4.2 implements neither): `reshape` then `transpose`,
                        zarr-extensions `packbits` (array -> bytes, least significant bit first) of bool with
                        `padding_encoding: first_byte` and of int16 keeping bits 0..3 (sign-extended), written
                        with numpy per the zarr-extensions READMEs; expected = the numpy arrays written.
"""
import base64
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import make as A  # noqa: E402
import manifest as M  # noqa: E402

SCHEMA = A.SCHEMA


def v3_manifest_groups(path, name):
    """make.v3_manifest plus every subgroup (SCHEMA: v3 dimensions live in the root group)."""
    import zarr
    m = A.v3_manifest(path, name)
    root = zarr.open_group(store=path, mode="r")
    for p, node in sorted(root.members(max_depth=None), key=lambda kv: kv[0]):
        if isinstance(node, zarr.Group):
            m["groups"]["/" + p] = {"dimensions": {}, "attributes": {
                k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items()}}
    return m


def zarr342_codecs():
    import zarr
    from zarr.codecs import BytesCodec, CastValue, ScaleOffset, ZstdCodec
    from zarr.codecs.numcodecs import BitRound
    path = A.fresh("zarr342_codecs.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs["title"] = "zarr-extensions codecs written by zarr-python 3.4.2"
    a = root.create_array("so_u8", shape=(8,), chunks=(4,), dtype="float32", fill_value=-1.0,
                          filters=[ScaleOffset(offset=10, scale=10), CastValue(data_type="uint8", out_of_range="clamp")],
                          compressors=[ZstdCodec(level=3)], dimension_names=["n"])
    a[0:4] = np.array([10.0, 10.26, 35.5, 99.0], dtype="f4")     # 99 clamps to 255 -> 35.5
    b = root.create_array("so_i4", shape=(8,), chunks=(4,), dtype="int32", fill_value=7,
                          filters=[ScaleOffset(offset=5, scale=3)], dimension_names=["n"])
    b[4:8] = np.array([5, -100, 2000000, 6], dtype="i4")
    c = root.create_array("cast_f4", shape=(8,), chunks=(4,), dtype="float64", fill_value="NaN",
                          filters=[CastValue(data_type="float32")], dimension_names=["n"])
    c[0:4] = np.array([0.1, 1.0 / 3, -2.5e10, np.inf])
    d = root.create_array("cast_wrap", shape=(8,), chunks=(4,), dtype="int32", fill_value=0,
                          filters=[CastValue(data_type="int8", out_of_range="wrap")], dimension_names=["n"])
    d[0:4] = np.array([1, 127, 128, -300], dtype="i4")
    e = root.create_array("bitround", shape=(8,), chunks=(4,), dtype="float32", fill_value=0.0,
                          filters=[BitRound(keepbits=5)], serializer=BytesCodec(endian="big"),
                          dimension_names=["n"])
    e[0:4] = np.array([3.14159, -2.71828, 1.0e-3, 12345.678], dtype="f4")
    # zarr-python 3.3+ stores inner chunks in morton order by default; "colexicographic" is column-major: a reader
    # must take each inner chunk's place from the index (and coalesce ranges by byte offset)
    from zarr.codecs import ShardingCodec
    grid = (np.arange(16 * 16, dtype="i4").reshape(16, 16) * 13) % 1000 - 300
    for order in ("morton", "colexicographic"):
        s = root.create_array("shard_" + order, shape=(16, 16), chunks=(16, 16), dtype="int32", fill_value=-1,
                              serializer=ShardingCodec(chunk_shape=(4, 4), codecs=[BytesCodec(), ZstdCodec(level=1)],
                                                       subchunk_write_order=order),
                              compressors=None, dimension_names=["r", "c"])
        s[...] = grid
        s[0:4, 12:16] = -1     # an empty inner chunk: not stored
    zarr.consolidate_metadata(path)
    A.write_manifest(A.v3_manifest(path, "autumn_zarr342_codecs"), "autumn_zarr342_codecs")


def eopf_s2_like():
    import zarr
    from zarr.codecs import CastValue, ScaleOffset, ZstdCodec
    path = A.fresh("eopf_s2_like.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    root.attrs.update({"Conventions": "CF-1.10", "title": "Sentinel-2 L2A EOPF-like product (synthetic)",
                       "product_type": "S02MSIL2A"})
    r10m = root.create_group("measurements").create_group("reflectance").create_group("r10m")
    ny, nx = 64, 48
    y = r10m.create_array("y", shape=(ny,), chunks=(ny,), dtype="float64", fill_value="NaN",
                          dimension_names=["y"], attributes={"standard_name": "projection_y_coordinate",
                                                             "units": "m"})
    y[:] = 5000040.0 - 10.0 * np.arange(ny)
    x = r10m.create_array("x", shape=(nx,), chunks=(nx,), dtype="float64", fill_value="NaN",
                          dimension_names=["x"], attributes={"standard_name": "projection_x_coordinate",
                                                             "units": "m"})
    x[:] = 600000.0 + 10.0 * np.arange(nx)
    nan_b64 = base64.b64encode(np.array([np.nan], "<f8").tobytes()).decode()
    yy, xx = np.meshgrid(np.arange(ny), np.arange(nx), indexing="ij")
    for k, band in enumerate(["b02", "b03", "b04"]):
        arr = r10m.create_array(
            band, shape=(ny, nx), shards=(32, 24), chunks=(16, 12), dtype="float64", fill_value="NaN",
            filters=[ScaleOffset(offset=-0.1, scale=10000),
                     CastValue(data_type="uint16", rounding="nearest-even", out_of_range="clamp",
                               scalar_map={"encode": [("NaN", 0)], "decode": [(0, "NaN")]})],
            compressors=[ZstdCodec(level=3)], dimension_names=["y", "x"],
            attributes={"long_name": "TOA-corrected reflectance band %s" % band[1:], "units": "1",
                        "standard_name": "surface_bidirectional_reflectance", "_FillValue": nan_b64,
                        "coordinates": "y x", "valid_min": 1, "valid_max": 65535})
        refl = ((yy * 37 + xx * 11 + k * 101) % 9000) / 10000.0 + 0.0123
        refl[3, 5] = np.nan                     # stored as 0 through the scalar map
        refl[10, 10:14] = 0.95 + 0.0001 * k     # bright pixels
        arr[0:32, :] = refl[0:32, :]            # shards (1, *) never written: fill NaN
        arr[32:64, 0:24] = refl[32:64, 0:24]
    zarr.consolidate_metadata(path)
    A.write_manifest(v3_manifest_groups(path, "autumn_eopf_s2_like"), "autumn_eopf_s2_like")


def _zarr_json(path, meta):
    os.makedirs(path, exist_ok=True)
    with open(os.path.join(path, "zarr.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=1)


def _chunk(path, key, data):
    p = os.path.join(path, *key.split("/"))
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "wb") as f:
        f.write(data)


def _array_meta(shape, chunks, dtype, fill, codecs, dims):
    return {"zarr_format": 3, "node_type": "array", "shape": list(shape), "data_type": dtype,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(chunks)}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "fill_value": fill, "codecs": codecs, "attributes": {}, "dimension_names": dims}


def _packbits_lsb(bits_per_value, values, first_bit=0):
    """zarr-extensions packbits: each value's bits first_bit.. in a bit stream, least significant first."""
    stream = []
    for v in values:
        u = int(v) >> first_bit
        stream.extend((u >> k) & 1 for k in range(bits_per_value))
    pad = (-len(stream)) % 8
    stream.extend([0] * pad)
    return np.packbits(np.array(stream, dtype="u1"), bitorder="little").tobytes(), pad


def handmade_codecs():
    path = A.fresh("handmade_codecs.zarr")
    _zarr_json(path, {"zarr_format": 3, "node_type": "group",
                      "attributes": {"title": "reshape and packbits, hand-written per zarr-extensions"}})
    m = {"schema": SCHEMA, "name": "autumn_handmade_codecs",
         "groups": {"/": {"dimensions": {"y": 4, "x": 6}, "attributes": {
             "title": M.infer_zarr_attr("reshape and packbits, hand-written per zarr-extensions")}}},
         "variables": {}}
    # a (2, 3) chunk reshaped to (3, 2), then transposed (order [1, 0]) to (2, 3): stored = reshape(3, 2).T
    full = (np.arange(24, dtype="<i2").reshape(4, 6) * 7 - 50)
    rs = os.path.join(path, "reshaped")
    _zarr_json(rs, _array_meta((4, 6), (2, 3), "int16", 0, [
        {"name": "reshape", "configuration": {"shape": [3, -1]}},
        {"name": "transpose", "configuration": {"order": [1, 0]}},
        {"name": "bytes", "configuration": {"endian": "little"}}], ["y", "x"]))
    for i in range(2):
        for j in range(2):
            block = full[2 * i:2 * i + 2, 3 * j:3 * j + 3]      # (2, 3)
            stored = np.ascontiguousarray(block.reshape(3, 2).T)
            _chunk(rs, "c/%d/%d" % (i, j), stored.astype("<i2").tobytes())
    m["variables"]["/reshaped"] = {"type": "short", "dimensions": ["/y", "/x"], "shape": [4, 6],
                                   "attributes": {}, "data": M.summarize(full, "short")}
    # packbits of bool, numcodecs-compatible padding byte first; chunk (1, *) never written (fill true)
    mask = ((np.arange(24).reshape(4, 6) * 5) % 3 == 0)
    pb = os.path.join(path, "mask")
    _zarr_json(pb, _array_meta((4, 6), (2, 6), "bool", True, [
        {"name": "packbits", "configuration": {"padding_encoding": "first_byte"}}], ["y", "x"]))
    data, pad = _packbits_lsb(1, mask[0:2].reshape(-1))
    _chunk(pb, "c/0/0", bytes([pad]) + data)
    expect = mask.copy()
    expect[2:4] = True
    m["variables"]["/mask"] = {"type": "ubyte", "dimensions": ["/y", "/x"], "shape": [4, 6], "attributes": {},
                               "data": M.summarize(expect.astype("u1"), "ubyte")}
    # int16 keeping bits 0..3: values -8..7 in 4 bits, sign-extended when decoding
    nib = ((np.arange(24).reshape(4, 6) * 3) % 16 - 8).astype("<i2")
    pn = os.path.join(path, "nibbles")
    _zarr_json(pn, _array_meta((4, 6), (4, 6), "int16", 0, [
        {"name": "packbits", "configuration": {"first_bit": 0, "last_bit": 3}}], ["y", "x"]))
    data, _ = _packbits_lsb(4, (nib.reshape(-1).astype(np.int64) & 0xF))
    _chunk(pn, "c/0/0", data)
    m["variables"]["/nibbles"] = {"type": "short", "dimensions": ["/y", "/x"], "shape": [4, 6],
                                  "attributes": {}, "data": M.summarize(nib, "short")}
    # consolidated inline, as zarr-python writes it (a plain HTTP server cannot list)
    with open(os.path.join(path, "zarr.json"), encoding="utf-8") as f:
        root = json.load(f)
    members = {}
    for name in ("mask", "nibbles", "reshaped"):
        with open(os.path.join(path, name, "zarr.json"), encoding="utf-8") as f:
            members[name] = json.load(f)
    root["consolidated_metadata"] = {"kind": "inline", "must_understand": False, "metadata": members}
    _zarr_json(path, root)
    A.write_manifest(m, "autumn_handmade_codecs")


NP_NC = {"i1": "byte", "u1": "ubyte", "i2": "short", "u2": "ushort", "i4": "int", "u4": "uint", "i8": "int64",
         "u8": "uint64", "f4": "float", "f8": "double", "b1": "ubyte"}


def _struct_vars(m, path, values, dims):
    """SCHEMA's structure form: the record variable, then one variable per leaf member."""
    m["variables"][path] = {"type": "structure", "dimensions": dims, "shape": list(values.shape),
                            "attributes": {}, "data": {"count": int(values.size)}}

    def leaves(dt, prefix, arr):
        for name in dt.names:
            sub = arr[name]
            if sub.dtype.names:
                leaves(sub.dtype, prefix + "." + name, sub)
            else:
                nct = NP_NC[sub.dtype.str[1:]]
                m["variables"][prefix + "." + name] = {
                    "type": nct, "dimensions": dims, "shape": list(values.shape), "attributes": {},
                    "data": M.summarize(sub.astype("u1") if sub.dtype.kind == "b" else sub, nct)}
    leaves(values.dtype, path, values)


def zarr342_struct():
    """zarr-python 3.4.2 `struct` (canonical), nested, and the legacy `structured` spelling."""
    import zarr
    path = A.fresh("zarr342_struct.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    dt = np.dtype([("id", "<i4"), ("t", "<f8"), ("c", "<u2"), ("ok", "?")])
    fill = np.array([(-1, -9.5, 7, True)], dtype=dt)[0]
    a = root.create_array("rec", shape=(5,), chunks=(2,), dtype=dt, fill_value=fill, dimension_names=["n"])
    a[0:4] = np.array([(1, 1.5, 3, False), (2, -2.5, 4, True), (3, 0.0, 65535, False), (4, 1e10, 0, True)], dt)
    nd = np.dtype([("p", "<i2"), ("q", [("x", "<f4"), ("y", "u1")])])
    b = root.create_array("nested", shape=(3,), chunks=(3,), dtype=nd, dimension_names=["k"])
    b[...] = np.array([(1, (0.5, 7)), (-2, (1.25, 8)), (300, (-3.0, 255))], nd)
    c = root.create_array("legacy", shape=(3,), chunks=(2,), dtype=np.dtype([("a", "<u4"), ("b", "<f4")]),
                          dimension_names=["k"])
    c[0:2] = np.array([(4000000000, 0.25), (5, -1.0)], c.dtype)
    # zarr-python 3.1 wrote structs as {"name": "structured", "configuration": {"fields": [[name, type]]}}
    zj = os.path.join(path, "legacy", "zarr.json")
    with open(zj, encoding="utf-8") as f:
        meta = json.load(f)
    meta["data_type"] = {"name": "structured", "configuration": {
        "fields": [[f["name"], f["data_type"]] for f in meta["data_type"]["configuration"]["fields"]]}}
    meta["fill_value"] = base64.b64encode(bytes(8)).decode()
    with open(zj, "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    zarr.consolidate_metadata(path)
    r = zarr.open_group(path, mode="r")
    m = {"schema": SCHEMA, "name": "autumn_zarr342_struct",
         "groups": {"/": {"dimensions": {"n": 5, "k": 3}, "attributes": {}}}, "variables": {}}
    for name, dims in (("rec", ["/n"]), ("nested", ["/k"]), ("legacy", ["/k"])):
        _struct_vars(m, "/" + name, np.asarray(r[name][...]), dims)
    A.write_manifest(m, "autumn_zarr342_struct")


def _opaque_summary(values):
    """SCHEMA's opaque data: count and sha256 over each element's 4-byte big-endian length and bytes."""
    import hashlib
    h = hashlib.sha256()
    for v in values:
        h.update(len(v).to_bytes(4, "big") + v)
    return {"count": len(values), "sha256": h.hexdigest()}


def handmade_types():
    """bfloat16 (exact widening) and types no netCDF type holds (float8, int4, raw bits), written with
    ml_dtypes/numpy: zarr-python 3.4.2 has none of these data types. Expected: ml_dtypes' float32 values."""
    import ml_dtypes
    path = A.fresh("handmade_types.zarr")
    _zarr_json(path, {"zarr_format": 3, "node_type": "group", "attributes": {}})
    bf = np.array([1.0, -2.5, 3.140625, 1e30, -0.0, np.inf], dtype=ml_dtypes.bfloat16)
    b = os.path.join(path, "bf16")
    _zarr_json(b, _array_meta((9,), (3,), "bfloat16", "0x7fc0", [
        {"name": "bytes", "configuration": {"endian": "little"}}], ["n"]))
    _chunk(b, "c/0", bf[0:3].tobytes())
    _chunk(b, "c/1", bf[3:6].tobytes())              # chunk 2 never written: fill NaN (0x7fc0)
    expect = np.concatenate([bf.astype("f4"), np.full(3, np.nan, "f4")])
    others = {"f8e4m3": ("float8_e4m3", np.array([1, 2, 3], ml_dtypes.float8_e4m3fn).tobytes()),
              "nib": ("int4", bytes([1, 2, 3])), "raw": ("r16", bytes(6))}
    for name, (dt, data) in others.items():
        o = os.path.join(path, name)
        _zarr_json(o, _array_meta((3,), (3,), dt, 0, [{"name": "bytes"}], ["n3"]))
        _chunk(o, "c/0", data)
    root = {"zarr_format": 3, "node_type": "group", "attributes": {}}
    members = {}
    for name in ["bf16"] + list(others):
        with open(os.path.join(path, name, "zarr.json"), encoding="utf-8") as f:
            members[name] = json.load(f)
    root["consolidated_metadata"] = {"kind": "inline", "must_understand": False, "metadata": members}
    _zarr_json(path, root)
    m = {"schema": SCHEMA, "name": "autumn_handmade_types",
         "groups": {"/": {"dimensions": {"n": 9, "n3": 3}, "attributes": {}}},
         "variables": {"/bf16": {"type": "float", "dimensions": ["/n"], "shape": [9], "attributes": {},
                                 "data": M.summarize(expect, "float")},
                       # r16 (make_grids.py's issue 22 step): opaque of 2 bytes, SCHEMA's opaque form
                       "/raw": {"type": "opaque", "dimensions": ["/n3"], "shape": [3], "attributes": {},
                                "data": _opaque_summary([bytes(2)] * 3)}}}
    A.write_manifest(m, "autumn_handmade_types")


def imagecodecs_v2():
    """Zarr v2 chunks compressed with the imagecodecs ids VirtualiZarr gives HDF5's LZF, LZ4 and bzip2
    filters (virtualizarr/parsers/hdf/filters.py), written and read back by zarr-python 3.4.2 with
    imagecodecs' numcodecs codecs."""
    import zarr
    from imagecodecs.numcodecs import Bz2, Lz4h5, Lzf, register_codecs
    register_codecs()    # reading back needs them in numcodecs' registry
    path = A.fresh("imagecodecs_v2.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=2)
    root.attrs["title"] = "VirtualiZarr's HDF5 codecs"
    data = ((np.arange(40 * 50, dtype="f4").reshape(40, 50) % 97) * 0.25 - 3.0)
    data[::7, ::3] = 0.0
    codecs = {"lzf": Lzf(), "lzf_raw": Lzf(header=False), "lz4h5": Lz4h5(), "lz4h5_blocks": Lz4h5(blocksize=512),
              "bz2": Bz2(level=9)}
    m = {"schema": SCHEMA, "name": "autumn_imagecodecs_v2",
         "groups": {"/": {"dimensions": {"y": 40, "x": 50},
                          "attributes": {"title": M.infer_zarr_attr("VirtualiZarr's HDF5 codecs")}}},
         "variables": {}}
    for k, (name, codec) in enumerate(codecs.items()):
        a = root.create_array(name, shape=data.shape, chunks=(20, 25), dtype="f4", fill_value=None,
                              compressors=codec, attributes={"_ARRAY_DIMENSIONS": ["y", "x"]})
        a[...] = data + k
    zarr.consolidate_metadata(path)
    r = zarr.open_group(path, mode="r")
    for name in codecs:
        m["variables"]["/" + name] = {"type": "float", "dimensions": ["/y", "/x"], "shape": [40, 50],
                                      "attributes": {}, "data": M.summarize(np.asarray(r[name][...]), "float")}
    A.write_manifest(m, "autumn_imagecodecs_v2")


def ome_ngff_05():
    """An OME-NGFF 0.5 image (Zarr v3, `ome` attributes, multiscales of two levels, sharded full
    resolution), written with zarr-python 3.4.2 per the NGFF 0.5 layout by hand (no ome-zarr writer)."""
    import zarr
    from zarr.codecs import BloscCodec
    path = A.fresh("ome_ngff_05.zarr")
    axes = [{"name": "c", "type": "channel"}, {"name": "y", "type": "space", "unit": "micrometer"},
            {"name": "x", "type": "space", "unit": "micrometer"}]
    ome = {"version": "0.5", "multiscales": [{
        "name": "synthetic", "axes": axes,
        "datasets": [{"path": "0", "coordinateTransformations": [{"type": "scale", "scale": [1.0, 0.5, 0.5]}]},
                     {"path": "1", "coordinateTransformations": [{"type": "scale", "scale": [1.0, 1.0, 1.0]}]}]}],
        "omero": {"channels": [{"label": "DAPI", "color": "0000FF", "window": {"start": 0, "end": 4095,
                                                                             "min": 0, "max": 65535}},
                               {"label": "GFP", "color": "00FF00", "window": {"start": 0, "end": 4095,
                                                                            "min": 0, "max": 65535}}]}}
    root = zarr.open_group(path, mode="w", zarr_format=3, attributes={"ome": ome})
    img = ((np.arange(2 * 32 * 48, dtype="u2").reshape(2, 32, 48) * 37) % 4096).astype("u2")
    a0 = root.create_array("0", shape=img.shape, shards=(1, 32, 48), chunks=(1, 16, 16), dtype="uint16",
                           fill_value=0, compressors=[BloscCodec(cname="zstd", clevel=5, shuffle="bitshuffle")],
                           dimension_names=["c", "y", "x"])
    a0[...] = img
    half = img.reshape(2, 16, 2, 24, 2).mean(axis=(2, 4)).astype("u2")
    a1 = root.create_array("1", shape=half.shape, chunks=(1, 16, 24), dtype="uint16", fill_value=0,
                           dimension_names=["c", "y1", "x1"])
    a1[...] = half
    zarr.consolidate_metadata(path)
    A.write_manifest(A.v3_manifest(path, "autumn_ome_ngff_05"), "autumn_ome_ngff_05")


def main():
    ome_ngff_05()
    imagecodecs_v2()
    handmade_types()
    zarr342_struct()
    zarr342_codecs()
    eopf_s2_like()
    handmade_codecs()


if __name__ == "__main__":
    main()
