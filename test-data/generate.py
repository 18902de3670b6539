#!/usr/bin/python3
"""Regenerate nczarr-java's own small test datasets and their expected manifests.

    /usr/bin/python3 test-data/generate.py [--no-verify]

Idempotent: deletes every output listed in OUTPUTS, rebuilds them, then cross-checks each
expected manifest against independent readings of the store (see README.md) and exits non-zero
if a required check fails. Needs Debian's netcdf-bin (ncgen/ncdump 4.9.0), python3-zarr 2.13,
python3-netcdf4 and numpy: run with /usr/bin/python3, not a pyenv python.
"""
import copy
import glob
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import manifest as M  # noqa: E402

OUTPUTS = ["sample.file", "sample.twin.nc", "sample.zip", "edge.zarr", "small.twin.nc",
           "lowercase.file", "zattrs.file", "*.expected.json", "INDEX.json"]
ZIP_DATE = (2020, 1, 1, 0, 0, 0)
PY = "/usr/bin/python3"


def here(*p):
    return os.path.join(HERE, *p)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), r.returncode, r.stderr.strip()))
    return r.stdout


def clean():
    for pat in OUTPUTS:
        for p in glob.glob(here(pat)):
            if os.path.isdir(p):
                shutil.rmtree(p)
            else:
                os.remove(p)


# ----------------------------------------------------------------------------------------------
# ncgen
# ----------------------------------------------------------------------------------------------
def ncgen_nczarr(cdl, out_dir, tmp):
    """NCZarr store from CDL with ncgen 4.9.0. netcdf-c 4.9.0 NCZarr rejects UNLIMITED
    ("NetCDF: Invalid dimension size"), so the unlimited dimension is written with its current
    length (taken from the '// (N currently)' comment)."""
    text = open(cdl).read()
    text = re.sub(r"(\w+)\s*=\s*UNLIMITED\s*;\s*//\s*\((\d+) currently\)", r"\1 = \2 ;", text)
    fixed = os.path.join(tmp, os.path.basename(cdl))
    with open(fixed, "w") as f:
        f.write(text)
    run(["ncgen", "-4", "-o", "file://%s#mode=nczarr,file" % os.path.abspath(out_dir), fixed])


def ncgen_twin(cdl, out_nc):
    run(["ncgen", "-k", "nc4", "-o", out_nc, cdl])


# ----------------------------------------------------------------------------------------------
# JSON helpers for metadata rewrites
# ----------------------------------------------------------------------------------------------
def jload(path):
    with open(path) as f:
        return json.load(f)


def jsave(path, obj):
    with open(path, "w") as f:
        json.dump(obj, f)       # NaN stays a bare token unless the caller quoted it


def meta_files(root, name):
    out = []
    for dp, _dn, fn in os.walk(root):
        if name in fn:
            out.append(os.path.join(dp, name))
    return sorted(out)


def rel_key(root, dirpath):
    r = os.path.relpath(dirpath, root)
    return "" if r == "." else r.replace(os.sep, "/")


def rename_key(d, old, new):
    return {(new if k == old else k): v for k, v in d.items()}


# ----------------------------------------------------------------------------------------------
# 1. sample.file / sample.twin.nc
# ----------------------------------------------------------------------------------------------
def make_sample(tmp):
    ncgen_nczarr(here("sample.cdl"), here("sample.file"), tmp)
    ncgen_twin(here("sample.cdl"), here("sample.twin.nc"))
    m = M.from_netcdf4(here("sample.twin.nc"), "sample")
    M.write(m, here("sample.expected.json"))
    return m


