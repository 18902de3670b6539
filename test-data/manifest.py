#!/usr/bin/python3
"""Conformance manifests (`zarr-conformance-manifest/1`, see /work/shared/conformance/SCHEMA.md).

Two independent ways to build a manifest:

* ``from_netcdf4(path, name)``: netCDF4-python reading a netCDF file (the HDF5 "twin" made by
  ``ncgen -4`` from the same CDL as an NCZarr store, or an NCZarr/Zarr URL that netcdf-c can read).
* ``from_store(location, name, mode, reader)``: reads the Zarr metadata JSON itself (groups,
  dimensions and attributes by the SCHEMA's NCZarr or pure-Zarr rules) and the data with
  zarr-python (``reader="zarr"``) or with a small numpy/numcodecs chunk decoder in this file
  (``reader="raw"``). Accepts directories and zip files (netcdf-c layout with one top folder, or
  zarr-python root layout).

Command line:
    /usr/bin/python3 manifest.py LOCATION [--name N] [--reader zarr|raw] [-o OUT.json]
LOCATION is ``path.nc`` (netCDF4-python) or ``path#mode=nczarr,file`` / ``#mode=zarr,file`` /
``#mode=nczarr,zip`` (this module's own reader); a bare directory or .zip is read as NCZarr when
it has NCZarr metadata, else as pure Zarr.

Needs numpy, numcodecs, zarr 2.x (reader="zarr") and netCDF4 (from_netcdf4) — use /usr/bin/python3.
"""
import base64
import ctypes
import ctypes.util
import hashlib
import json
import math
import os
import sys
import zipfile
from collections.abc import Mapping, MutableMapping

import numpy as np

SCHEMA = "zarr-conformance-manifest/1"

# ----------------------------------------------------------------------------------------------
# netCDF types
# ----------------------------------------------------------------------------------------------
NC_TO_NP = {"byte": "i1", "ubyte": "u1", "short": "i2", "ushort": "u2", "int": "i4", "uint": "u4",
            "int64": "i8", "uint64": "u8", "float": "f4", "double": "f8"}
_NP_TO_NC = {("i", 1): "byte", ("u", 1): "ubyte", ("i", 2): "short", ("u", 2): "ushort",
             ("i", 4): "int", ("u", 4): "uint", ("i", 8): "int64", ("u", 8): "uint64",
             ("f", 4): "float", ("f", 8): "double", ("b", 1): "ubyte"}
NC_TYPE_NUMBERS = {1: "byte", 2: "char", 3: "short", 4: "int", 5: "float", 6: "double", 7: "ubyte",
                   8: "ushort", 9: "uint", 10: "int64", 11: "uint64", 12: "string"}

HIDDEN = {"_ARRAY_DIMENSIONS", "_NCProperties", "_Netcdf4Dimid", "_Netcdf4Coordinates",
          "_IsNetcdf4", "_SuperblockVersion"}
VIRTUAL = {"_ChunkSizes", "_Endianness", "_Storage", "_Filter", "_Codecs", "_NoFill", "_Format",
           "_DeflateLevel", "_Shuffle", "_Fletcher32"}


def is_hidden(name):
    """Attributes that are never reported (SCHEMA: *Not reported*)."""
    return name in HIDDEN or name in VIRTUAL or name.lower().startswith("_nczarr")


def numpy_nctype(dt):
    """netCDF type of a numeric numpy dtype (bool -> ubyte), else None."""
    dt = np.dtype(dt)
    return _NP_TO_NC.get((dt.kind, dt.itemsize))


def dtype_nctype(dtype_str, nczarr):
    """netCDF type of a Zarr .zarray dtype string."""
    dt = np.dtype(dtype_str)
    t = numpy_nctype(dt)
    if t:
        return t
    if dt.kind in "SU":
        n = dt.itemsize if dt.kind == "S" else dt.itemsize // 4
        if n == 1 and (nczarr or dt.kind == "S"):
            return "char"          # NCZarr: <U1/>S1/|S1 = char; pure Zarr: |S1 = char
        return "string"
    if dt.kind == "O":
        return "string"
    raise ValueError("unsupported dtype %r" % dtype_str)


