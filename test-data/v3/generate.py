#!/usr/bin/env python3
"""Regenerate nczarr-java's Zarr v3 test data and expected manifests (test-data/v3/).

    python3 -m venv /tmp/v3venv && /tmp/v3venv/bin/pip install -r test-data/requirements-v3.txt
    /tmp/v3venv/bin/python test-data/v3/generate.py [--no-verify]

Writes small Zarr v3 stores with zarr-python 3.1, xarray and tensorstore, hand-written NCZarr-over-v3
stores (netcdf-c draft), bad inputs under bad/, one NAME.expected.json per dataset
(`zarr-conformance-manifest/1`, /work/shared/conformance/SCHEMA.md) and INDEX.json.

Expected manifests of pure Zarr v3 stores are made from zarr-python 3 reading the store (listing, not
consolidated metadata); they are cross-checked against zarr-python reading the consolidated metadata,
tensorstore reading the same arrays (where it can) and xarray (CF dataset). NCZarr-over-v3 manifests are
computed in this script from the values it writes. Nothing here uses the Java reader.

The value summaries (sha256, min/max/sum, head) and the pure-Zarr attribute typing come from
../manifest.py (the same code that made the v2 expected manifests). Generation is deterministic: fixed
seeds, gzip MTIME 0, zip entries written in sorted order with a fixed date.
"""
import argparse
import base64
import gzip
import io
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import types
import warnings
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TESTDATA = os.path.dirname(HERE)
sys.path.insert(0, TESTDATA)
sys.dont_write_bytecode = True
import manifest as M  # noqa: E402  (value summaries and pure-Zarr attribute typing, shared with v2)
sys.path.insert(0, os.path.join(TESTDATA, "dtypes"))
import structures  # noqa: E402  (manifest rules for records: complex numbers as structures {real, imag})

warnings.filterwarnings("ignore")  # zarr-python warns that numcodecs.* / string dtypes are not in the spec

import crc32c as _crc32c  # noqa: E402
import numcodecs  # noqa: E402
import numcodecs.gzip as _ncgzip  # noqa: E402
import zarr  # noqa: E402
import zarr.codecs.numcodecs as nz  # noqa: E402
from zarr.codecs import (BloscCodec, BytesCodec, Crc32cCodec, GzipCodec, ShardingCodec,  # noqa: E402
                         TransposeCodec, ZstdCodec)
from zarr.core.chunk_key_encodings import DefaultChunkKeyEncoding, V2ChunkKeyEncoding  # noqa: E402
from zarr.core.dtype import VariableLengthBytes  # noqa: E402

try:
    import tensorstore as ts
    TS_ERROR = None
except Exception as e:  # pragma: no cover - tensorstore is optional
    ts, TS_ERROR = None, "%s: %s" % (type(e).__name__, e)

COMPARE = "/work/shared/conformance/compare.py"
SCHEMA = "zarr-conformance-manifest/1"
FIXED_DATE = (2020, 1, 1, 0, 0, 0)
SEED = 20261101

# Light on the shared 2-core machine; output does not depend on these.
zarr.config.set({"async.concurrency": 2, "threading.max_workers": 1})
numcodecs.blosc.use_threads = False


# ----------------------------------------------------------------------------------------------
# Determinism
# ----------------------------------------------------------------------------------------------
class _GzipFileMtime0(gzip.GzipFile):
    """numcodecs' GZip (behind zarr's `gzip` and `numcodecs.gzip`) writes the current time into the gzip
    header; force MTIME 0 so regeneration is byte-identical."""

    def __init__(self, *args, **kw):
        kw.setdefault("mtime", 0)
        super().__init__(*args, **kw)


_ncgzip._gzip = types.SimpleNamespace(GzipFile=_GzipFileMtime0)


class _FixedTime:
    """Stand-in for the `time` module inside zarr.storage._zip: every zip entry gets FIXED_DATE."""

    @staticmethod
    def time():
        return 0.0

    @staticmethod
    def localtime(_t=None):
        return FIXED_DATE + (0, 1, 0)


import zarr.storage._zip as _zarr_zip  # noqa: E402

_zarr_zip.time = _FixedTime


def versions():
    import importlib.metadata as md
    out = {"python": "%d.%d.%d" % sys.version_info[:3]}
    for p in ("zarr", "numcodecs", "numpy", "xarray", "pandas", "tensorstore", "crc32c"):
        try:
            out[p] = md.version(p)
        except md.PackageNotFoundError:
            out[p] = None
    return out


VERSIONS = versions()


def here(*p):
    return os.path.join(HERE, *p)


def rng(k):
    return np.random.default_rng(SEED + k)