# ----------------------------------------------------------------------------------------------
# 2. sample.zip (netcdf-c layout)
# ----------------------------------------------------------------------------------------------
def make_sample_zip(sample_manifest):
    src = here("sample.file")
    top = "sample/"          # netcdf-c: zip file name minus its extension
    with zipfile.ZipFile(here("sample.zip"), "w", zipfile.ZIP_STORED) as zf:
        entries = []
        for dp, dn, fn in os.walk(src):
            dn.sort()
            k = rel_key(src, dp)
            if k:
                entries.append((k + "/", None))
            for f in sorted(fn):
                entries.append(((k + "/" if k else "") + f, os.path.join(dp, f)))
        zi = zipfile.ZipInfo(top, ZIP_DATE)
        zi.external_attr = (0o40755 << 16) | 0x10
        zf.writestr(zi, b"")                    # entry 0: the directory holding the dataset
        for name, path in sorted(entries, key=lambda e: e[0]):
            zi = zipfile.ZipInfo(top + name, ZIP_DATE)
            zi.compress_type = zipfile.ZIP_STORED
            if path is None:
                zi.external_attr = (0o40755 << 16) | 0x10
                zf.writestr(zi, b"")
            else:
                zi.external_attr = 0o644 << 16
                with open(path, "rb") as f:
                    zf.writestr(zi, f.read())
    m = copy.deepcopy(sample_manifest)
    m["name"] = "sample_zip"
    M.write(m, here("sample_zip.expected.json"))
    return m


# ----------------------------------------------------------------------------------------------
# 3. edge.zarr (pure Zarr, zarr-python 2.13)
# ----------------------------------------------------------------------------------------------
def zero_gzip_mtime(store_dir):
    """numcodecs GZip writes the current time into the gzip header (bytes 4..7, MTIME); set it
    to 0 so that regenerating gives identical files (MTIME is not checked when decompressing)."""
    for p in meta_files(store_dir, ".zarray"):
        if (jload(p).get("compressor") or {}).get("id") != "gzip":
            continue
        for dp, _dn, fn in os.walk(os.path.dirname(p)):
            for f in fn:
                if f.startswith(".z"):
                    continue
                with open(os.path.join(dp, f), "r+b") as fh:
                    head = fh.read(4)
                    assert head[:3] == b"\x1f\x8b\x08" and not head[3] & 0x02, "unexpected gzip header"
                    fh.write(b"\0\0\0\0")


def make_edge():
    import zarr
    from numcodecs import GZip, Zlib
    store = zarr.DirectoryStore(here("edge.zarr"), normalize_keys=False)
    root = zarr.open_group(store=store, mode="w")
    root.attrs.put({
        "title": "pure Zarr edge cases for nczarr-java",
        "answer": 42,                       # int
        "big_count": 3000000000,            # int64 (does not fit int32)
        "huge": 10000000000000000000,       # uint64 (does not fit int64)
        "ratio": 2.5,                       # double
        "levels": [1, 2, 3],                # int list
        "weights": [0.25, 1, 4.5],          # double list (mixed int/float JSON numbers)
        "tags": ["alpha", "beta", "gamma"],  # list of strings -> string
        "provenance": {"generator": "test-data/generate.py", "zarr": zarr.__version__.split("+")[0],
                       "items": [1, "two"]},  # dict -> char JSON text
        "enabled": True,                    # bool -> ubyte
    })

    # order "F" 2-d int16, zlib, named dims
    a = root.create("grid_f", shape=(4, 6), chunks=(3, 4), dtype="<i2", order="F",
                    compressor=Zlib(level=1), fill_value=-1)
    a[...] = (np.arange(24, dtype="i2").reshape(4, 6) * 7 - 50)
    a.attrs.put({"_ARRAY_DIMENSIONS": ["y", "x"], "units": "count", "valid_min": -50})

    # dimension_separator "/", float64 3-d, gzip
    b = root.create("nested", shape=(2, 4, 6), chunks=(1, 3, 4), dtype="<f8",
                    dimension_separator="/", compressor=GZip(level=5), fill_value=-9999.0)
    b[...] = np.arange(48, dtype="f8").reshape(2, 4, 6) / 4.0 - 3.0
    b.attrs.put({"_ARRAY_DIMENSIONS": ["t", "y", "x"], "long_name": "nested chunk keys i/j/k",
                 "scale": [0.5, 2.0]})

    # fill_value NaN float32, one chunk missing, no _ARRAY_DIMENSIONS -> /_zdim_10
    c = root.create("nan_fill", shape=(10,), chunks=(4,), dtype="<f4", fill_value=np.nan,
                    compressor=Zlib(level=9))
    c[0:4] = [1.5, -2.25, 0.0, 3.0e10]
    c[8:10] = [7.0, -0.0]                   # chunk 1 (elements 4..7) is never written
    c.attrs.put({"comment": "chunk 1 missing: reads as NaN"})

    # 0-d array, uncompressed
    s = root.create("scalar", shape=(), dtype="<f8", fill_value=0.0, compressor=None)
    s[...] = 273.15
    s.attrs.put({"units": "K", "count": 1})

    # fixed-width byte strings |S3, zlib, named dim; an embedded NUL ends the string
    st = root.create("codes", shape=(5,), chunks=(2,), dtype="|S3", fill_value=b"",
                     compressor=Zlib(level=6))
    st[...] = np.array([b"abc", b"xy", b"", b"z", b"q\x00r"], dtype="S3")
    st.attrs.put({"_ARRAY_DIMENSIONS": ["code"], "long_name": "3-byte codes"})

    # big-endian int64, zlib, named dim shared with grid_f
    be = root.create("big_endian", shape=(4,), chunks=(3,), dtype=">i8", fill_value=0,
                     compressor=Zlib(level=1))
    be[...] = np.array([1, -2, 2**40 + 1, -(2**62)], dtype="i8")
    be.attrs.put({"_ARRAY_DIMENSIONS": ["y"], "note": "stored big-endian"})

    # subgroup
    sub = root.create_group("sub")
    sub.attrs.put({"description": "subgroup; its arrays' dimensions live in the root group",
                   "level": 1, "thresholds": [0.1, 0.9]})

    # fill_value null uint8, one chunk missing (reads as 0), uncompressed, dim /x from root
    n = sub.create("no_fill", shape=(6,), chunks=(2,), dtype="u1", fill_value=None,
                   compressor=None)
    n[0:2] = [1, 2]
    n[4:6] = [250, 255]                     # chunk 1 (elements 2..3) is never written
    n.attrs.put({"_ARRAY_DIMENSIONS": ["x"], "comment": "fill_value null: missing chunk is 0"})

    # bool, gzip, anonymous dims /_zdim_2 /_zdim_3
    f = sub.create("mask", shape=(2, 3), chunks=(2, 2), dtype="|b1", fill_value=False,
                   compressor=GZip(level=1))
    f[...] = np.array([[True, False, True], [False, False, True]])
    f.attrs.put({"flag_meanings": "off on"})

    zero_gzip_mtime(here("edge.zarr"))
    m = M.from_store(here("edge.zarr") + "#mode=zarr,file", "edge", reader="zarr")
    M.write(m, here("edge.expected.json"))
    return m