# ----------------------------------------------------------------------------------------------
# Value encoding
# ----------------------------------------------------------------------------------------------
def enc_double(f):
    f = float(f)
    if math.isnan(f):
        return "NaN"
    if math.isinf(f):
        return "Infinity" if f > 0 else "-Infinity"
    return f


def enc_num(v, nctype):
    """One value of a numeric netCDF type as manifest JSON."""
    if nctype == "float":
        return enc_double(np.float32(v))
    if nctype == "double":
        return enc_double(np.float64(v))
    return int(v)


def _json_float(v):
    """A JSON metadata number (or NaN/Infinity string) as a Python float."""
    if isinstance(v, str):
        s = v.strip().lower().rstrip("f")
        if s in ("nan", "-nan", "+nan"):
            return float("nan")
        if s in ("infinity", "+infinity", "inf", "+inf"):
            return float("inf")
        if s in ("-infinity", "-inf"):
            return float("-inf")
        return float(v)
    return float(v)


def typed_values(values, nctype):
    """JSON values (number / NaN string / bool) converted to the numpy type of nctype."""
    np_t = np.dtype(NC_TO_NP[nctype])
    out = []
    for v in values:
        if isinstance(v, bool):
            v = int(v)
        if np_t.kind == "f":
            out.append(np_t.type(_json_float(v)))
        else:
            out.append(np_t.type(int(v)))
    return out


def attr_entry(nctype, value):
    """Manifest attribute entry. value: list/array of numbers, str (char), or str/list (string)."""
    if nctype == "char":
        if isinstance(value, bytes):
            value = value.decode("utf-8", errors="replace")
        return {"type": "char", "value": value.rstrip("\x00")}
    if nctype == "string":
        if isinstance(value, (list, tuple)) and len(value) == 1:
            value = value[0]
        return {"type": "string", "value": value if isinstance(value, str) else list(value)}
    vals = [enc_num(v, nctype) for v in np.asarray(value).reshape(-1)]
    return {"type": nctype, "value": vals[0] if len(vals) == 1 else vals}


def infer_zarr_attr(v):
    """Pure-Zarr attribute typed by its JSON value (SCHEMA: *Pure Zarr* / Attributes)."""
    def is_num(x):
        return isinstance(x, (int, float)) and not isinstance(x, bool)
    if isinstance(v, str):
        return {"type": "char", "value": v}
    lst = v if isinstance(v, list) else [v]
    if lst and all(isinstance(x, bool) for x in lst):
        return attr_entry("ubyte", [1 if x else 0 for x in lst])
    if lst and all(is_num(x) for x in lst):
        if all(isinstance(x, int) for x in lst):
            if all(-2**31 <= x < 2**31 for x in lst):
                return attr_entry("int", lst)
            if all(-2**63 <= x < 2**63 for x in lst):
                return attr_entry("int64", lst)
            if all(0 <= x < 2**64 for x in lst):
                return attr_entry("uint64", lst)
        return attr_entry("double", [float(x) for x in lst])
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        return {"type": "string", "value": v[0] if len(v) == 1 else list(v)}
    return {"type": "char", "value": json.dumps(v, separators=(",", ":"), ensure_ascii=False),
            "json": True}


def _string_of(x):
    """A string element: text up to its first NUL."""
    if isinstance(x, (bytes, np.bytes_)):
        return bytes(x).split(b"\x00", 1)[0].decode("utf-8")
    return str(x).split("\x00", 1)[0]