def fresh(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


KEEP = {"generate.py", "README.md"}


def clean():
    """Everything in test-data/v3 except the sources is generated: remove it all first, so a renamed or
    dropped dataset leaves nothing stale behind."""
    for n in os.listdir(HERE):
        if n not in KEEP:
            fresh(os.path.join(HERE, n))


def jdump(obj, path, indent=2):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(obj, f, indent=indent, ensure_ascii=False)
        f.write("\n")


def jload(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def write_manifest(m, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1, sort_keys=True, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def crc32c_le(data):
    return struct.pack("<I", _crc32c.crc32c(bytes(data)))


# ----------------------------------------------------------------------------------------------
# Manifests of pure Zarr v3 stores, read with zarr-python 3 (SCHEMA.md "Zarr v3")
# ----------------------------------------------------------------------------------------------
V3_TYPES = {"bool": "ubyte", "int8": "byte", "uint8": "ubyte", "int16": "short", "uint16": "ushort",
            "int32": "int", "uint32": "uint", "int64": "int64", "uint64": "uint64",
            "float16": "float", "float32": "float", "float64": "double", "string": "string"}


def dtype_name(arr):
    dt = arr.metadata.to_dict()["data_type"]
    return dt if isinstance(dt, str) else dt["name"]


def fill_attr(attrs, arr, nct):
    """The reported _FillValue (SCHEMA: Zarr v3, changed 2026-11-25): the _FillValue attribute when
    present and not null (a string is xarray's base64 of little-endian bytes; 8 bytes on a float array =
    float64); else only a NaT fill_value of a datetime64/timedelta64 array. Never for string arrays."""
    if nct in ("string", "char"):
        return None
    fv = attrs.get("_FillValue")
    if fv is not None:
        if isinstance(fv, str):
            raw = base64.b64decode(fv, validate=True)
            npdt = np.dtype(arr.dtype)
            if npdt.kind == "f" and len(raw) == 8:
                val = struct.unpack("<d", raw)[0]
            elif len(raw) == npdt.itemsize:
                val = np.frombuffer(raw, dtype=npdt.newbyteorder("<"))[0]
            else:
                raise ValueError("_FillValue %r does not fit %s" % (fv, npdt))
        else:
            val = fv
    else:
        val = arr.metadata.fill_value
        if val is None or np.dtype(arr.dtype).kind not in "mM" or not np.isnat(val):
            return None
        val = -9223372036854775808
    return M.attr_entry(nct, M.typed_values([val], nct))


def json_safe(v):
    """Values of an array with no netCDF rule (complex, bytes) as plain JSON, for information only."""
    if isinstance(v, (bytes, np.bytes_)):
        return "base64:" + base64.b64encode(bytes(v)).decode()
    if isinstance(v, (complex, np.complexfloating)):
        return [M.enc_double(v.real), M.enc_double(v.imag)]
    if isinstance(v, (float, np.floating)):
        return M.enc_double(v)
    if isinstance(v, (np.integer,)):
        return int(v)
    return v


def pure_manifest(store, name, use_consolidated=False):
    """Manifest of a pure Zarr v3 store (a path or a zarr Store) read with zarr-python 3."""
    root = zarr.open_group(store=store, mode="r", use_consolidated=use_consolidated)
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    members = sorted(root.members(max_depth=None), key=lambda kv: kv[0])

    def gattrs(g):
        return {k: M.infer_zarr_attr(v) for k, v in g.attrs.asdict().items() if not M.is_hidden(k)}

    m["groups"]["/"] = {"dimensions": {}, "attributes": gattrs(root)}
    for path, node in members:
        if isinstance(node, zarr.Group):
            m["groups"]["/" + path] = {"dimensions": {}, "attributes": gattrs(node)}
    dims, unmapped, unmapped_dims = {}, {}, set()
    for path, node in members:
        if not isinstance(node, zarr.Array):
            continue
        md = node.metadata.to_dict()
        shape = [int(s) for s in node.shape]
        dn = md.get("dimension_names") or [None] * len(shape)
        names = [n if n is not None else "_zdim_%d" % s for n, s in zip(dn, shape)]
        values = node[...]
        nct = V3_TYPES.get(dtype_name(node))
        if dtype_name(node) in ("complex64", "complex128"):
            # issue 12: a structure {real, imag} (test-data/dtypes/structures.py has the manifest rules)
            for n, s in zip(names, shape):
                if dims.setdefault(n, s) != s:
                    raise ValueError("dimension %s has lengths %d and %d" % (n, dims[n], s))
            attrs = {k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items()
                     if not M.is_hidden(k) and k != "_FillValue"}
            m["variables"].update(structures.entries("/" + path, np.asarray(values), ["/" + n for n in names], attrs))
            continue
        if dtype_name(node) == "variable_length_bytes":
            # issue 12: opaque, one byte string per element (test-data/dtypes/structures.py has the rule)
            for n, s in zip(names, shape):
                if dims.setdefault(n, s) != s:
                    raise ValueError("dimension %s has lengths %d and %d" % (n, dims[n], s))
            attrs = {k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items()
                     if not M.is_hidden(k) and k != "_FillValue"}
            m["variables"]["/" + path] = {"type": "opaque", "dimensions": ["/" + n for n in names], "shape": shape,
                                          "attributes": attrs,
                                          "data": structures.opaque_summary(np.asarray(values).reshape(-1).tolist())}
            continue
        if nct is None:
            unmapped["/" + path] = {
                "data_type": md["data_type"], "shape": shape, "dimension_names": md.get("dimension_names"),
                "fill_value": md["fill_value"] if not isinstance(md["fill_value"], bytes)
                else json_safe(md["fill_value"]),
                "values": [json_safe(x) for x in np.asarray(values).reshape(-1).tolist()]}
            unmapped_dims.update(zip(names, shape))
            continue
        for n, s in zip(names, shape):
            if dims.setdefault(n, s) != s:
                raise ValueError("dimension %s has lengths %d and %d" % (n, dims[n], s))
        attrs_raw = node.attrs.asdict()
        attrs = {k: M.infer_zarr_attr(v) for k, v in attrs_raw.items()
                 if not M.is_hidden(k) and k != "_FillValue"}
        fa = fill_attr(attrs_raw, node, nct)
        if fa is not None:
            attrs["_FillValue"] = fa
        m["variables"]["/" + path] = {"type": nct, "dimensions": ["/" + n for n in names], "shape": shape,
                                      "attributes": attrs, "data": M.summarize(values, nct)}
    m["groups"]["/"]["dimensions"] = dims
    if unmapped:
        # Arrays of types SCHEMA.md has no rule for: a reader leaves them out (partial open, listed in
        # _unreadable_arrays, which the comparer ignores). Their dimensions must not change the root
        # dimensions whether or not a reader registers them, so the datasets share them with mapped arrays.
        for n, s in sorted(unmapped_dims):
            assert dims.get(n) == s, "unmapped array dimension %s not shared with a mapped array" % n
        m["unmapped_arrays"] = unmapped
    return m


# ----------------------------------------------------------------------------------------------
# Second readers: tensorstore (data digests) and consolidated metadata
# ----------------------------------------------------------------------------------------------
TS_CTX = None


def ts_read(kvstore):
    global TS_CTX
    if TS_CTX is None:
        TS_CTX = ts.Context({"data_copy_concurrency": {"limit": 1}, "file_io_concurrency": {"limit": 1}})
    t = ts.open({"driver": "zarr3", "kvstore": kvstore}, context=TS_CTX, read=True, open=True).result()
    return t.read().result()


def ts_crosscheck(m, kv_for):
    """Compare every variable's data digest with tensorstore's reading. Returns a verification dict."""
    if ts is None:
        return {"tensorstore": "not installed: %s" % TS_ERROR}
    equal, differ, cannot = [], [], {}
    for vp, v in sorted(m["variables"].items()):
        try:
            vals = ts_read(kv_for(vp.lstrip("/")))
        except Exception as e:  # noqa: BLE001 - record what tensorstore refuses
            cannot[vp] = ts_reason(e)
            continue
        if v["type"] == "string":
            vals = np.asarray([x.decode("utf-8") if isinstance(x, bytes) else x
                               for x in np.asarray(vals).reshape(-1)], dtype=object).reshape(vals.shape)
        d = M.summarize(vals, v["type"])
        (equal if d["sha256"] == v["data"]["sha256"] else differ).append(vp)
    out = {"tensorstore_equal": equal}
    if differ:
        out["tensorstore_DIFFERENT"] = differ
    if cannot:
        out["tensorstore_cannot_read"] = cannot
    return out


def ts_reason(e):
    """tensorstore's error without the spec dump and the (machine-dependent) file path."""
    msg = str(e).split("\n")[0].split(" [tensorstore_spec=")[0]
    msg = re.sub(r'Error reading (local file|"[^"]*" in local file) "[^"]*": ', "", msg)
    return msg.replace(HERE + os.sep, "")[:240]


def file_kv(store_dir):
    return lambda p: {"driver": "file", "path": os.path.join(store_dir, p) + "/"}


def compare_manifests(exp, act):
    """compare.py on two in-memory manifests -> (passed, failed, output)."""
    with tempfile.TemporaryDirectory() as td:
        a, b = os.path.join(td, "e.json"), os.path.join(td, "a.json")
        write_manifest(exp, a)
        write_manifest(act, b)
        r = subprocess.run([sys.executable, COMPARE, a, b], capture_output=True, text=True)
    last = r.stdout.strip().splitlines()[-1]
    p, f = [int(x.split()[0]) for x in last.split(",")]
    return p, f, r.stdout


# ----------------------------------------------------------------------------------------------
# Datasets written by zarr-python 3
# ----------------------------------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")

ALL_JSON_ATTRS = {
    "title": "Zarr v3 groups and attributes",
    "unicode": "h\u00e9llo \u2713",
    "empty_string": "",
    "int": 42,
    "negative": -7,
    "int64": 2 ** 40 + 1,
    "uint64": 2 ** 64 - 1,
    "double": 3.25,
    "integral_double": 2.0,
    "nan": NAN,
    "inf": INF,
    "neg_inf": -INF,
    "bool_true": True,
    "bool_false": False,
    "bools": [True, False, True],
    "ints": [1, 2, 3],
    "int64s": [1, -2 ** 62],
    "mixed_numbers": [1, 2.5],
    "doubles_with_nan": [1.5, NAN, -INF],
    "strings": ["a", "b c"],
    "one_string_list": ["only"],
    "nested_list": [[1, 2], [3]],
    "mixed_list": [1, "a", None],
    "object": {"k": [1, {"x": None}], "s": "v"},
    "null": None,
    "empty_list": [],
    "empty_object": {},
}


def build_groups(path, consolidated):
    fresh(path)
    r = rng(1)
    root = zarr.open_group(store=path, mode="w", zarr_format=3, attributes=ALL_JSON_ATTRS)
    a = root.create_group("a", attributes={"level": 1, "description": "subgroup a"})
    b = a.create_group("b", attributes={"nested": {"deep": [1, [2, 3]]}, "flag": True})
    b.create_group("deepest", attributes={"depth": 3})
    root.create_group("empty")
    s = root.create_array("scalar", shape=(), dtype="float64", fill_value=-1.0,
                          attributes={"units": "m", "long_name": "a 0-d array"})
    s[...] = 1234.5
    t = a.create_array("temp", shape=(3, 4), chunks=(2, 3), dtype="float32", dimension_names=["y", "x"],
                       fill_value=float("nan"), attributes=dict(ALL_JSON_ATTRS, title="temp in /a"))
    t[...] = np.round(r.normal(280, 5, (3, 4)), 2).astype("f4")
    c = b.create_array("counts", shape=(4,), chunks=(3,), dtype="int32", dimension_names=["x"],
                       attributes={"units": "1", "valid_range": [0, 100]})
    c[...] = [0, 7, 42, 100]
    if consolidated:
        zarr.consolidate_metadata(path)
    return {
        "exercises": ["nested groups /a, /a/b, /a/b/deepest and an empty group /empty",
                      "attributes of every JSON shape: strings (unicode, empty), int, int64, uint64, double, "
                      "integral double 2.0, bare NaN/Infinity/-Infinity tokens, bools, lists (int, int64, "
                      "mixed int/float, double with NaN, strings, one-string list), nested/mixed lists, "
                      "objects, null, [] and {} (char JSON)",
                      "0-d array (key c)", "dimension_names shared across groups ([y, x] and [x])"]
        + (["inline consolidated_metadata in the root zarr.json (zarr.consolidate_metadata)"]
           if consolidated else ["no consolidated metadata (hierarchy by listing)"]),
        "notes": (["The expected manifest is identical to v3_groups (only the name differs)."]
                  if consolidated else []),
    }


def build_codecs(path):
    fresh(path)
    r = rng(2)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "one array per zarr-python 3 codec chain"})
    arrays = []

    def mk(name, shape, chunks, dtype, values, **kw):
        a = root.create_array(name, shape=shape, chunks=chunks, dtype=dtype, **kw)
        a[...] = values
        arrays.append(name)

    mk("default", (5, 7), (2, 3), "int16", r.integers(-1000, 1000, (5, 7)))
    mk("zstd_level5_checksum", (10,), (4,), "float64", np.round(r.normal(0, 10, 10), 3),
       compressors=ZstdCodec(level=5, checksum=True))
    mk("gzip", (3, 5), (2, 2), "int32", r.integers(-10 ** 6, 10 ** 6, (3, 5)), compressors=GzipCodec(level=6))
    blosc_types = {"lz4": "float32", "lz4hc": "int64", "blosclz": "uint16", "zstd": "float64", "zlib": "int32"}
    for cname, dt in blosc_types.items():
        for shuffle in ("noshuffle", "shuffle", "bitshuffle"):
            vals = (np.round(r.normal(0, 100, 12), 2) if dt.startswith("float")
                    else r.integers(0, 5000, 12))
            mk("blosc_%s_%s" % (cname, shuffle), (12,), (5,), dt, vals,
               compressors=BloscCodec(cname=cname, clevel=5, shuffle=shuffle))
    mk("transpose_2d", (5, 4), (2, 3), "int32", np.arange(20).reshape(5, 4),
       filters=[TransposeCodec(order=[1, 0])])
    mk("transpose_3d", (3, 4, 5), (2, 3, 4), "float64", np.arange(60, dtype="f8").reshape(3, 4, 5) / 4,
       filters=[TransposeCodec(order=[2, 0, 1])])
    mk("crc32c", (9,), (4,), "uint32", r.integers(0, 2 ** 32 - 1, 9, dtype="u8"), compressors=[Crc32cCodec()])
    mk("gzip_crc32c", (9,), (4,), "int16", r.integers(-30000, 30000, 9),
       compressors=[GzipCodec(level=1), Crc32cCodec()])
    mk("big_endian_int32", (7,), (3,), "int32", [1, -2, 256, 65536, -2 ** 31, 2 ** 31 - 1, 7],
       serializer=BytesCodec(endian="big"), compressors=None)
    mk("big_endian_float64_zstd", (6,), (4,), "float64", [1.0, 0.5, -2.0, 1e10, -0.0, 3.14159],
       serializer=BytesCodec(endian="big"))
    mk("uncompressed_uint64", (6,), (4,), "uint64", np.array([0, 1, 2 ** 32, 2 ** 63, 2 ** 64 - 1, 5], "u8"),
       compressors=None)
    mk("one_byte_int8", (5,), (2,), "int8", [-128, -1, 0, 1, 127])
    mk("one_byte_uint8_uncompressed", (5,), (2,), "uint8", [0, 1, 128, 254, 255], compressors=None)
    mk("string_uncompressed", (5,), (2,), str, ["alpha", "", "\u00e9t\u00e9", "d", "\u2603 snow"],
       compressors=None)
    mk("full_chain", (4, 6), (3, 4), "int16", r.integers(-500, 500, (4, 6)),
       filters=[TransposeCodec(order=[1, 0])], serializer=BytesCodec(endian="big"),
       compressors=[BloscCodec(cname="zstd", clevel=3, shuffle="shuffle"), Crc32cCodec()])
    return {"exercises": [
        "default chain bytes(little)+zstd(level 0)", "zstd level 5 with checksum", "gzip level 6",
        "blosc cname lz4/lz4hc/blosclz/zstd/zlib x shuffle noshuffle/shuffle/bitshuffle (typesize from dtype)",
        "transpose [1,0] (2-d) and [2,0,1] (3-d) with partial edge chunks",
        "crc32c alone and after gzip", "big-endian bytes (int32 uncompressed, float64 + zstd)",
        "no compressor (uint64 incl. 2^64-1)", "1-byte types: {\"name\": \"bytes\"} without endian",
        "vlen-utf8 without compressor", "transpose + big-endian bytes + blosc + crc32c",
        "all arrays without dimension_names: anonymous /_zdim_<len> dimensions"],
        "notes": []}


NUMCODECS_SKIPPED = {
    "numcodecs.pcodec": "needs the optional 'pcodec' package (not installed; no Java decoder planned)",
    "numcodecs.zfpy": "needs the optional 'zfpy' package (not installed; no Java decoder planned)",
}


def build_numcodecs(path):
    fresh(path)
    r = rng(3)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "numcodecs.* codecs as zarr-python 3.1 writes them"})
    f8 = np.round(r.normal(0, 1, 10), 6)
    i4 = r.integers(-100000, 100000, 10)

    def mk(name, dtype, values, **kw):
        a = root.create_array(name, shape=(10,), chunks=(4,), dtype=dtype, **kw)
        a[...] = values

    mk("zlib", "int32", i4, compressors=[nz.Zlib(level=5)])
    mk("bz2", "int32", i4, compressors=[nz.BZ2(level=9)])
    mk("lzma", "float64", f8, compressors=[nz.LZMA()])
    mk("lz4", "int32", i4, compressors=[nz.LZ4(acceleration=1)])
    mk("zstd", "float64", f8, compressors=[nz.Zstd(level=3)])
    mk("gzip", "int32", i4, compressors=[nz.GZip(level=5)])
    mk("blosc", "float64", f8, compressors=[nz.Blosc(cname="lz4", clevel=5, shuffle=1)])
    mk("shuffle_zlib", "int32", i4, compressors=[nz.Shuffle(elementsize=4), nz.Zlib(level=1)])
    mk("delta", "int32", np.cumsum(r.integers(0, 50, 10)), filters=[nz.Delta(dtype="<i4")],
       compressors=[nz.Zlib(level=1)])
    mk("fixedscaleoffset", "float64", f8,
       filters=[nz.FixedScaleOffset(offset=0, scale=1000, dtype="<f8", astype="<i4")], compressors=None)
    mk("quantize", "float64", f8, filters=[nz.Quantize(digits=3, dtype="<f8")])
    mk("bitround", "float32", f8.astype("f4"), filters=[nz.BitRound(keepbits=8)])
    mk("astype", "float64", f8, filters=[nz.AsType(encode_dtype="<f4", decode_dtype="<f8")], compressors=None)
    mk("packbits", "bool", (i4 > 0), filters=[nz.PackBits()], compressors=None)
    mk("crc32", "int32", i4, compressors=[nz.CRC32()])
    mk("crc32c", "int32", i4, compressors=[nz.CRC32C()])
    mk("adler32", "int32", i4, compressors=[nz.Adler32()])
    mk("fletcher32", "int32", i4, compressors=[nz.Fletcher32()])
    mk("jenkins_lookup3", "int32", i4, compressors=[nz.JenkinsLookup3()])
    return {"exercises": [
        "bytes->bytes: numcodecs.zlib, bz2, lzma, lz4, zstd, gzip, blosc (numcodecs config: shuffle 1), "
        "shuffle (+zlib)",
        "checksums: numcodecs.crc32, crc32c, adler32, fletcher32, jenkins_lookup3",
        "array->array: numcodecs.delta, fixedscaleoffset (astype <i4), quantize, bitround, astype (f8 as f4), "
        "packbits (bool)",
        "lossy codecs: the manifest holds the decoded (lossy) values"],
        "notes": ["skipped: " + "; ".join("%s (%s)" % kv for kv in NUMCODECS_SKIPPED.items())]}