# ----------------------------------------------------------------------------------------------
# 4. lowercase.file (netcdf-c 4.9.1/4.9.2 spelling) and zattrs.file (>= 4.9.3 layout)
# ----------------------------------------------------------------------------------------------
def delete_all_fill_chunks(store_dir, var, keys):
    for k in keys:
        os.remove(os.path.join(store_dir, var, k))


def char_dtype(zarray):
    return zarray.get("dtype") in ("<U1", ">U1")


def to_lowercase(src, dst):
    """netcdf-c 4.9.1/4.9.2: same objects as 4.9.0, lower-case keys, char dtype '>S1'."""
    shutil.copytree(src, dst)
    for p in meta_files(dst, ".zgroup"):
        g = jload(p)
        g = rename_key(g, "_NCZARR_SUPERBLOCK", "_nczarr_superblock")
        g = rename_key(g, "_NCZARR_GROUP", "_nczarr_group")
        jsave(p, g)
    for p in meta_files(dst, ".zarray"):
        a = jload(p)
        if char_dtype(a):
            a["dtype"] = ">S1"
            if a.get("fill_value") == "":
                a["fill_value"] = None
        a["compressor"], a["filters"] = None, None
        jsave(p, rename_key(a, "_NCZARR_ARRAY", "_nczarr_array"))
    for p in meta_files(dst, ".zattrs"):
        z = rename_key(jload(p), "_NCZARR_ATTR", "_nczarr_attr")
        types = z.get("_nczarr_attr", {}).get("types", {})
        types = {k: (">S1" if t in ("<U1", ">U1") else t) for k, t in types.items()}
        if os.path.dirname(p) == dst:
            # 4.9.1+ root attribute (hidden by the manifest rules: starts with _nczarr)
            z["_nczarr_default_maxstrlen"] = 128
            types["_nczarr_default_maxstrlen"] = "<i4"
        attr = z.pop("_nczarr_attr", {})
        attr["types"] = types
        z["_nczarr_attr"] = attr
        jsave(p, z)