def summarize(arr, nctype):
    """The `data` entry of a variable (SCHEMA: *Data*). arr: logical values in any memory order."""
    a = np.asarray(arr)
    if np.ma.isMaskedArray(arr):
        a = np.ma.getdata(arr)
    flat = np.ascontiguousarray(a).reshape(-1)      # C order of the logical shape
    d = {"count": int(flat.size)}
    if nctype == "char":
        if flat.dtype.kind == "U":
            raw = b"".join((s.encode("latin-1") if s else b"\x00") for s in flat.tolist())
        else:
            raw = flat.astype("S1").tobytes()
        d["sha256"] = hashlib.sha256(raw).hexdigest()
        d["head"] = list(raw[:8])
        return d
    if nctype == "string":
        strs = [_string_of(x) for x in flat.tolist()]
        raw = b"".join(s.encode("utf-8") + b"\x00" for s in strs)
        d["sha256"] = hashlib.sha256(raw).hexdigest()
        d["head"] = strs[:8]
        return d
    np_t = np.dtype(NC_TO_NP[nctype])
    vals = flat.astype(np_t)
    be = vals.astype(np_t.newbyteorder(">"))
    if np_t.kind == "f":
        bits = be.view(">u%d" % np_t.itemsize).copy()
        bits[np.isnan(vals)] = 0x7FC00000 if np_t.itemsize == 4 else 0x7FF8000000000000
        raw = bits.tobytes()
    else:
        raw = be.tobytes()
    d["sha256"] = hashlib.sha256(raw).hexdigest()
    doubles = [float(x) for x in vals.tolist()]    # Python int/float -> double, exact where possible
    if not doubles:
        d.update(min=None, max=None, sum=0.0)
    else:
        s = 0.0
        for x in doubles:                            # plain left-to-right double sum
            s += x
        if any(math.isnan(x) for x in doubles):
            d.update(min="NaN", max="NaN")
        else:
            d.update(min=enc_double(min(doubles)), max=enc_double(max(doubles)))
        d["sum"] = enc_double(s)
    d["head"] = [enc_num(x, nctype) for x in vals[:8].tolist()]
    return d


def new_manifest(name):
    return {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}


def _join(gpath, name):
    return "/" + name if gpath == "/" else gpath + "/" + name


# ----------------------------------------------------------------------------------------------
# netCDF4-python (the twin, or anything netcdf-c opens)
# ----------------------------------------------------------------------------------------------
_libnc = None


def _nc_atttype(ncid, varid, name):
    """nc_inq_atttype through the libnetcdf netCDF4-python uses (char vs string attributes)."""
    global _libnc
    if _libnc is None:
        _libnc = ctypes.CDLL(ctypes.util.find_library("netcdf") or "libnetcdf.so.19")
    xt = ctypes.c_int()
    if _libnc.nc_inq_atttype(ncid, varid, name.encode(), ctypes.byref(xt)) != 0:
        return None
    return NC_TYPE_NUMBERS.get(xt.value)


def _nc4_attrs(obj, ncid, varid):
    out = {}
    for an in obj.ncattrs():
        if is_hidden(an):
            continue
        v = obj.getncattr(an)
        xt = _nc_atttype(ncid, varid, an)
        if isinstance(v, str) or (isinstance(v, np.ndarray) and v.dtype.kind in "OU"):
            if xt == "string":
                out[an] = attr_entry("string", v if isinstance(v, str) else [str(x) for x in v])
            else:
                out[an] = attr_entry("char", v)
        elif isinstance(v, list):                       # list of strings
            out[an] = attr_entry("string", [str(x) for x in v])
        elif isinstance(v, bytes):
            out[an] = attr_entry("char", v)
        else:
            arr = np.asarray(v)
            out[an] = attr_entry(xt if xt in NC_TO_NP else numpy_nctype(arr.dtype), arr)
    return out