def shard_index(blob, n, location="end", crc=True):
    """(offset, nbytes) pairs of a sharding_indexed index; checks the crc32c."""
    size = 16 * n + (4 if crc else 0)
    idx = blob[-size:] if location == "end" else blob[:size]
    body = idx[:16 * n]
    if crc:
        assert idx[16 * n:] == crc32c_le(body), "shard index crc32c mismatch"
    return np.frombuffer(body, "<u8").reshape(n, 2)


EMPTY = 2 ** 64 - 1


def build_sharding(path):
    fresh(path)
    r = rng(4)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "sharding_indexed as zarr-python 3.1 writes it"})
    facts = []
    # 1. index at the end, partial edge shards, one empty inner chunk, one shard not written at all
    v = r.integers(1, 60000, (10, 7)).astype("u2")
    v[0:2, 2:4] = 0          # inner chunk (0,1) of shard (0,0) all fill -> not stored, index entry all ones
    v[8:10, 4:7] = 0         # the whole shard (2,1) all fill -> no shard object
    a = root.create_array("end", shape=(10, 7), chunks=(2, 2), shards=(4, 4), dtype="uint16",
                          dimension_names=["row", "col"])
    a[...] = v
    blob = open(os.path.join(path, "end", "c", "0", "0"), "rb").read()
    ix = shard_index(blob, 4)
    assert tuple(ix[1]) == (EMPTY, EMPTY) and all(e[0] != EMPTY for i, e in enumerate(ix) if i != 1)
    assert not os.path.exists(os.path.join(path, "end", "c", "2", "1"))
    facts.append("/end: shard c/0/0 index entry 1 (inner chunk (0,1)) is all ones; shard c/2/1 not written")
    # 2. index at the start, float32 NaN fill, a missing inner chunk in an edge shard
    w = np.round(r.normal(0, 10, (9, 6)), 3).astype("f4")
    w[4:6, 0:3] = np.nan     # inner chunk (0,0) of shard c/1/0 all fill -> index entry all ones
    w[8, 3:6] = np.nan       # edge shard c/2/0: only inner chunk (0,0) holds data
    b = root.create_array("start", shape=(9, 6), chunks=(4, 6), dtype="float32", fill_value=float("nan"),
                          serializer=ShardingCodec(chunk_shape=(2, 3), codecs=[BytesCodec(), ZstdCodec(level=1)],
                                                   index_location="start"),
                          compressors=None, dimension_names=["t", "col6"])
    b[...] = w
    ix = shard_index(open(os.path.join(path, "start", "c", "1", "0"), "rb").read(), 4, "start")
    assert [e[0] == EMPTY for e in ix] == [True, False, False, False]
    ix = shard_index(open(os.path.join(path, "start", "c", "2", "0"), "rb").read(), 4, "start")
    assert [e[0] == EMPTY for e in ix] == [False, True, True, True]
    facts.append("/start: index at the start; shard c/1/0 index entry 0 all ones (NaN fill); edge shard "
                 "c/2/0 stores 1 of 4 inner chunks (entries 1-3 all ones, 2 of them beyond the array)")
    # 3. nested sharding
    n = root.create_array("nested", shape=(8, 8), chunks=(8, 8), dtype="int32",
                          serializer=ShardingCodec(
                              chunk_shape=(4, 4),
                              codecs=[ShardingCodec(chunk_shape=(2, 2), codecs=[BytesCodec(), GzipCodec(level=1)])]),
                          compressors=None)
    n[...] = np.arange(64, dtype="i4").reshape(8, 8)
    # 4. index without crc32c
    p = root.create_array("index_no_crc", shape=(6,), chunks=(6,), dtype="int64",
                          serializer=ShardingCodec(chunk_shape=(2,), codecs=[BytesCodec()],
                                                   index_codecs=[BytesCodec()]),
                          compressors=None)
    p[...] = [2 ** 40, -1, 0, 5, -(2 ** 62), 9]
    blob = open(os.path.join(path, "index_no_crc", "c", "0"), "rb").read()
    shard_index(blob, 3, crc=False)
    assert len(blob) == 3 * 16 + 3 * 16
    # 5. inner chain transpose + big-endian bytes + crc32c
    q = root.create_array("inner_chain", shape=(4, 6), chunks=(4, 6), dtype="int16",
                          serializer=ShardingCodec(chunk_shape=(2, 3),
                                                   codecs=[TransposeCodec(order=[1, 0]), BytesCodec(endian="big"),
                                                           Crc32cCodec()]),
                          compressors=None)
    q[...] = np.arange(24, dtype="i2").reshape(4, 6) * 3 - 30
    # 7. strings inside shards
    s = root.create_array("strings", shape=(5,), chunks=(2,), shards=(4,), dtype=str,
                          dimension_names=["names5"])
    s[...] = ["a", "bb", "", "d\u00e9", "long string value"]
    return {"exercises": [
        "sharding_indexed, index_location end (default) and start",
        "partial edge shards (shape not a multiple of the shard shape)",
        "an inner chunk left empty (index entry offset = nbytes = 2^64-1) and a shard never written",
        "nested sharding (shard of shards, innermost gzip)",
        "index_codecs [bytes] without crc32c",
        "inner chain transpose + big-endian bytes + crc32c",
        "vlen-utf8 strings inside shards"], "notes": facts}


def build_sharding_outer(path):
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "bytes->bytes codecs after sharding_indexed (whole shard)"})
    o = root.create_array("outer_crc32c", shape=(10,), chunks=(8,), dtype="int32",
                          serializer=ShardingCodec(chunk_shape=(4,)), compressors=[Crc32cCodec()],
                          dimension_names=["n10"])
    o[...] = np.arange(10) * 11
    g = root.create_array("outer_gzip", shape=(10,), chunks=(8,), dtype="int32",
                          serializer=ShardingCodec(chunk_shape=(2,), codecs=[BytesCodec()]),
                          compressors=[GzipCodec(level=5)], dimension_names=["n10"])
    g[...] = np.arange(10) * -7
    return {"exercises": ["codecs [sharding_indexed, crc32c] and [sharding_indexed, gzip]: the bytes->bytes "
                          "codec applies to the whole shard, so the shard index cannot be range-read and the "
                          "whole object must be decoded first"],
            "notes": ["kept apart from v3_sharding: zarr-python 3.1.6 writes and reads this (warning 'Combining a "
                      "`sharding_indexed` codec disables partial reads and writes'), tensorstore 0.1.86 refuses "
                      "to open it (sharding 'is not compatible with subsequent bytes -> bytes codecs'); the v3 "
                      "core spec allows bytes->bytes codecs after any array->bytes codec"]}