def _quote_nonfinite(v):
    if isinstance(v, float) and not np.isfinite(v):
        return "NaN" if np.isnan(v) else ("Infinity" if v > 0 else "-Infinity")
    if isinstance(v, list):
        return [_quote_nonfinite(x) for x in v]
    return v


def to_zattrs(src, dst, unlimited):
    """netcdf-c >= 4.9.3: plain .zgroup/.zarray, every NCZarr key inside .zattrs."""
    os.makedirs(dst)
    for dp, _dn, fn in os.walk(src):
        k = rel_key(src, dp)
        out = os.path.join(dst, *k.split("/")) if k else dst
        os.makedirs(out, exist_ok=True)
        for f in fn:
            if not f.startswith(".z"):
                shutil.copyfile(os.path.join(dp, f), os.path.join(out, f))   # chunks unchanged
        zattrs = jload(os.path.join(dp, ".zattrs")) if ".zattrs" in fn else {}
        attr = zattrs.pop("_NCZARR_ATTR", {}) or {}
        types = {n: (">S1" if t in ("<U1", ">U1") else t) for n, t in attr.get("types", {}).items()}
        new = {n: _quote_nonfinite(v) for n, v in zattrs.items()}
        if ".zgroup" in fn:
            g = jload(os.path.join(dp, ".zgroup"))
            jsave(os.path.join(out, ".zgroup"), {"zarr_format": 2})
            gm = g["_NCZARR_GROUP"]
            dims = {}
            for dn, n in gm["dims"].items():
                full = "/" + (k + "/" if k else "") + dn
                dims[dn] = {"size": n, "unlimited": 1} if full in unlimited else n
            new["_nczarr_group"] = {"dimensions": dims, "arrays": gm["vars"],
                                    "groups": gm["groups"]}
            types["_nczarr_group"] = "|J0"
            if "_NCZARR_SUPERBLOCK" in g:
                new["_nczarr_superblock"] = g["_NCZARR_SUPERBLOCK"]
                types["_nczarr_superblock"] = "|J0"
        if ".zarray" in fn:
            a = jload(os.path.join(dp, ".zarray"))
            am = a.pop("_NCZARR_ARRAY")
            if char_dtype(a):
                a["dtype"] = ">S1"
                if a.get("fill_value") == "":
                    a["fill_value"] = None
            a["fill_value"] = _quote_nonfinite(a.get("fill_value"))
            jsave(os.path.join(out, ".zarray"), a)
            arr = {"dimension_references": am["dimrefs"], "storage": "chunked"}
            if am.get("storage") == "scalar":
                arr["scalar"] = 1
                new["_ARRAY_DIMENSIONS"] = ["_scalar_"]
            elif "_ARRAY_DIMENSIONS" in new and not new["_ARRAY_DIMENSIONS"]:
                del new["_ARRAY_DIMENSIONS"]
            new["_nczarr_array"] = arr
            types["_nczarr_array"] = "|J0"
        types["_nczarr_attr"] = "|J0"
        new["_nczarr_attr"] = {"types": types}
        jsave(os.path.join(out, ".zattrs"), new)


def make_small(tmp):
    raw = os.path.join(tmp, "small.file")
    ncgen_nczarr(here("small.cdl"), raw, tmp)
    delete_all_fill_chunks(raw, "f", ["1"])          # f[2:4] is all _FillValue (NaN)
    ncgen_twin(here("small.cdl"), here("small.twin.nc"))
    to_lowercase(raw, here("lowercase.file"))
    to_zattrs(raw, here("zattrs.file"), unlimited={"/t"})
    base = M.from_netcdf4(here("small.twin.nc"), "small")
    out = {}
    for name in ("lowercase", "zattrs"):
        m = copy.deepcopy(base)
        m["name"] = name
        M.write(m, here(name + ".expected.json"))
        out[name] = m
    return out