def from_netcdf4(path, name):
    """Manifest of a netCDF file (or netcdf-c URL) read with netCDF4-python (raw values)."""
    import netCDF4
    m = new_manifest(name)
    ds = netCDF4.Dataset(path, "r")
    try:
        def walk(g, gpath):
            m["groups"][gpath] = {"dimensions": {n: len(d) for n, d in g.dimensions.items()},
                                  "attributes": _nc4_attrs(g, g._grpid, -1)}
            for vn, v in g.variables.items():
                v.set_auto_maskandscale(False)
                v.set_auto_chartostring(False)
                if v.dtype == str:
                    t = "string"
                elif np.dtype(v.dtype).kind == "S":
                    t = "char"
                else:
                    t = numpy_nctype(v.dtype)
                dims = []
                for d in v.get_dims():
                    dims.append(_join(d.group().path, d.name))
                data = v[...]
                m["variables"][_join(gpath, vn)] = {
                    "type": t, "dimensions": dims, "shape": [int(s) for s in v.shape],
                    "attributes": _nc4_attrs(v, g._grpid, v._varid),
                    "data": summarize(np.asarray(data), t)}
            for sub in g.groups.values():
                walk(sub, sub.path)
        walk(ds, "/")
    finally:
        ds.close()
    return m


# ----------------------------------------------------------------------------------------------
# Zarr / NCZarr stores
# ----------------------------------------------------------------------------------------------
class DirMapping(Mapping):
    """Read-only key -> bytes view of a directory store."""

    def __init__(self, root):
        self.root = os.path.abspath(root)

    def __getitem__(self, key):
        p = os.path.join(self.root, *key.split("/"))
        if not os.path.isfile(p):
            raise KeyError(key)
        with open(p, "rb") as f:
            return f.read()

    def __iter__(self):
        for dp, _dn, fn in os.walk(self.root):
            rel = os.path.relpath(dp, self.root)
            for f in fn:
                yield f if rel == "." else rel.replace(os.sep, "/") + "/" + f

    def __len__(self):
        return sum(1 for _ in self)


class ZipMapping(Mapping):
    """Read-only view of a zipped store: netcdf-c layout (entry 0 is the folder holding the
    dataset; the first path segment of entry 0 is the root) or root layout (.zgroup at top)."""

    def __init__(self, path):
        self.zf = zipfile.ZipFile(path)
        names = self.zf.namelist()
        if ".zgroup" in names or ".zarray" in names or not names:
            self.prefix = ""
        else:
            self.prefix = names[0].split("/", 1)[0] + "/"
        self.keys_ = [n[len(self.prefix):] for n in names
                      if n.startswith(self.prefix) and not n.endswith("/")]
        self._set = set(self.keys_)

    def __getitem__(self, key):
        if key not in self._set:
            raise KeyError(key)
        return self.zf.read(self.prefix + key)

    def __iter__(self):
        return iter(self.keys_)

    def __len__(self):
        return len(self.keys_)


class _PatchedStore(MutableMapping):
    """Read-only store for zarr-python with some metadata objects replaced."""

    def __init__(self, base, patches):
        self.base, self.patches = base, patches

    def __getitem__(self, k):
        if k in self.patches:
            return self.patches[k]
        return self.base[k]

    def __contains__(self, k):
        return k in self.patches or k in self.base

    def __iter__(self):
        return iter(set(self.base) | set(self.patches))

    def __len__(self):
        return len(set(self.base) | set(self.patches))

    def __setitem__(self, k, v):
        raise PermissionError("read-only")

    def __delitem__(self, k):
        raise PermissionError("read-only")


def open_location(location):
    """'path[#mode=...]' -> (Mapping, mode) with mode 'nczarr', 'zarr' or None (auto)."""
    path, _, frag = location.partition("#")
    if path.startswith("file://"):
        path = path[len("file://"):]
    mode = None
    if frag:
        parts = frag.split("mode=", 1)[1].split("&")[0].split(",") if "mode=" in frag else []
        if "nczarr" in parts:
            mode = "nczarr"
        elif "zarr" in parts:
            mode = "zarr"
    if os.path.isdir(path):
        return DirMapping(path), mode
    return ZipMapping(path), mode


def _jget(store, key):
    try:
        raw = store[key]
    except KeyError:
        return None
    return json.loads(raw.decode("utf-8") if isinstance(raw, (bytes, bytearray)) else raw)


def _ci(d, key):
    """Case-insensitive lookup of an NCZarr key in a dict."""
    if not isinstance(d, dict):
        return None
    for k, v in d.items():
        if k.lower() == key.lower():
            return v
    return None