def build_chunk_keys(path):
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3)
    vals = np.arange(20, dtype="i2").reshape(4, 5)
    specs = {"default_slash": DefaultChunkKeyEncoding(separator="/"),
             "default_dot": DefaultChunkKeyEncoding(separator="."),
             "v2_dot": V2ChunkKeyEncoding(separator="."),
             "v2_slash": V2ChunkKeyEncoding(separator="/")}
    for name, cke in specs.items():
        a = root.create_array(name, shape=(4, 5), chunks=(2, 3), dtype="int16", chunk_key_encoding=cke,
                              dimension_names=["y4", "x5"])
        a[...] = vals + len(name)
    a = root.create_array("default_dot_3d", shape=(2, 3, 4), chunks=(1, 2, 3), dtype="uint8",
                          chunk_key_encoding=DefaultChunkKeyEncoding(separator="."))
    a[...] = np.arange(24, dtype="u1").reshape(2, 3, 4)
    s = root.create_array("scalar_default", shape=(), dtype="float64")
    s[...] = -0.5
    s = root.create_array("scalar_v2", shape=(), dtype="int64", chunk_key_encoding=V2ChunkKeyEncoding(separator="."))
    s[...] = 2 ** 53 + 1
    expect_keys = {"default_slash/c/1/1", "default_dot/c.1.1", "v2_dot/1.1", "v2_slash/1/1",
                   "default_dot_3d/c.1.1.1", "scalar_default/c", "scalar_v2/0"}
    for k in expect_keys:
        assert os.path.isfile(os.path.join(path, *k.split("/"))), k
    return {"exercises": ["chunk_key_encoding default with '/' (c/i/j) and '.' (c.i.j, also 3-d)",
                          "chunk_key_encoding v2 with '.' (i.j) and '/' (i/j)",
                          "0-d arrays: default key c, v2 key 0"],
            "notes": ["checked keys exist: " + ", ".join(sorted(expect_keys))]}


def patch_fill(path, array, hexbits):
    p = os.path.join(path, array, "zarr.json")
    j = jload(p)
    j["fill_value"] = hexbits
    jdump(j, p)


def build_dtypes(path):
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "data types and fill_value forms; chunk 1 (elements 4, 5) of "
                                                "every array is never written and reads as fill_value"})
    spec = [  # name, dtype, fill_value, 4 written values
        ("bool", "bool", True, [False, True, False, False]),
        ("int8", "int8", -128, [-127, 0, 1, 127]),
        ("uint8", "uint8", 255, [0, 1, 128, 200]),
        ("int16", "int16", -1, [-32768, 0, 2, 32767]),
        ("uint16", "uint16", 65535, [0, 1, 2, 40000]),
        ("int32", "int32", 2 ** 31 - 1, [-2 ** 31, -1, 0, 1]),
        ("uint32", "uint32", 2 ** 32 - 1, [0, 1, 2 ** 31, 3]),
        ("int64", "int64", -2 ** 63, [2 ** 63 - 1, -1, 2 ** 53 + 1, 0]),
        ("uint64", "uint64", 2 ** 64 - 1, [0, 2 ** 63, 2 ** 64 - 2, 12345678901234567890]),
        ("float16_nan", "float16", float("nan"), [65504.0, 6e-08, -0.0, 0.333]),
        ("float32_inf", "float32", float("inf"), [-0.0, 1e-45, 3.4028235e38, -0.1]),
        ("float64_neg_inf", "float64", float("-inf"), [float("nan"), 1e-300, -1.7976931348623157e308, 0.1]),
        ("float64_number", "float64", -999.5, [1.0, 2.0, 3.0, 4.0]),
        ("float32_zero", "float32", 0.0, [1.5, 2.5, -3.5, 4.5]),
        ("float16_hex", "float16", 1.5, [1.0, 2.0, 0.5, 0.25]),
        ("float32_hex", "float32", 1.5, [1.0, 2.0, 0.5, 0.25]),
        ("float64_hex", "float64", -1000.0, [1.0, 2.0, 0.5, 0.25]),
        ("float64_hex_nan_payload", "float64", float("nan"), [1.0, 2.0, 0.5, 0.25]),
        ("string", str, "", ["", "caf\u00e9", "\u65e5\u672c", "x y"]),
        ("string_fill", str, "-", ["a", "b", "c", "d"]),
    ]
    for name, dt, fill, vals in spec:
        a = root.create_array(name, shape=(6,), chunks=(4,), dtype=dt, fill_value=fill,
                              dimension_names=["n6"], attributes={"dtype_under_test": str(np.dtype(dt))})
        a[0:4] = np.asarray(vals, dtype=a.dtype if dt is not str else object)
        assert not os.path.exists(os.path.join(path, name, "c", "1"))
    hexes = {"float16_hex": "0x3e00", "float32_hex": "0x3fc00000", "float64_hex": "0xc08f400000000000",
             "float64_hex_nan_payload": "0x7ff8000000000001"}
    for name, h in hexes.items():
        patch_fill(path, name, h)
    fills = {n: jload(os.path.join(path, n, "zarr.json"))["fill_value"] for n, *_ in spec}
    return {"exercises": [
        "bool, int8..uint64, float16 (read as float), float32, float64, string (vlen-utf8)",
        "fill_value forms: numbers incl. int64 min and uint64 max, true, \"NaN\", \"Infinity\", \"-Infinity\", "
        "hex bit patterns (float16 0x3e00, float32 0x3fc00000, float64 0xc08f400000000000, NaN with payload "
        "0x7ff8000000000001 -> canonical NaN), \"\" and \"-\" for strings",
        "a never-written chunk in every array (elements 4-5 read as fill_value)",
        "extreme values: -0.0, float32 1e-45 subnormal, float16 65504 and 6e-08, float64 max"],
        "notes": ["zarr-python 3.1.6 writes fill values as numbers/\"NaN\"/\"Infinity\"; the hex forms were "
                  "patched into zarr.json afterwards (%s) and zarr-python reads them back" %
                  ", ".join("%s=%s" % kv for kv in sorted(hexes.items())),
                  "fill_value as stored: " + json.dumps(fills, ensure_ascii=False)]}


def build_unmapped(path):
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3,
                           attributes={"about": "types without a netCDF rule in SCHEMA.md"})
    a = root.create_array("n", shape=(4,), chunks=(4,), dtype="int32", dimension_names=["n4"])
    a[...] = [1, 2, 3, 4]
    c = root.create_array("complex64", shape=(4,), chunks=(2,), dtype="complex64", dimension_names=["n4"],
                          fill_value=complex(1, -1))
    c[0:2] = [complex(0.5, 1.5), complex(-2, 0)]
    c = root.create_array("complex128", shape=(4,), chunks=(4,), dtype="complex128", dimension_names=["n4"])
    c[...] = [complex(1e300, -1e-300), 0, complex(float("nan"), 1), complex(3, 4)]
    b = root.create_array("bytes", shape=(4,), chunks=(2,), dtype=VariableLengthBytes(), dimension_names=["n4"])
    b[...] = np.array([b"abc", b"\x00\x01\xff", b"", b"z"], dtype=object)
    return {"exercises": ["complex64 (fill [1.0, -1.0], one chunk missing), complex128 (incl. NaN real part), "
                          "variable_length_bytes (vlen-bytes codec) next to a readable int32 array",
                          "issue 12: complex arrays are structures {real, imag}, variable_length_bytes is opaque "
                          "(manifest rules in test-data/dtypes/structures.py)"],
            "notes": ["all four arrays share the dimension n4, so the root dimensions are the same whether a "
                      "reader registers the dimensions of arrays it leaves out or not"]}


def build_dimension_names(path):
    fresh(path)
    r = rng(5)
    root = zarr.open_group(store=path, mode="w", zarr_format=3)
    x = root.create_array("x", shape=(4,), chunks=(4,), dtype="float64", dimension_names=["x"],
                          attributes={"units": "m"})
    x[...] = [0.0, 10.0, 20.0, 30.0]
    t = root.create_array("temp", shape=(3, 4), chunks=(3, 2), dtype="float32", dimension_names=["y", "x"])
    t[...] = np.round(r.normal(0, 3, (3, 4)), 2)
    p = root.create_array("partial", shape=(3, 5), chunks=(2, 5), dtype="int16", dimension_names=["y", None])
    p[...] = r.integers(-9, 9, (3, 5))
    a = root.create_array("anonymous", shape=(2,), chunks=(2,), dtype="int8")
    a[...] = [5, -5]
    g = root.create_group("g")
    s = g.create_array("sub", shape=(4,), chunks=(2,), dtype="float64", dimension_names=["x"])
    s[...] = [1.0, 2.0, 3.0, 4.0]
    n = g.create_array("all_null", shape=(3, 2), chunks=(3, 2), dtype="uint8", dimension_names=[None, None])
    n[...] = np.arange(6, dtype="u1").reshape(3, 2)
    z = root.create_array("scalar", shape=(), dtype="int32", dimension_names=[])
    z[...] = 7
    return {"exercises": ["dimension_names [y, x] shared by name", "a null entry -> /_zdim_5",
                          "no dimension_names -> /_zdim_2", "[null, null] in a subgroup -> /_zdim_3, /_zdim_2",
                          "a subgroup array naming x: the dimension is the root's /x",
                          "0-d array with dimension_names []"], "notes": []}


def build_extension(path):
    """GOOD dataset: unknown metadata fields with must_understand false must be ignored."""
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3, attributes={"note": "extensions ignored"})
    a = root.create_array("v", shape=(5,), chunks=(3,), dtype="int32", dimension_names=["n5"],
                          attributes={"units": "1"})
    a[...] = [10, 20, 30, 40, 50]
    g = root.create_group("g", attributes={"k": "v"})
    b = g.create_array("w", shape=(2, 2), chunks=(2, 2), dtype="float64")
    b[...] = [[1.5, 2.5], [3.5, 4.5]]
    # The manifest is read before the fields are added: zarr-python 3.1.6 refuses unknown fields in a
    # group's zarr.json even with must_understand false (TypeError), while it accepts them in arrays.
    m = pure_manifest(path, "v3_extension_ignored")
    ext = {"name": "org.example.unknown_extension", "must_understand": False,
           "configuration": {"anything": [1, 2, {"x": None}]}}
    for node in ("zarr.json", "v/zarr.json", "g/zarr.json", "g/w/zarr.json"):
        p = os.path.join(path, *node.split("/"))
        j = jload(p)
        j["org.example.unknown_extension"] = ext
        j["another_unknown_field"] = {"must_understand": False}
        jdump(j, p)
    behaviour = {}
    try:
        zarr.open_group(store=path, mode="r", use_consolidated=False)
        behaviour["zarr_python_group"] = "opens"
    except Exception as e:  # noqa: BLE001
        behaviour["zarr_python_group"] = "%s: %s" % (type(e).__name__, str(e)[:120])
    try:
        vals = zarr.open_array(store=os.path.join(path, "v"), mode="r")[...]
        behaviour["zarr_python_array"] = "reads %s" % vals.tolist()
    except Exception as e:  # noqa: BLE001
        behaviour["zarr_python_array"] = "%s: %s" % (type(e).__name__, str(e)[:120])
    return m, {"exercises": ["unknown top-level fields {\"must_understand\": false} in group and array "
                             "zarr.json: must be ignored (a GOOD dataset)"],
               "notes": ["expected manifest read with zarr-python before the fields were added",
                         "zarr-python 3.1.6 with the fields: group: %s; array /v: %s" %
                         (behaviour["zarr_python_group"], behaviour["zarr_python_array"])]}