# ----------------------------------------------------------------------------------------------
# INDEX.json
# ----------------------------------------------------------------------------------------------
NCGEN = "ncgen (netcdf-c 4.9.0, Debian netcdf-bin 1:4.9.0-3+b1)"
INDEX = [
    {"name": "sample", "category": "nczarr-ncgen", "path": "sample.file",
     "fragment": "#mode=nczarr,file", "expected": "sample.expected.json",
     "twin": "sample.twin.nc", "source_cdl": "sample.cdl",
     "producer": NCGEN + "; twin: ncgen -k nc4",
     "oracle": "netCDF4-python on the twin",
     "exercises": ["CF-style coordinates time/lat/lon", "_FillValue with fill values in the data",
                   "packed short with scale_factor/add_offset (data compared raw)",
                   "subgroup /obs with its own dimension and a reference to /time",
                   "char variable name(station, strlen) written as '<U1', 1 byte per element",
                   "chunks that do not divide the shape (edge chunks stored full size)"],
     "notes": ["The CLI's bundled default dataset.",
               "time is UNLIMITED in the CDL and the twin; netcdf-c 4.9.0 NCZarr cannot write "
               "unlimited dimensions, so the store has a fixed time = 4."]},
    {"name": "sample_zip", "category": "nczarr-ncgen", "path": "sample.zip",
     "fragment": "#mode=nczarr,zip", "expected": "sample_zip.expected.json",
     "twin": "sample.twin.nc", "source_cdl": "sample.cdl",
     "producer": NCGEN + " + Python zipfile",
     "oracle": "netCDF4-python on the twin (same manifest as sample, name sample_zip)",
     "exercises": ["zip storage in netcdf-c layout: entry 0 is the directory 'sample/', every key "
                   "below it", "STORED entries"],
     "notes": ["sample_zip.expected.json equals sample.expected.json except for its name."]},
    {"name": "edge", "category": "zarr-python", "path": "edge.zarr",
     "fragment": "#mode=zarr,file", "expected": "edge.expected.json",
     "producer": "zarr-python 2.13.6+ds, numcodecs 0.11.0+ds",
     "oracle": "zarr-python 2.13 (manifest.py pure-Zarr rules; null fill read as zeros)",
     "exercises": ["order F", "dimension_separator '/'", "fill_value NaN with a missing chunk",
                   "fill_value null with a missing chunk (zeros)", "0-d array", "|S3 strings",
                   "|b1 bool", "big-endian >i8", "_ARRAY_DIMENSIONS on some arrays, anonymous "
                   "/_zdim_<len> on others (all dims in the root group)", "subgroup",
                   "zlib, gzip and uncompressed arrays",
                   "int, int64, uint64, double, list, string-list, dict and bool attributes"],
     "notes": []},
    {"name": "lowercase", "category": "nczarr-handcrafted", "path": "lowercase.file",
     "fragment": "#mode=nczarr,file", "expected": "lowercase.expected.json",
     "twin": "small.twin.nc", "source_cdl": "small.cdl",
     "producer": NCGEN + " + generate.py rewrite to netcdf-c 4.9.1/4.9.2 spelling",
     "oracle": "netCDF4-python on the twin",
     "exercises": ["lower-case _nczarr_superblock/_nczarr_group/_nczarr_array/_nczarr_attr",
                   "char dtype '>S1'", "scalar (storage 'scalar', shape [1])",
                   "NaN _FillValue (bare NaN JSON token) with a missing chunk",
                   "hidden _nczarr_default_maxstrlen root attribute", "group"],
     "notes": ["chunk bytes are ncgen's; only metadata objects were rewritten"]},
    {"name": "zattrs", "category": "nczarr-handcrafted", "path": "zattrs.file",
     "fragment": "#mode=nczarr,file", "expected": "zattrs.expected.json",
     "twin": "small.twin.nc", "source_cdl": "small.cdl",
     "producer": NCGEN + " + generate.py rewrite to the netcdf-c >= 4.9.3 layout",
     "oracle": "netCDF4-python on the twin",
     "exercises": ["all NCZarr metadata in .zattrs", "'|J0' types for the internal keys",
                   "unlimited dimension {'size': 3, 'unlimited': 1}",
                   "scalar: 'scalar': 1 and _ARRAY_DIMENSIONS ['_scalar_']",
                   "fill values as quoted \"NaN\" strings", "char dtype '>S1'", "group"],
     "notes": ["chunk bytes are ncgen's; only metadata objects were rewritten"]},
]