def nczarr_flavour(store):
    """'v2' (keys in .zgroup/.zarray, any case), 'v3attrs' (>= 4.9.3, in .zattrs), 'v1' or None."""
    zg = _jget(store, ".zgroup") or {}
    if _ci(zg, "_nczarr_superblock") is not None:
        return "v2"
    if _ci(_jget(store, ".zattrs") or {}, "_nczarr_superblock") is not None:
        return "v3attrs"
    if _jget(store, ".nczarr") is not None:
        return "v1"
    return None


def _fill_for_zarr(dtype, value):
    """A fill value encoded as zarr-python 2 expects it in .zarray."""
    dt = np.dtype(dtype)
    if dt.kind == "S":
        b = value if isinstance(value, bytes) else str(value).encode("utf-8")
        return base64.standard_b64encode(b).decode()
    if dt.kind == "U":
        return str(value)
    if dt.kind == "f":
        f = _json_float(value)
        return "NaN" if math.isnan(f) else ("Infinity" if f == math.inf else
                                            "-Infinity" if f == -math.inf else f)
    if dt.kind == "b":
        return bool(value)
    return int(value)


def _zero_fill(dtype):
    dt = np.dtype(dtype)
    if dt.kind in "SU":
        return ""
    if dt.kind == "b":
        return False
    if dt.kind == "O":
        return None
    return 0


def _read_zarr_python(store, apath, zarray, dtype, fill):
    """Values of array `apath` read by zarr-python, with dtype/fill_value overridden."""
    import zarr
    meta = dict(zarray)
    meta["dtype"] = dtype
    meta["fill_value"] = _fill_for_zarr(dtype, fill) if fill is not None else _zero_fill(dtype)
    key = (apath + "/" if apath else "") + ".zarray"
    ps = _PatchedStore(store, {key: json.dumps(meta).encode()})
    arr = zarr.open_array(store=ps, path=apath or None, mode="r")
    return arr[...]