def build_zip(path):
    """A v3 store written into zarr-python's ZipStore (root layout: zarr.json is a top-level entry)."""
    fresh(path)
    with tempfile.TemporaryDirectory() as td:
        src = os.path.join(td, "src.zarr")
        root = zarr.open_group(store=src, mode="w", zarr_format=3, attributes={"title": "zipped v3 store"})
        a = root.create_array("grid", shape=(4, 5), chunks=(2, 3), dtype="int16", dimension_names=["y", "x"],
                              compressors=GzipCodec(level=5), fill_value=-1, attributes={"units": "count"})
        a[...] = np.arange(20, dtype="i2").reshape(4, 5)
        g = root.create_group("sub", attributes={"n": 2})
        s = g.create_array("names", shape=(3,), chunks=(2,), dtype=str, dimension_names=["three"])
        s[...] = ["one", "two", "three"]
        z = root.create_array("scalar", shape=(), dtype="float32")
        z[...] = 0.25
        sh = root.create_array("sharded", shape=(6,), chunks=(2,), shards=(4,), dtype="int32",
                               dimension_names=["six"])
        sh[...] = [1, 2, 3, 4, 5, 6]
        # copy key by key, sorted, into zarr-python's ZipStore (deterministic entry order and dates)
        from zarr.core.buffer import default_buffer_prototype
        from zarr.core.sync import sync
        keys = []
        for dp, _dn, fn in os.walk(src):
            for f in fn:
                keys.append(os.path.relpath(os.path.join(dp, f), src).replace(os.sep, "/"))
        zs = zarr.storage.ZipStore(path, mode="w")
        proto = default_buffer_prototype()
        # metadata first (root, then by depth), then chunks: the order zarr-python itself writes a
        # hierarchy it creates and then fills
        keys.sort(key=lambda k: (not k.endswith("zarr.json"), k.count("/"), k))
        for k in keys:
            with open(os.path.join(src, *k.split("/")), "rb") as f:
                sync(zs.set(k, proto.buffer.from_bytes(f.read())))
        zs.close()
    names = zipfile.ZipFile(path).namelist()
    assert "zarr.json" in names and not any(n.endswith("/") for n in names)
    return {"exercises": ["zip storage, zarr-python ZipStore root layout (zarr.json is a top-level entry, "
                          "no directory entries, STORED)",
                          "gzip, vlen-utf8 in a subgroup, 0-d, sharded array inside the zip"],
            "notes": ["entries written in a fixed order (every zarr.json by depth, then the chunks) with date "
                      "2020-01-01 so the zip is byte-identical between runs; %d entries, entry 0 is %s"
                      % (len(names), names[0])]}


# ----------------------------------------------------------------------------------------------
# xarray
# ----------------------------------------------------------------------------------------------
def build_xarray(path):
    import pandas as pd
    import xarray as xr
    fresh(path)
    r = rng(6)
    time = pd.date_range("2000-01-01", periods=4, freq="D")
    temp = np.round(r.normal(280, 8, (4, 3, 5)), 2)
    temp[0, 0, 0] = np.nan                       # -> packed _FillValue -32768
    precip = np.round(r.gamma(1.0, 2.0, (4, 3, 5)), 3).astype("f4")
    precip[1, :, 0] = np.nan
    snow = np.round(r.uniform(0, 5, (4, 3)), 2).astype("f4")
    snow[2, 1] = np.nan                          # -> _FillValue -9999.0 (base64 f8 in the attribute)
    ds = xr.Dataset(
        {
            "temperature": (("time", "lat", "lon"), temp,
                            {"units": "K", "standard_name": "air_temperature", "long_name": "air temperature",
                             "valid_range": [150.0, 350.0]}),
            "precip": (("time", "lat", "lon"), precip, {"units": "mm/day"}),
            "snow": (("time", "lat"), snow, {"units": "cm"}),
            "quality": (("time",), np.array([0, 1, 2, 1], dtype="i1"),
                        {"flag_values": [0, 1, 2], "flag_meanings": "good fair bad"}),
            "station": (("lon",), np.array(["Alpha", "Bravo", "Charlie", "Delta", "\u00c9cho"], dtype=object)),
        },
        coords={
            "time": ("time", time, {"standard_name": "time"}),
            "lat": ("lat", np.array([-45.0, 0.0, 45.0], dtype="f4"), {"units": "degrees_north"}),
            "lon": ("lon", np.array([0.0, 72.0, 144.0, 216.0, 288.0]), {"units": "degrees_east"}),
            "height": ((), 2.0, {"units": "m"}),
        },
        attrs={"Conventions": "CF-1.8", "title": "xarray CF encoding, Zarr v3", "source_version": 3},
    )
    enc = {
        "temperature": {"dtype": "int16", "scale_factor": 0.01, "add_offset": 280.0, "_FillValue": -32768},
        "snow": {"_FillValue": -9999.0},
        "quality": {"_FillValue": -1},
        "time": {"units": "days since 2000-01-01", "calendar": "standard", "dtype": "int64"},
    }
    ds.to_zarr(path, zarr_format=3, encoding=enc, mode="w")   # consolidated by default
    return {"exercises": [
        "xarray to_zarr(zarr_format=3): dimension_names, inline consolidated metadata",
        "packed int16 temperature: scale_factor/add_offset, _FillValue -32768 attribute (fill_value 0 in "
        "zarr.json; the attribute wins); manifest holds raw packed values",
        "float _FillValue attributes as base64 of a little-endian float64 (NaN for precip/lat/lon/height, "
        "-9999.0 for snow), converted to float32 for float32 arrays",
        "int8 quality with an int _FillValue attribute -1",
        "time coordinate int64 'days since 2000-01-01', calendar standard (no _FillValue attribute: "
        "fill_value 0 is reported)",
        "0-d coordinate height, vlen-utf8 station names, CF global attributes"],
        "notes": ["raw values read with zarr-python; cross-checked against xarray "
                  "open_zarr(decode_cf=False, mask_and_scale=False) values"]}


def xarray_crosscheck(path, m):
    import xarray as xr
    ds = xr.open_zarr(path, zarr_format=3, decode_cf=False, mask_and_scale=False, decode_times=False,
                      consolidated=True)
    equal, differ = [], []
    for vp, v in sorted(m["variables"].items()):
        vals = ds[vp.lstrip("/")].values
        if v["type"] == "string":
            vals = np.asarray([str(x) for x in vals.reshape(-1)], dtype=object).reshape(vals.shape)
        (equal if M.summarize(vals, v["type"])["sha256"] == v["data"]["sha256"] else differ).append(vp)
    out = {"xarray_raw_equal": equal}
    if differ:
        out["xarray_raw_DIFFERENT"] = differ
    return out


# ----------------------------------------------------------------------------------------------
# tensorstore
# ----------------------------------------------------------------------------------------------
def build_tensorstore(path):
    fresh(path)
    os.makedirs(path)
    # tensorstore writes arrays only; the root group zarr.json is written here with the json module
    jdump({"zarr_format": 3, "node_type": "group", "attributes": {"producer": "tensorstore"}},
          os.path.join(path, "zarr.json"))
    ctx = ts.Context({"data_copy_concurrency": {"limit": 1}, "file_io_concurrency": {"limit": 1}})

    def create(name, metadata):
        return ts.open({"driver": "zarr3", "kvstore": {"driver": "file", "path": os.path.join(path, name) + "/"},
                        "metadata": metadata, "create": True, "delete_existing": True}, context=ctx).result()

    a = create("plain", {"shape": [5, 6], "data_type": "int32",
                         "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 4]}},
                         "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                    {"name": "gzip", "configuration": {"level": 5}}],
                         "dimension_names": ["y", "x"], "fill_value": -1})
    a[0:4, :] = np.arange(24, dtype="i4").reshape(4, 6)      # row 4 never written -> -1
    b = create("sharded", {"shape": [9, 6], "data_type": "float32",
                           "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [4, 6]}},
                           "codecs": [{"name": "sharding_indexed", "configuration": {
                               "chunk_shape": [2, 3],
                               "codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                          {"name": "zstd", "configuration": {"level": 3}}],
                               "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}},
                                                {"name": "crc32c"}]}}],
                           "dimension_names": ["t", "x"], "fill_value": "NaN"})
    b[0:7, :] = (np.arange(42, dtype="f4").reshape(7, 6) / 2)  # rows 7-8 never written -> NaN
    c = create("transposed", {"shape": [3, 5], "data_type": "uint16",
                              "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": [2, 5]}},
                              "chunk_key_encoding": {"name": "v2", "configuration": {"separator": "."}},
                              "codecs": [{"name": "transpose", "configuration": {"order": [1, 0]}},
                                         {"name": "bytes", "configuration": {"endian": "big"}},
                                         {"name": "blosc", "configuration": {"cname": "lz4", "clevel": 5,
                                                                             "shuffle": "shuffle",
                                                                             "typesize": 2,
                                                                             "blocksize": 0}}],
                              "fill_value": 0})
    c[...] = np.arange(15, dtype="u2").reshape(3, 5) * 1000
    meta = {n: jload(os.path.join(path, n, "zarr.json")) for n in ("plain", "sharded", "transposed")}
    return {"exercises": [
        "arrays written by tensorstore's zarr3 driver: compact zarr.json with sorted keys, no 'attributes' "
        "key, chunk_key_encoding {\"name\": \"default\"} without configuration",
        "plain: bytes + gzip, fill -1, a never-written chunk row",
        "sharded: sharding_indexed without index_location (default end), inner zstd, inner chunks never "
        "written (NaN fill)",
        "transposed: transpose [1,0] + big-endian bytes + blosc lz4, v2 chunk keys '.'"],
        "notes": ["root group zarr.json written with Python's json module (tensorstore writes arrays only)",
                  "zarr.json as tensorstore wrote it: " + json.dumps(meta["sharded"], sort_keys=True)]}


# ----------------------------------------------------------------------------------------------
# NCZarr over Zarr v3 (netcdf-c draft), hand-written
# ----------------------------------------------------------------------------------------------
NC_OF_V3 = {"int8": "byte", "uint8": "ubyte", "int16": "short", "uint16": "ushort", "int32": "int",
            "uint32": "uint", "int64": "int64", "uint64": "uint64", "float32": "float", "float64": "double"}