def write_index():
    idx = {"schema": "zarr-conformance-index/1",
           "about": "nczarr-java's own test datasets; paths are relative to this file. "
                    "Regenerate with /usr/bin/python3 test-data/generate.py.",
           "datasets": INDEX}
    with open(here("INDEX.json"), "w") as f:
        json.dump(idx, f, indent=1)
        f.write("\n")


# ----------------------------------------------------------------------------------------------
# Verification
# ----------------------------------------------------------------------------------------------
class Report:
    def __init__(self):
        self.required_failed = 0
        self.lines = []

    def add(self, what, ok, detail="", required=True):
        if required and not ok:
            self.required_failed += 1
        tag = "ok  " if ok else ("FAIL" if required else "note")
        self.lines.append("%s %s%s" % (tag, what, (": " + detail) if detail else ""))
        print(self.lines[-1])


def compare(expected, actual):
    """compare.py on two manifests -> (ok, last line, failure lines)."""
    with tempfile.TemporaryDirectory() as d:
        pe, pa = os.path.join(d, "e.json"), os.path.join(d, "a.json")
        M.write(expected, pe)
        M.write(actual, pa)
        r = subprocess.run([PY, "/work/shared/conformance/compare.py", pe, pa],
                           capture_output=True, text=True)
    lines = r.stdout.strip().splitlines()
    return r.returncode == 0, (lines[-1] if lines else r.stderr.strip()), lines[:-1]


def netcdf_c_manifest(url, name):
    """netCDF4-python (netcdf-c 4.9.0) reading a store, in a child process (it may crash)."""
    code = ("import sys,json; sys.path.insert(0,%r); import manifest as M; "
            "json.dump(M.from_netcdf4(%r,%r), sys.stdout, allow_nan=False)" % (HERE, url, name))
    r = subprocess.run([PY, "-c", code], capture_output=True, text=True)
    if r.returncode != 0:
        return None, "netcdf-c failed (rc %d): %s" % (r.returncode,
                                                       (r.stderr.strip().splitlines() or [""])[-1])
    return json.loads(r.stdout), ""


def digests_vs(expected, actual, skip=()):
    """Compare only the data sha256 of each variable (except those in skip)."""
    same, diff = [], []
    for vp, v in expected["variables"].items():
        if vp in skip:
            continue
        av = actual["variables"].get(vp)
        if av and av.get("data", {}).get("sha256") == v["data"]["sha256"]:
            same.append(vp)
        else:
            diff.append(vp)
    return same, diff


def netcdf_c_safe_copy(src, dst, drop):
    """Copy of a store without the arrays in drop (also removed from NCZarr group lists) and
    without list/dict user attributes."""
    shutil.copytree(src, dst)
    for v in drop:
        shutil.rmtree(os.path.join(dst, *v.split("/")))
    for p in meta_files(dst, ".zgroup") + meta_files(dst, ".zattrs"):
        z = jload(p)
        gdir = rel_key(dst, os.path.dirname(p))
        for k, val in list(z.items()):
            if k.lower() == "_nczarr_group":
                for lk in ("vars", "arrays"):
                    if lk in val:
                        val[lk] = [a for a in val[lk]
                                   if (gdir + "/" + a if gdir else a) not in drop]
            elif (p.endswith(".zattrs") and isinstance(val, (list, dict))
                  and k != "_ARRAY_DIMENSIONS" and not k.lower().startswith("_nczarr")):
                del z[k]
        jsave(p, z)