def _read_raw(store, apath, zarray, dtype, fill):
    """Values of array `apath` decoded chunk by chunk with numpy + numcodecs only."""
    import numcodecs
    dt = np.dtype(dtype)
    shape = tuple(zarray["shape"])
    chunks = tuple(zarray["chunks"]) if shape else ()
    order = zarray.get("order", "C")
    sep = zarray.get("dimension_separator") or "."
    comp = numcodecs.get_codec(zarray["compressor"]) if zarray.get("compressor") else None
    filters = [numcodecs.get_codec(f) for f in (zarray.get("filters") or [])]
    if fill is None:
        out = np.zeros(shape, dtype=dt) if dt.kind != "O" else np.full(shape, "", dtype=object)
    else:
        out = np.full(shape, _typed_fill(dt, fill), dtype=dt)
    prefix = apath + "/" if apath else ""
    grid = [-(-s // c) for s, c in zip(shape, chunks)]
    for idx in np.ndindex(*grid):
        key = prefix + (sep.join(str(i) for i in idx) if idx else "0")
        try:
            buf = store[key]
        except KeyError:
            continue
        if comp is not None:
            buf = comp.decode(buf)
        for f in reversed(filters):
            buf = f.decode(buf)
        if dt.kind == "O":
            a = np.asarray(buf, dtype=object).reshape(chunks, order=order)
        else:
            a = np.frombuffer(bytes(buf), dtype=dt, count=int(np.prod(chunks))).reshape(
                chunks, order=order)
        sl = tuple(slice(i * c, min((i + 1) * c, s)) for i, c, s in zip(idx, chunks, shape))
        out[sl] = a[tuple(slice(0, x.stop - x.start) for x in sl)]
    return out


def _typed_fill(dt, fill):
    if dt.kind == "S":
        return fill if isinstance(fill, bytes) else str(fill).encode("utf-8")
    if dt.kind == "f":
        return _json_float(fill)
    if dt.kind == "b":
        return bool(fill)
    return fill


def _nczarr_attrs(zattrs, types):
    out = {}
    for an, v in (zattrs or {}).items():
        if is_hidden(an):
            continue
        t = types.get(an)
        if t is None:
            out[an] = infer_zarr_attr(v)
            continue
        if isinstance(t, int) or (isinstance(t, str) and t.isdigit()):
            nct = NC_TYPE_NUMBERS[int(t)]
        else:
            code = t.lstrip("<>|=")
            if code.startswith("J"):
                continue                                   # |J0: NCZarr-internal JSON
            nct = "char" if code[0] in "SU" else numpy_nctype(np.dtype(t))
        if nct == "char":
            if isinstance(v, str):
                out[an] = attr_entry("char", v)
            elif isinstance(v, list) and all(isinstance(x, str) for x in v):
                out[an] = attr_entry("char", "".join(v))
            else:
                out[an] = attr_entry("char", json.dumps(v, separators=(",", ":")))
        elif nct == "string":
            out[an] = attr_entry("string", v)
        else:
            vals = v if isinstance(v, list) else [v]
            out[an] = attr_entry(nct, typed_values(vals, nct))
    return out


def _types_of(attr_meta):
    if not isinstance(attr_meta, dict):
        return {}
    t = attr_meta.get("types")
    return t if isinstance(t, dict) else {}


def from_store(location, name, mode=None, reader="zarr"):
    """Manifest of a Zarr/NCZarr store read by this module (reader 'zarr' or 'raw' for data)."""
    if isinstance(location, Mapping):
        store = location
    else:
        store, fmode = open_location(location)
        mode = mode or fmode
    flavour = nczarr_flavour(store)
    if mode == "nczarr" and flavour is None:
        mode = "zarr"                                        # netcdf-c falls back to pure Zarr
    if mode is None:
        mode = "nczarr" if flavour else "zarr"
    read = _read_zarr_python if reader == "zarr" else _read_raw
    m = new_manifest(name)
    if mode == "nczarr":
        _nczarr_walk(store, flavour, m, read)
    else:
        _zarr_walk(store, m, read)
    return m


def _nczarr_walk(store, flavour, m, read):
    def group(prefix, gpath):
        zg = _jget(store, prefix + ".zgroup") or {}
        za = _jget(store, prefix + ".zattrs") or {}
        if flavour == "v1":
            gm = _jget(store, prefix + ".nczgroup") or {}
            amet = _jget(store, prefix + ".nczattr") or _jget(store, prefix + ".nczattrs")
        else:
            gm = _ci(zg, "_nczarr_group") or _ci(za, "_nczarr_group") or {}
            amet = _ci(za, "_nczarr_attr")
        dims = {}
        for dn, dv in (gm.get("dims", gm.get("dimensions")) or {}).items():
            dims[dn] = int(dv["size"]) if isinstance(dv, dict) else int(dv)
        m["groups"][gpath] = {"dimensions": dims, "attributes": _nczarr_attrs(za, _types_of(amet))}
        for vn in gm.get("vars", gm.get("arrays")) or []:
            variable(prefix + vn + "/", _join(gpath, vn))
        for sg in gm.get("groups") or []:
            group(prefix + sg + "/", _join(gpath, sg))

    def variable(prefix, vpath):
        zarray = _jget(store, prefix + ".zarray")
        zattrs = _jget(store, prefix + ".zattrs") or {}
        if flavour == "v1":
            am = _jget(store, prefix + ".nczarray") or _jget(store, prefix + ".nczvar") or {}
            amet = _jget(store, prefix + ".nczattr") or _jget(store, prefix + ".nczattrs")
        else:
            am = _ci(zarray, "_nczarr_array") or _ci(zattrs, "_nczarr_array") or {}
            amet = _ci(zattrs, "_nczarr_attr")
        dimrefs = am.get("dimrefs", am.get("dimension_references"))
        scalar = (am.get("storage") == "scalar" or am.get("scalar") in (1, True, "1")
                  or zarray["shape"] == [])
        nct = dtype_nctype(zarray["dtype"], nczarr=True)
        attrs = _nczarr_attrs(zattrs, _types_of(amet))
        if scalar:
            dims, shape = [], []
        else:
            shape = [int(s) for s in zarray["shape"]]
            dims = ["/" + d.lstrip("/") for d in (dimrefs or [])]
        # data: 1 byte per char element; missing chunk -> _FillValue attr, else .zarray fill_value
        dtype = "|S1" if nct == "char" else zarray["dtype"]
        fill = zattrs.get("_FillValue", zarray.get("fill_value"))
        if nct == "char" and fill == "":
            fill = None
        apath = prefix.rstrip("/")
        data = read(store, apath, zarray, dtype, fill)
        if scalar:
            data = np.asarray(data).reshape(-1)[:1].reshape(())
        m["variables"][vpath] = {"type": nct, "dimensions": dims, "shape": shape,
                                 "attributes": attrs, "data": summarize(data, nct)}

    group("", "/")


def _zarr_walk(store, m, read):
    keys = sorted(store)
    groups = sorted({k[:-len(".zgroup")] for k in keys if k == ".zgroup" or k.endswith("/.zgroup")},
                    key=lambda p: (p.count("/"), p))
    arrays = sorted(k[:-len(".zarray")] for k in keys if k == ".zarray" or k.endswith("/.zarray"))
    root_dims = {}
    for g in groups:
        za = _jget(store, g + ".zattrs") or {}
        gpath = "/" + g.rstrip("/") if g else "/"
        m["groups"][gpath] = {"dimensions": {},
                              "attributes": {k: infer_zarr_attr(v) for k, v in za.items()
                                             if not is_hidden(k)}}
    for a in arrays:
        zarray = _jget(store, a + ".zarray")
        zattrs = _jget(store, a + ".zattrs") or {}
        vpath = "/" + a.rstrip("/")
        shape = [int(s) for s in zarray["shape"]]
        nct = dtype_nctype(zarray["dtype"], nczarr=False)
        names = zattrs.get("_ARRAY_DIMENSIONS")
        if not (isinstance(names, list) and len(names) == len(shape)
                and all(isinstance(n, str) for n in names)):
            names = ["_zdim_%d" % s for s in shape]
        for n, s in zip(names, shape):
            if root_dims.setdefault(n, s) != s:
                raise ValueError("dimension %s has lengths %d and %d" % (n, root_dims[n], s))
        attrs = {k: infer_zarr_attr(v) for k, v in zattrs.items()
                 if not is_hidden(k) and k != "_FillValue"}
        fill = zarray.get("fill_value")
        if fill is not None and np.dtype(zarray["dtype"]).kind == "S":
            fill = base64.standard_b64decode(fill)          # Zarr v2 encodes |S fills in base64
        if nct not in ("char", "string"):
            fv = zattrs.get("_FillValue", fill)
            if fv is not None:
                attrs["_FillValue"] = attr_entry(nct, typed_values([fv], nct))
        data = read(store, a.rstrip("/"), zarray, zarray["dtype"], fill)
        m["variables"][vpath] = {"type": nct, "dimensions": ["/" + n for n in names],
                                 "shape": shape, "attributes": attrs, "data": summarize(data, nct)}
    m["groups"].setdefault("/", {"dimensions": {}, "attributes": {}})
    m["groups"]["/"]["dimensions"] = root_dims


# ----------------------------------------------------------------------------------------------
def write(manifest, path):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False, allow_nan=False)
        f.write("\n")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("location")
    ap.add_argument("--name")
    ap.add_argument("--reader", choices=("zarr", "raw"), default="zarr")
    ap.add_argument("-o", "--output")
    a = ap.parse_args(argv)
    path = a.location.split("#")[0]
    name = a.name or os.path.basename(path.rstrip("/")).split(".")[0]
    if path.endswith(".nc"):
        m = from_netcdf4(a.location, name)
    else:
        m = from_store(a.location, name, reader=a.reader)
    if a.output:
        write(m, a.output)
    else:
        json.dump(m, sys.stdout, indent=1, ensure_ascii=False, allow_nan=False)
        print()


if __name__ == "__main__":
    main(sys.argv[1:])