def encode_chunks(arr_dir, values, chunk_shape, dtype, endian, bb_codecs, fill, omit=(), char=False):
    """Write the chunks of an array (default chunk keys c/i/j, 0-d key c): full-size chunks padded with fill,
    bytes codec with the given endian, then the numcodecs bytes->bytes codecs in order."""
    values = np.asarray(values)
    npdt = np.dtype(dtype).newbyteorder("<" if endian == "little" else ">")
    written = []
    if values.ndim == 0:
        grid = [()]
    else:
        grid = list(np.ndindex(*[-(-s // c) for s, c in zip(values.shape, chunk_shape)]))
    for idx in grid:
        if idx in omit:
            continue
        if idx == ():
            block = values.astype(npdt)
            key = "c"
        else:
            block = np.full(chunk_shape, fill, dtype=npdt)
            sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunk_shape, values.shape))
            part = values[sl]
            block[tuple(slice(0, x.stop - x.start) for x in sl)] = part
            key = "c/" + "/".join(str(i) for i in idx)
        buf = block.tobytes()
        for codec in bb_codecs:
            buf = bytes(codec.encode(buf))
        p = os.path.join(arr_dir, *key.split("/"))
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "wb") as f:
            f.write(buf)
        written.append(key)
    return written


def nczarr_attr_entry(t, v):
    """Manifest entry of an NCZarr attribute typed by _nczarr_attrs.attribute_types (v3 type names)."""
    if t == "char":
        return {"type": "char", "value": v}
    if t == "string":
        return M.attr_entry("string", v if isinstance(v, list) else [v])
    if t == "json":
        return {"type": "char", "value": json.dumps(v, separators=(",", ":"), ensure_ascii=False), "json": True}
    nct = NC_OF_V3[t]
    return M.attr_entry(nct, M.typed_values(v if isinstance(v, list) else [v], nct))


def nczarr_dataset(spelling):
    """The content of an NCZarr-over-v3 dataset as plain Python data (the single source of both the
    store and its expected manifest). Attributes are {name: (v3 type, JSON value)}."""
    r = rng(7 if spelling == "code" else 8)
    if spelling == "code":
        groups = {
            "/": {"dims": {"time": {"size": 4, "unlimited": 1}, "x": {"size": 5, "unlimited": 0},
                           "strlen": {"size": 6, "unlimited": 0}},
                  "attrs": {"title": ("char", "NCZarr over Zarr v3 (netcdf-c code spelling)"),
                            "count": ("int32", 3), "scale": ("float64", 1), "ratios": ("float32", [0.1, 0.25]),
                            "big": ("int64", [2 ** 40, -5]), "flags": ("uint8", [0, 255]),
                            "short_neg": ("int16", -3), "umax": ("uint64", 2 ** 64 - 1),
                            "unicode": ("char", "h\u00e9llo"),
                            "meta": ("json", {"a": [1, 2], "b": {"c": "d"}}),
                            "vec_json": ("json", [0.0, 0.0, 1.0]), "names": ("string", ["a", "bc"])}},
            "/g": {"dims": {"y": 3}, "attrs": {"gattr": ("char", "in g")}},
            "/g/h": {"dims": {}, "attrs": {"empty_group_note": ("char", "no dims, no arrays")}},
        }
        label = np.zeros((4, 6), "u1")
        for i, s in enumerate([b"abc", b"de", b"", b"fghijk"]):
            label[i, :len(s)] = list(s)
        temp = np.round(r.normal(280, 5, (4, 5)), 2).astype("f4")
        variables = {
            "/time": {"dtype": "float64", "refs": ["/time"], "values": np.array([0.0, 1.0, 2.0, 3.0]),
                      "chunks": [2], "fill": 9.969209968386869e36, "codecs": "zstd",
                      "attrs": {"units": ("char", "days since 2000-01-01")}},
            "/temp": {"dtype": "float32", "refs": ["/time", "/x"], "values": temp, "chunks": [2, 3],
                      "fill": -999.0, "omit": {(1, 1)}, "codecs": "gzip",
                      "attrs": {"units": ("char", "K"), "valid_range": ("float32", [-100.0, 400.0]),
                                "_FillValue": ("float32", -999.0)}},
            "/label": {"dtype": "uint8", "nczarr_type": "char", "refs": ["/time", "/strlen"], "values": label,
                       "chunks": [2, 6], "fill": 0, "attrs": {"long_name": ("char", "station label")}},
            "/scalar": {"dtype": "int32", "refs": [], "values": np.array(42, "i4"), "chunks": [], "fill": -1,
                        "attrs": {"note": ("char", "0-d: shape [], scalar 1, chunk key c")}},
            "/be_int": {"dtype": "int32", "refs": ["/x"], "values": np.array([1, -2, 256, 65536, 7], "i4"),
                        "chunks": [3], "fill": -2147483647, "omit": {(1,)}, "endian": "big", "attrs": {}},
            "/g/v": {"dtype": "int16", "refs": ["/g/y", "/x"], "values": r.integers(-100, 100, (3, 5)).astype("i2"),
                     "chunks": [2, 5], "fill": -1, "omit": {(1, 0)}, "codecs": "zstd",
                     "attrs": {"_FillValue": ("int16", -1), "units": ("char", "1")}},
        }
        subgroups = {"/": ["g"], "/g": ["h"], "/g/h": []}
    else:
        groups = {
            "/": {"dims": {"lat": {"size": 3, "unlimited": 0}, "lon": {"size": 4, "unlimited": 0}},
                  "attrs": {"title": ("char", "NCZarr over Zarr v3 (docs/nczarr.md appendix spelling)"),
                            "version": ("int32", [1, 2]), "pi": ("float64", 3.14159265358979),
                            "history": ("char", "hand-written by test-data/v3/generate.py"),
                            "conf": ("json", {"list": [1, "two", None]})}},
            "/sub": {"dims": {"t": {"size": 2, "unlimited": 1}},
                     "attrs": {"sub_note": ("char", "subgroup with an unlimited dimension")}},
        }
        variables = {
            "/lat": {"dtype": "float32", "refs": ["/lat"], "values": np.array([-30.0, 0.0, 30.0], "f4"),
                     "chunks": [3], "fill": 9.969209968386869e36, "attrs": {"units": ("char", "degrees_north")}},
            "/lon": {"dtype": "float64", "refs": ["/lon"], "values": np.array([0.0, 90.0, 180.0, 270.0]),
                     "chunks": [2], "fill": 9.969209968386869e36, "codecs": "zstd",
                     "attrs": {"units": ("char", "degrees_east")}},
            "/field": {"dtype": "float64", "refs": ["/lat", "/lon"], "values": np.round(r.normal(0, 1, (3, 4)), 4),
                       "chunks": [2, 2], "fill": -9999.0, "omit": {(1, 1)},
                       "attrs": {"_FillValue": ("float64", -9999.0), "scale": ("float32", 0.5)}},
            "/sub/series": {"dtype": "int64", "refs": ["/sub/t", "/lon"],
                            "values": np.array([[2 ** 40, -1, 0, 1], [5, 6, 7, -(2 ** 62)]], "i8"),
                            "chunks": [1, 4], "fill": -1, "attrs": {"units": ("char", "count")}},
            "/sub/flag": {"dtype": "uint16", "refs": ["/sub/t"], "values": np.array([1, 65535], "u2"),
                          "chunks": [2], "fill": 0, "codecs": "gzip", "attrs": {}},
        }
        subgroups = {"/": ["sub"], "/sub": []}
    for vp, v in variables.items():
        v.setdefault("omit", set())
        v.setdefault("endian", "little")
        v.setdefault("codecs", None)
    return groups, variables, subgroups


def _parent(p):
    return "/" + p.strip("/").rsplit("/", 1)[0] if p.strip("/").count("/") else "/"


def _leaf(p):
    return p.rstrip("/").rsplit("/", 1)[-1]


def build_nczarr(path, spelling):
    fresh(path)
    groups, variables, subgroups = nczarr_dataset(spelling)
    codec_objs = {None: ([], []), "zstd": ([numcodecs.Zstd(level=1)],
                                           [{"name": "zstd", "configuration": {"level": 1, "checksum": False}}]),
                  "gzip": ([numcodecs.GZip(level=5)], [{"name": "gzip", "configuration": {"level": 5}}])}

    def types_meta(attrs, extra_hidden):
        types_ = {k: t for k, (t, _v) in attrs.items()}
        for h in extra_hidden:
            types_[h] = "json"
        if spelling == "code":
            return {"attribute_types": types_}
        return {"attribute_types": [{"name": k, "configuration": {"type": t}} for k, t in types_.items()]}

    for gp, g in groups.items():
        attrs = {k: v for k, (_t, v) in g["attrs"].items()}
        arrays = [_leaf(vp) for vp in variables if _parent(vp) == gp]
        if spelling == "code":
            dims = {n: d for n, d in g["dims"].items()}
        else:
            dims = [{"name": n, "size": d["size"], "unlimited": d["unlimited"]} for n, d in g["dims"].items()]
        hidden = ["_nczarr_group", "_nczarr_attrs"]
        attrs["_nczarr_group"] = {"dimensions": dims, "arrays": arrays, "groups": subgroups[gp]}
        if gp == "/":
            attrs["_NCProperties"] = "version=2,netcdf=4.10.0-development,nczarr=3.0.0"
            attrs["_nczarr_superblock"] = ({"version": "3.0.0", "format": 2} if spelling == "code"
                                           else {"version": "3.0.0", "format": 3})
            hidden += ["_nczarr_superblock"]
        attrs["_nczarr_attrs"] = types_meta(g["attrs"], hidden)
        if gp == "/":
            attrs["_nczarr_attrs"]["attribute_types"] = (
                dict(attrs["_nczarr_attrs"]["attribute_types"], _NCProperties="char") if spelling == "code"
                else attrs["_nczarr_attrs"]["attribute_types"]
                + [{"name": "_NCProperties", "configuration": {"type": "char"}}])
        jdump({"zarr_format": 3, "node_type": "group", "attributes": attrs},
              os.path.join(path, *gp.strip("/").split("/"), "zarr.json") if gp != "/" else
              os.path.join(path, "zarr.json"))
    for vp, v in variables.items():
        vals = v["values"]
        simple = [_leaf(r) for r in v["refs"]]
        attrs = {k: val for k, (_t, val) in v["attrs"].items()}
        nczarr_array = {"dimension_references": v["refs"], "storage": "chunked"}
        if vals.ndim == 0:
            nczarr_array["scalar"] = 1
        if v.get("nczarr_type"):
            nczarr_array["nczarr_type"] = v["nczarr_type"]
        attrs["_ARRAY_DIMENSIONS"] = simple
        attrs["_nczarr_array"] = nczarr_array
        attrs["_nczarr_attrs"] = types_meta(v["attrs"], ["_ARRAY_DIMENSIONS", "_nczarr_array", "_nczarr_attrs"])
        objs, cjson = codec_objs[v["codecs"]]
        meta = {"zarr_format": 3, "node_type": "array", "shape": list(vals.shape), "data_type": v["dtype"],
                "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": v["chunks"]}},
                "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
                "fill_value": v["fill"],
                "codecs": [{"name": "bytes", "configuration": {"endian": v["endian"]}}] + cjson,
                "dimension_names": simple, "attributes": attrs}
        adir = os.path.join(path, *vp.strip("/").split("/"))
        jdump(meta, os.path.join(adir, "zarr.json"))
        encode_chunks(adir, vals, v["chunks"], v["dtype"], v["endian"], objs, v["fill"], v["omit"])
    return groups, variables