def verify(ms):
    rep = Report()
    url = lambda p, frag: "file://" + here(p) + frag  # noqa: E731
    # stores re-read by manifest.py with zarr-python and with the raw chunk decoder
    for e in INDEX:
        exp = ms[e["name"]]
        for reader in ("zarr", "raw"):
            act = M.from_store(here(e["path"]) + e["fragment"], e["name"], reader=reader)
            ok, last, fails = compare(exp, act)
            src = "twin" if e.get("twin") else "zarr-python"
            rep.add("%s: expected(%s) vs store read by manifest.py/%s" % (e["name"], src, reader),
                    ok, last + ("; " + " | ".join(fails[:3]) if fails else ""))
    # netcdf-c 4.9.0 reading the NCZarr store directly
    act, err = netcdf_c_manifest(url("sample.file", "#mode=nczarr,file"), "sample")
    if act:
        ok, last, fails = compare(ms["sample"], act)
        rep.add("sample: expected vs netcdf-c 4.9.0 (netCDF4-python, mode=nczarr)", ok,
                last + ("; " + " | ".join(fails[:3]) if fails else ""))
    else:
        rep.add("sample: netcdf-c 4.9.0 mode=nczarr", False, err)
    r = subprocess.run(["ncdump", "-h", url("sample.file", "#mode=nczarr,file")],
                       capture_output=True, text=True)
    rep.add("sample: ncdump -h mode=nczarr", r.returncode == 0 and "group: obs" in r.stdout,
            "rc %d" % r.returncode)
    # zip holds exactly the directory's bytes
    with zipfile.ZipFile(here("sample.zip")) as zf:
        names = zf.namelist()
        same = all(zf.read("sample/" + k) == v for k, v in M.DirMapping(here("sample.file")).items())
        nfiles = sum(1 for n in names if not n.endswith("/"))
        stored = all(i.compress_type == zipfile.ZIP_STORED for i in zf.infolist())
    rep.add("sample.zip: entry 0 'sample/', STORED, same bytes as sample.file",
            names[0] == "sample/" and same and stored
            and nfiles == len(M.DirMapping(here("sample.file"))), "%d entries" % len(names))
    # zarr-python ZipStore cannot read the netcdf-c layout at the root, but can under sample/
    import zarr
    zs = zarr.ZipStore(here("sample.zip"), mode="r")
    try:
        g = zarr.open_group(store=zs, path="sample", mode="r")
        t = g["temp"][...]
        ok = float(np.sum(t)) == float(np.sum(zarr.open_group(here("sample.file"), mode="r")["temp"][...]))
        rep.add("sample.zip: zarr.ZipStore path='sample' reads temp", ok)
    finally:
        zs.close()
    # netcdf-c 4.9.0 (mode=zarr) on copies without what it cannot handle: informational only.
    # It segfaults on 0-d arrays, |S*/|b1/'>S1' arrays and fails on list/dict attributes; it
    # ignores compressors (compressed chunks come back as garbage) and byte order.
    for name, drop in (("edge", ["scalar", "codes", "sub/mask"]),
                       ("lowercase", ["label"]), ("zattrs", ["label"])):
        e = next(x for x in INDEX if x["name"] == name)
        with tempfile.TemporaryDirectory() as d:
            cp = os.path.join(d, os.path.basename(e["path"]))
            netcdf_c_safe_copy(here(e["path"]), cp, drop)
            act, err = netcdf_c_manifest("file://" + cp + "#mode=zarr,file", name)
        if act is None:
            rep.add("%s: netcdf-c 4.9.0 mode=zarr" % name, False, err, required=False)
            continue
        same, diff = digests_vs(ms[name], act, skip=set("/" + v for v in drop))
        rep.add("%s (copy without %s): netcdf-c 4.9.0 mode=zarr data digests" % (name, ", ".join(drop)),
                not diff, "equal: %s; differ: %s" % (", ".join(same) or "-", ", ".join(diff) or "-"),
                required=False)
    # sizes
    total = 0
    for pat in OUTPUTS + ["*.cdl", "*.py", "README.md"]:
        for p in glob.glob(here(pat)):
            if os.path.isdir(p):
                total += sum(os.path.getsize(os.path.join(dp, f))
                             for dp, _, fn in os.walk(p) for f in fn)
            else:
                total += os.path.getsize(p)
    rep.add("total size of test-data %d bytes" % total, total < 1_000_000)
    return rep


def main(argv):
    clean()
    ms = {}
    with tempfile.TemporaryDirectory() as tmp:
        ms["sample"] = make_sample(tmp)
        ms["sample_zip"] = make_sample_zip(ms["sample"])
        ms["edge"] = make_edge()
        ms.update(make_small(tmp))
    write_index()
    print("generated:", ", ".join(e["path"] for e in INDEX))
    if "--no-verify" in argv:
        return 0
    rep = verify(ms)
    print("%d required check(s) failed" % rep.required_failed)
    return 1 if rep.required_failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