def nczarr_manifest(name, groups, variables):
    """Expected manifest computed from the dataset definition (SCHEMA.md NCZarr over v3), independently of
    any reader: dimensions from _nczarr_group, variables' dimensions from dimension_references, uint8 with
    nczarr_type char -> char, attribute types from attribute_types, _FillValue only from the attribute,
    missing chunks read as the _FillValue attribute (else fill_value)."""
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    for gp, g in groups.items():
        m["groups"][gp] = {
            "dimensions": {n: (d["size"] if isinstance(d, dict) else d) for n, d in g["dims"].items()},
            "attributes": {k: nczarr_attr_entry(t, v) for k, (t, v) in g["attrs"].items()}}
    for vp, v in variables.items():
        vals = np.array(v["values"])
        nct = "char" if v.get("nczarr_type") == "char" else NC_OF_V3[v["dtype"]]
        attrs = {k: nczarr_attr_entry(t, val) for k, (t, val) in v["attrs"].items()}
        fill = v["attrs"]["_FillValue"][1] if "_FillValue" in v["attrs"] else v["fill"]
        full = vals.copy()
        for idx in v["omit"]:
            sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, v["chunks"], vals.shape))
            full[sl] = fill
        data = M.summarize(full.view("S1") if nct == "char" else full, nct)
        m["variables"][vp] = {"type": nct, "dimensions": list(v["refs"]), "shape": list(vals.shape),
                              "attributes": attrs, "data": data}
    return m


def nczarr_crosscheck(path, variables):
    """zarr-python 3 reads the hand-written arrays (it ignores the NCZarr attributes): values must equal
    the definition with omitted chunks as fill_value."""
    equal = []
    for vp, v in variables.items():
        got = zarr.open_array(store=os.path.join(path, *vp.strip("/").split("/")), mode="r")[...]
        want = np.array(v["values"]).astype(np.dtype(v["dtype"]))
        for idx in v["omit"]:
            sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, v["chunks"], want.shape))
            want[sl] = v["fill"]
        assert np.array_equal(got, want, equal_nan=True), vp
        equal.append(vp)
    return {"zarr_python_values_equal": equal}


# ----------------------------------------------------------------------------------------------
# Bad inputs
# ----------------------------------------------------------------------------------------------
def bad_base(path, attrs=None):
    fresh(path)
    root = zarr.open_group(store=path, mode="w", zarr_format=3, attributes=attrs or {})
    g = root.create_array("good", shape=(4,), chunks=(4,), dtype="int16")
    g[...] = [0, 1, 2, 3]
    return root


def bad_manifest(name, path, bad, outcome, mentions, read_errors=None, structure=True):
    """Expected manifest of a bad input: 'expect' plus, when opening may succeed, the structure with the
    good arrays read by zarr-python and data {"error": true} for the bad ones (whose metadata `bad`
    gives: {path: (nctype, dims, shape, attributes)})."""
    m = {"schema": SCHEMA, "name": name,
         "expect": {"outcome": outcome, "mentions": mentions}}
    if read_errors:
        m["expect"]["read_errors"] = read_errors
    if not structure:
        return m
    good = zarr.open_array(store=os.path.join(path, "good"), mode="r")
    dims = {"_zdim_4": 4}
    m["groups"] = {"/": {"dimensions": dims, "attributes": {}}}
    m["variables"] = {"/good": {"type": "short", "dimensions": ["/_zdim_4"], "shape": [4],
                                "attributes": {"_FillValue": {"type": "short", "value": 0}},
                                "data": M.summarize(good[...], "short")}}
    for vp, (nct, vdims, shape, attrs) in (bad or {}).items():
        for d, s in zip(vdims, shape):
            dims[d.lstrip("/")] = s
        m["variables"][vp] = {"type": nct, "dimensions": vdims, "shape": shape, "attributes": attrs,
                              "data": {"error": True}}
    return m


def zarr_behaviour(path, array):
    if not array:
        try:
            zarr.open_group(store=path, mode="r", use_consolidated=False)
            return "the group opens"
        except Exception as e:  # noqa: BLE001
            return "open fails: %s: %s" % (type(e).__name__, str(e).split("\n")[0][:160])
    try:
        a = zarr.open_array(store=os.path.join(path, array), mode="r")
    except Exception as e:  # noqa: BLE001
        return "open fails: %s: %s" % (type(e).__name__, str(e).split("\n")[0][:160])
    try:
        v = a[...]
        return "reads without error: %s" % (np.asarray(v).reshape(-1)[:8].tolist(),)
    except Exception as e:  # noqa: BLE001
        return "read fails: %s: %s" % (type(e).__name__, str(e).split("\n")[0][:160])


def build_bad():
    out = []
    bad_dir = here("bad")
    os.makedirs(bad_dir, exist_ok=True)
    int_v = ("int", ["/_zdim_10"], [10], {"_FillValue": {"type": "int", "value": 0}})

    def add(name, behaviour, m, notes):
        write_manifest(m, os.path.join(bad_dir, name + ".expected.json"))
        out.append({"name": name, "category": "bad", "path": "bad/%s.zarr" % name,
                    "fragment": "#mode=zarr,file", "expected": "bad/%s.expected.json" % name,
                    "expected_behaviour": behaviour,
                    "producer": "zarr-python %s + test-data/v3/generate.py edits" % VERSIONS["zarr"],
                    "notes": notes})

    def with_v(path, n=10, **kw):
        root = bad_base(path)
        v = root.create_array("v", shape=(n,), chunks=(4,), dtype="int32", **kw)
        v[...] = np.arange(n) * 3
        return root

    # malformed root zarr.json
    name = "v3_bad_json_root"
    p = os.path.join(bad_dir, name + ".zarr")
    bad_base(p)
    with open(os.path.join(p, "zarr.json"), "w") as f:
        f.write('{"zarr_format": 3, "node_type": "group", "attributes": {"title": "truncated\n')
    add(name, "open fails: the root zarr.json is not valid JSON",
        bad_manifest(name, p, None, "open_error", ["zarr.json", "json"], structure=False),
        ["zarr-python: " + zarr_behaviour(p, "")])

    # malformed array zarr.json
    name = "v3_bad_json_array"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p)
    with open(os.path.join(p, "v", "zarr.json"), "w") as f:
        f.write('{"zarr_format": 3, "node_type": "array", "shape": [10], "data_type": "int32",, }')
    add(name, "open fails: v/zarr.json is not valid JSON (as for a broken .zarray in v2)",
        bad_manifest(name, p, None, "open_error", ["zarr.json", "json"], structure=False),
        ["zarr-python: " + zarr_behaviour(p, "v")])

    # unknown codec, must_understand true
    name = "v3_bad_codec_unknown"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p)
    j = jload(os.path.join(p, "v", "zarr.json"))
    j["codecs"].append({"name": "org.example.nosuchcodec", "configuration": {"level": 1},
                        "must_understand": True})
    jdump(j, os.path.join(p, "v", "zarr.json"))
    add(name, "open fails, or /v is listed and reading it fails naming the codec; /good reads",
        bad_manifest(name, p, {"/v": int_v}, "open_or_read_error", ["nosuchcodec"], ["/v"]),
        ["codecs: " + json.dumps(j["codecs"]), "zarr-python: " + zarr_behaviour(p, "v")])

    # codec chain out of order (bytes->bytes before the array->bytes codec)
    name = "v3_bad_codec_order"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p)
    j = jload(os.path.join(p, "v", "zarr.json"))
    j["codecs"] = list(reversed(j["codecs"]))          # [zstd, bytes]
    jdump(j, os.path.join(p, "v", "zarr.json"))
    add(name, "open fails, or reading /v fails: zstd (bytes->bytes) before bytes (array->bytes)",
        bad_manifest(name, p, {"/v": int_v}, "open_or_read_error", ["codec", "order", "zstd", "bytes"], ["/v"]),
        ["codecs: " + json.dumps(j["codecs"]), "zarr-python: " + zarr_behaviour(p, "v")])

    # shard index pointing past the end of the shard object
    name = "v3_bad_shard_index_past_end"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p, shards=(8,))   # chunks (4,) inside shards (8,)
    sp = os.path.join(p, "v", "c", "0")
    blob = bytearray(open(sp, "rb").read())
    ix = shard_index(bytes(blob), 2).copy()
    ix[1, 0] = len(blob) + 1000                         # inner chunk 1 offset beyond the object
    body = ix.astype("<u8").tobytes()
    blob[-(16 * 2 + 4):] = body + crc32c_le(body)      # index crc32c still valid
    open(sp, "wb").write(bytes(blob))
    add(name, "open succeeds; reading /v fails (shard c/0 index entry 1 points past the end of the %d-byte "
        "object; the index crc32c is valid); /good reads; never wrong data" % len(blob),
        bad_manifest(name, p, {"/v": int_v}, "read_error", ["shard", "index", "offset", "range", "bound"], ["/v"]),
        ["zarr-python: " + zarr_behaviour(p, "v")])

    # shard index crc32c mismatch
    name = "v3_bad_shard_index_crc"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p, shards=(8,))
    sp = os.path.join(p, "v", "c", "0")
    blob = bytearray(open(sp, "rb").read())
    blob[-1] ^= 0xFF
    open(sp, "wb").write(bytes(blob))
    add(name, "open succeeds; reading /v fails: the crc32c of shard c/0's index does not match",
        bad_manifest(name, p, {"/v": int_v}, "read_error", ["crc32c", "checksum", "crc"], ["/v"]),
        ["zarr-python: " + zarr_behaviour(p, "v")])

    # crc32c mismatch in a chunk
    name = "v3_bad_crc32c"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p, compressors=[Crc32cCodec()])
    cp = os.path.join(p, "v", "c", "1")
    blob = bytearray(open(cp, "rb").read())
    blob[0] ^= 0x01                                     # flip a data bit; the stored checksum is kept
    open(cp, "wb").write(bytes(blob))
    add(name, "open succeeds; reading /v fails: chunk c/1 fails its crc32c check; /good reads",
        bad_manifest(name, p, {"/v": int_v}, "read_error", ["crc32c", "checksum", "crc"], ["/v"]),
        ["zarr-python: " + zarr_behaviour(p, "v")])

    # unknown data type
    name = "v3_bad_dtype_unknown"
    p = os.path.join(bad_dir, name + ".zarr")
    with_v(p, n=4)      # same length as /good: the root dimensions do not depend on whether /v is parsed
    j = jload(os.path.join(p, "v", "zarr.json"))
    j["data_type"] = "org.example.nosuchtype"
    jdump(j, os.path.join(p, "v", "zarr.json"))
    m = bad_manifest(name, p, None, "open_error_or_ignored", ["nosuchtype", "data_type", "type"])
    add(name, "open fails naming the data type, or /v is left out (partial open, listed in "
        "_unreadable_arrays) and /good reads",
        m, ["zarr-python: " + zarr_behaviour(p, "v")])
    return out


def simulated_failure(exp):
    """The actual manifest of a reader that fails exactly as `exp` expects (checks the manifest's form)."""
    x = exp["expect"]
    msg = "simulated reader error mentioning %s" % x["mentions"][0]
    if x["outcome"] in ("open_error", "open_or_read_error"):
        return {"error": msg}
    act = json.loads(json.dumps(exp))
    del act["expect"]
    for v in x.get("read_errors", []):
        act["variables"][v]["data"] = {"error": msg}
    return act


# ----------------------------------------------------------------------------------------------
# Driver
# ----------------------------------------------------------------------------------------------
def entry(name, path, category, producer, oracle, info, fragment="#mode=zarr,file"):
    return {"name": name, "category": category, "path": path, "fragment": fragment,
            "expected": name_to_expected(name), "producer": producer, "oracle": oracle,
            "exercises": info["exercises"], "notes": info.get("notes", [])}


def name_to_expected(name):
    return name + ".expected.json"


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--no-verify", action="store_true", help="skip the compare.py self-checks")
    args = ap.parse_args(argv)

    clean()
    zp = "zarr-python %s (numcodecs %s)" % (VERSIONS["zarr"], VERSIONS["numcodecs"])
    zoracle = "zarr-python %s reading the store (hierarchy by listing), SCHEMA.md Zarr v3 rules" % VERSIONS["zarr"]
    datasets, manifests, failures = [], {}, []

    def pure(name, dirname, build, category="zarr-python-v3", producer=zp, extra=None, **kw):
        path = here(dirname)
        info = build(path, **kw)
        m = pure_manifest(path, name)
        manifests[name] = m
        e = entry(name, dirname, category, producer, zoracle, info)
        e["verification"] = ts_crosscheck(m, file_kv(path))
        if extra:
            e["verification"].update(extra(path, m))
        datasets.append(e)
        return e

    pure("v3_groups", "groups.zarr", build_groups, consolidated=False)

    def consolidated_check(path, m):
        mc = pure_manifest(path, m["name"], use_consolidated=True)
        p, f, _ = compare_manifests(m, mc)
        if f:
            failures.append("consolidated read of %s differs" % m["name"])
        return {"zarr_python_consolidated_read": "%d passed, %d failed" % (p, f)}

    pure("v3_groups_consolidated", "groups_consolidated.zarr", build_groups, consolidated=True,
         extra=consolidated_check)
    pure("v3_codecs", "codecs.zarr", build_codecs)
    pure("v3_numcodecs", "numcodecs.zarr", build_numcodecs)
    pure("v3_sharding", "sharding.zarr", build_sharding)
    pure("v3_sharding_outer_codecs", "sharding_outer_codecs.zarr", build_sharding_outer)
    pure("v3_chunk_keys", "chunk_keys.zarr", build_chunk_keys)
    pure("v3_dtypes", "dtypes.zarr", build_dtypes)
    pure("v3_unmapped_types", "unmapped_types.zarr", build_unmapped)
    pure("v3_dimension_names", "dimension_names.zarr", build_dimension_names)

    def xr_checks(path, m):
        out = xarray_crosscheck(path, m)
        out.update(consolidated_check(path, m))
        return out

    pure("v3_xarray_cf", "xarray_cf.zarr", build_xarray, category="xarray-v3",
         producer="xarray %s + zarr-python %s" % (VERSIONS["xarray"], VERSIONS["zarr"]), extra=xr_checks)

    # extension fields (manifest read before the fields were added)
    path = here("extension_ignored.zarr")
    m, info = build_extension(path)
    manifests["v3_extension_ignored"] = m
    e = entry("v3_extension_ignored", "extension_ignored.zarr", "zarr-python-v3", zp,
              zoracle + " (before the extension fields were added)", info)
    e["verification"] = ts_crosscheck(m, file_kv(path))
    datasets.append(e)

    # zip
    path = here("zip_root.zip")
    info = build_zip(path)
    zs = zarr.storage.ZipStore(path, mode="r")
    m = pure_manifest(zs, "v3_zip")
    zs.close()
    manifests["v3_zip"] = m
    e = entry("v3_zip", "zip_root.zip", "zarr-python-v3", zp + " ZipStore", zoracle + " (ZipStore, read-only)",
              info, fragment="#mode=zarr,zip")
    e["verification"] = ts_crosscheck(
        m, lambda p: {"driver": "zip", "base": {"driver": "file", "path": path}, "path": p + "/"})
    datasets.append(e)

    # tensorstore
    if ts is not None:
        pure("v3_tensorstore", "tensorstore.zarr", build_tensorstore, category="tensorstore-v3",
             producer="tensorstore %s (zarr3 driver); root group zarr.json by Python json" %
             VERSIONS["tensorstore"])
    else:
        print("tensorstore not installed (%s): v3_tensorstore skipped" % TS_ERROR)

    # NCZarr over v3
    for spelling, dirname in (("code", "nczarr_code.file"), ("doc", "nczarr_doc.file")):
        name = "v3_nczarr_%s" % spelling
        path = here(dirname)
        groups, variables = build_nczarr(path, spelling)
        m = nczarr_manifest(name, groups, variables)
        manifests[name] = m
        if spelling == "code":
            ex = ["netcdf-c draft code spelling (libnczarr/zformat3.c, ref_jsonconvention.zmap): "
                  "_nczarr_group.dimensions as an object name -> {size, unlimited} (and one bare-number form "
                  "{\"y\": 3} in /g), _nczarr_attrs.attribute_types as an object name -> type",
                  "_nczarr_superblock {version 3.0.0, format 2}; _NCProperties and every _nczarr_* key hidden",
                  "unlimited dimension time {size 4, unlimited 1}",
                  "dimension_references into the parent group (/g/v uses /g/y and /x)",
                  "char variable: uint8 with nczarr_type char", "0-d variable: shape [], scalar 1, key c",
                  "big-endian bytes codec; zstd and gzip after bytes",
                  "attribute types int32, float64 (JSON 1 -> 1.0), float32, int64, uint8, int16, uint64, char "
                  "(unicode), string list, json (object and list -> char JSON)",
                  "_FillValue attribute (temp, /g/v: missing chunks read as it); /be_int has fill_value "
                  "-2147483647 but no _FillValue attribute: not reported, its missing chunk reads -2147483647",
                  "/time fill_value 9.969209968386869e36 (netCDF default) without _FillValue attribute"]
        else:
            ex = ["docs/nczarr.md (commented-out Appendix E) list spelling: _nczarr_group.dimensions as a list "
                  "of {name, size, unlimited}, _nczarr_attrs.attribute_types as a list of "
                  "{name, configuration: {type}}; superblock {version 3.0.0, format 3}",
                  "subgroup /sub with an unlimited dimension t; /sub/series uses /sub/t and /lon",
                  "_FillValue -9999.0 with a missing chunk", "int64 extremes, uint16 65535, gzip/zstd codecs",
                  "attribute types int32 list, float64, float32, char, json (object with null)"]
        info = {"exercises": ex,
                "notes": ["zarr.json files written with Python's json module, chunks encoded with "
                          "numpy + numcodecs (bytes with explicit endian first, as netcdf-c requires)",
                          "expected manifest computed in generate.py from the values written "
                          "(SCHEMA.md NCZarr over v3), not read back by any reader",
                          "group/array membership keys are 'arrays' and 'groups' as in zformat3.c in both "
                          "spellings (the doc appendix says 'subgroups' and 'type_alias' instead of 'groups' and "
                          "'nczarr_type'; SCHEMA.md names neither, so they are not used); no string variables "
                          "(netcdf-c stores them as raw r<bits>, which SCHEMA.md has no rule for)"]}
        e = entry(name, dirname, "nczarr-v3-handcrafted",
                  "test-data/v3/generate.py (json + numcodecs %s)" % VERSIONS["numcodecs"],
                  "computed from the dataset definition in generate.py (SCHEMA.md NCZarr over v3)", info,
                  fragment="#mode=nczarr,file")
        e["verification"] = nczarr_crosscheck(path, variables)
        datasets.append(e)

    for name, m in manifests.items():
        write_manifest(m, here(name_to_expected(name)))
    bad = build_bad()

    index = {
        "schema": "zarr-conformance-index/1",
        "about": "nczarr-java's Zarr v3 test datasets; paths are relative to this file. Regenerate with "
                 "/tmp/v3venv/bin/python test-data/v3/generate.py (venv from test-data/requirements-v3.txt). "
                 "'datasets' are good inputs, 'bad' are inputs that must fail cleanly (manifest 'expect').",
        "generator": "test-data/v3/generate.py",
        "packages": VERSIONS,
        "counts": {"datasets": len(datasets), "bad": len(bad)},
        "skipped": {"numcodecs": NUMCODECS_SKIPPED,
                    "tensorstore": None if ts is not None else TS_ERROR},
        "datasets": datasets,
        "bad": bad,
    }
    jdump(index, here("INDEX.json"), indent=1)

    if not args.no_verify:
        for e in datasets + bad:
            exp = here(e["expected"])
            with tempfile.TemporaryDirectory() as td:
                act = exp
                if e in bad:
                    # a reader failing the way the manifest asks for: compare.py must pass it
                    act = os.path.join(td, "actual.json")
                    write_manifest(simulated_failure(jload(exp)), act)
                r = subprocess.run([sys.executable, COMPARE, exp, act], capture_output=True, text=True)
            last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr
            print("%-34s %s: %s" % (e["name"], "simulated failure" if e in bad else "self-compare", last))
            if r.returncode != 0:
                failures.append("compare %s: %s" % (e["name"], last))
        for e in datasets:
            for k, v in e.get("verification", {}).items():
                if "DIFFERENT" in k:
                    failures.append("%s %s %s" % (e["name"], k, v))
    total = 0
    for dp, _dn, fn in os.walk(HERE):
        total += sum(os.path.getsize(os.path.join(dp, f)) for f in fn)
    print("test-data/v3: %d datasets, %d bad inputs, %.1f KiB on disk (file sizes)" %
          (len(datasets), len(bad), total / 1024))
    if failures:
        print("FAILURES:\n  " + "\n  ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
