#!/usr/bin/env python3
"""Test data for issue 22: stores written by this autumn's producers, with expected manifests
(`zarr-conformance-manifest/1`, /work/shared/conformance/SCHEMA.md) made by the producers' own readers.

    python3.12 -m venv /work/venvs/autumn
    /work/venvs/autumn/bin/pip install -r test-data/autumn-2026/requirements.txt
    /work/venvs/autumn/bin/python test-data/autumn-2026/make.py

Deterministic: fixed values, no randomness; re-running rewrites the same files (netcdf-c's _NCProperties
names its version). Datasets (INDEX.json lists them):

* nczarr_410.file      netCDF4-python 1.7.5.1.post1 = netcdf-c 4.10.1, #mode=nczarr,file: shuffle written as
                       {"elementsize": 0}, unsigned _FillValue (65535US, 200UB, 4000000000U), a variable with
                       no _FillValue holding netCDF default fills, an unlimited dimension declared as
                       {"size","unlimited"} next to {name: n}, an untyped _QuantizeBitGroom... attribute.
                       Expected: netCDF4-python reading the store.
* nczarr_410_dimref.file  netcdf-c 4.10.1 through its C API (ctypes): /h/hv uses dimension /g/y of a sibling
                       group (netcdf-c resolves dimension references from the root). netCDF4-python cannot open
                       it (it looks dimensions up in ancestors only), so the expected manifest is read through
                       the same C library with ctypes.
* xarray_v3_fill.zarr  xarray 2026.9 + zarr-python 3.4.2, zarr_format=3: a bool mask (fill_value false), int16
                       counts holding valid zeros (fill_value 0), float32 with a base64 NaN _FillValue attribute,
                       time whose first step is 0. Expected: zarr-python reading it, SCHEMA's v3 fill rule.
* zarr342_times.zarr   zarr-python 3.4.2: numpy.datetime64 with configuration {unit, scale_factor} and a NaT
                       fill_value (a never-written chunk), bool with fill_value true.
* zarr342_strings.zarr  zarr-python 3.4.2: fixed_length_utf32 (numpy <U5, a never-written chunk), null_terminated_bytes
                       of length 3 (string) and 1 (char).
* xarray_v3_strings.zarr  xarray 2026.9: a numpy string variable, written as fixed_length_utf32.
* bad/parquet_refs     hand-written from fsspec's LazyReferenceMapper layout (kerchunk docs/source/spec.rst):
                       .zmetadata with record_size, t/refs.0.parq. No Parquet writer is installed: the refs file
                       holds only the Parquet magic; a reader must refuse the folder before reading it.
"""
import ctypes
import glob
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import manifest as M  # noqa: E402  (value summaries and attribute typing shared with the other test data)

SCHEMA = "zarr-conformance-manifest/1"


def fresh(name):
    p = os.path.join(HERE, name)
    shutil.rmtree(p, ignore_errors=True)
    return p


def write_manifest(m, name):
    with open(os.path.join(HERE, name + ".expected.json"), "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def libnetcdf():
    """The libnetcdf netCDF4-python bundles (netcdf-c 4.10.1), not the system one."""
    import netCDF4
    libs = glob.glob(os.path.join(os.path.dirname(os.path.dirname(netCDF4.__file__)), "netcdf4.libs",
                                  "libnetcdf-*.so*"))
    return ctypes.CDLL(libs[0])


# ------------------------------------------------------------------------------------------------
def nczarr_410():
    import netCDF4 as nc
    path = fresh("nczarr_410.file")
    url = "file://" + path + "#mode=nczarr,file"
    d = nc.Dataset(url, "w")
    d.setncattr("title", "netcdf-c 4.10.1 NCZarr")
    d.createDimension("x", 6)
    d.createDimension("t", None)
    f8 = d.createVariable("f8", "f8", ("x",), shuffle=True, zlib=True)
    f8[:] = np.array([1.5, -2.25, 3.0e10, 0.0, -1.0e-5, 42.0])
    i4 = d.createVariable("i4", "i4", ("t", "x"), shuffle=True, zlib=True)
    i4[0:3, :] = np.arange(18, dtype="i4").reshape(3, 6) * 1000003 - 7000000
    u2 = d.createVariable("u2", "u2", ("x",), fill_value=65535, shuffle=True, zlib=True)
    u2[:] = np.array([1, 65535, 3, 65534, 65535, 0], dtype="u2")
    u2.units = "count"
    u1 = d.createVariable("u1", "u1", ("x",), fill_value=200)
    u1[:] = np.array([0, 200, 255, 199, 200, 1], dtype="u1")
    u4 = d.createVariable("u4", "u4", ("x",), fill_value=4000000000, shuffle=True, zlib=True)
    u4[:] = np.array([4000000000, 1, 4294967295, 4000000000, 7, 0], dtype="u4")
    # no _FillValue: the elements never written hold the netCDF default fill (-32767), ncdump prints "_"
    dflt = d.createVariable("dflt", "i2", ("x",))
    dflt[0:2] = [5, -5]
    dfloat = d.createVariable("dfloat", "f4", ("x",))
    dfloat[3:5] = [0.5, 2.5]
    q = d.createVariable("q", "f4", ("x",), significant_digits=3)
    q[:] = np.arange(6, dtype="f4") / 7
    g = d.createGroup("g")
    g.createDimension("y", 2)
    gv = g.createVariable("gv", "u2", ("y", "x"), shuffle=True, zlib=True)
    gv[:] = np.array([[1, 2, 3, 4, 5, 6], [65535, 9, 8, 7, 6, 5]], dtype="u2")
    d.close()
    M._libnc = libnetcdf()  # attribute types from the same library that wrote the store
    m = M.from_netcdf4(url, "autumn_nczarr_410")
    write_manifest(m, "autumn_nczarr_410")


def nczarr_410_dimref():
    path = fresh("nczarr_410_dimref.file")
    url = ("file://" + path + "#mode=nczarr,file").encode()
    lib = libnetcdf()
    NC_NETCDF4, NC_INT, NC_CLOBBER = 0x1000, 4, 0
    ncid, g, h, y, x, hv, rv = (ctypes.c_int() for _ in range(7))

    def ok(rc):
        if rc != 0:
            raise RuntimeError(lib.nc_strerror(rc))
    ok(lib.nc_create(url, NC_NETCDF4 | NC_CLOBBER, ctypes.byref(ncid)))
    ok(lib.nc_def_dim(ncid, b"x", 3, ctypes.byref(x)))
    ok(lib.nc_def_grp(ncid, b"g", ctypes.byref(g)))
    ok(lib.nc_def_dim(g, b"y", 2, ctypes.byref(y)))
    ok(lib.nc_def_grp(ncid, b"h", ctypes.byref(h)))
    dims = (ctypes.c_int * 2)(y.value, x.value)
    ok(lib.nc_def_var(h, b"hv", NC_INT, 2, dims, ctypes.byref(hv)))
    ok(lib.nc_def_var(ncid, b"rv", NC_INT, 1, (ctypes.c_int * 1)(x.value), ctypes.byref(rv)))
    ok(lib.nc_put_var_int(h, hv, (ctypes.c_int * 6)(10, 11, 12, 20, 21, 22)))
    ok(lib.nc_put_var_int(ncid, rv, (ctypes.c_int * 3)(-1, 0, 1)))
    ok(lib.nc_close(ncid))
    # read back through netcdf-c
    ok(lib.nc_open(url, 0, ctypes.byref(ncid)))
    ok(lib.nc_inq_grp_ncid(ncid, b"h", ctypes.byref(h)))
    ok(lib.nc_inq_varid(h, b"hv", ctypes.byref(hv)))
    ndims, dimids = ctypes.c_int(), (ctypes.c_int * 8)()
    ok(lib.nc_inq_varndims(h, hv, ctypes.byref(ndims)))
    ok(lib.nc_inq_vardimid(h, hv, dimids))
    paths, shape = [], []
    for i in range(ndims.value):
        name, ln = ctypes.create_string_buffer(256), ctypes.c_size_t()
        ok(lib.nc_inq_dim(h, dimids[i], name, ctypes.byref(ln)))
        paths.append({"y": "/g/y", "x": "/x"}[name.value.decode()])
        shape.append(ln.value)
    buf = (ctypes.c_int * 6)()
    ok(lib.nc_get_var_int(h, hv, buf))
    hv_vals = np.array(list(buf), dtype="i4").reshape(shape)
    ok(lib.nc_inq_varid(ncid, b"rv", ctypes.byref(rv)))
    rbuf = (ctypes.c_int * 3)()
    ok(lib.nc_get_var_int(ncid, rv, rbuf))
    ok(lib.nc_close(ncid))
    m = {"schema": SCHEMA, "name": "autumn_nczarr_410_dimref",
         "groups": {"/": {"dimensions": {"x": 3}, "attributes": {}},
                    "/g": {"dimensions": {"y": 2}, "attributes": {}},
                    "/h": {"dimensions": {}, "attributes": {}}},
         "variables": {
             "/h/hv": {"type": "int", "dimensions": paths, "shape": shape, "attributes": {},
                       "data": M.summarize(hv_vals, "int")},
             "/rv": {"type": "int", "dimensions": ["/x"], "shape": [3], "attributes": {},
                     "data": M.summarize(np.array(list(rbuf), dtype="i4"), "int")}}}
    write_manifest(m, "autumn_nczarr_410_dimref")


# ------------------------------------------------------------------------------------------------
V3_TYPES = {"bool": "ubyte", "int8": "byte", "uint8": "ubyte", "int16": "short", "uint16": "ushort",
            "int32": "int", "uint32": "uint", "int64": "int64", "uint64": "uint64", "float32": "float",
            "float64": "double", "numpy.datetime64": "int64", "numpy.timedelta64": "int64"}
UNITS = {"s": "seconds", "ms": "milliseconds", "us": "microseconds", "ns": "nanoseconds", "D": "days",
         "h": "hours", "m": "minutes", "W": "weeks"}


def v3_manifest(path, name):
    """A pure Zarr v3 store read with zarr-python 3.4.2 under SCHEMA's v3 rules (numeric and time types)."""
    import base64
    import zarr
    root = zarr.open_group(store=path, mode="r")
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    m["groups"]["/"] = {"dimensions": {}, "attributes": {k: M.infer_zarr_attr(v)
                                                         for k, v in root.attrs.asdict().items()}}
    dims = {}
    for p, node in sorted(root.members(max_depth=None), key=lambda kv: kv[0]):
        if isinstance(node, zarr.Group):
            continue    # make_codecs.v3_manifest_groups lists subgroups
        md = node.metadata.to_dict()
        dt = md["data_type"] if isinstance(md["data_type"], str) else md["data_type"]["name"]
        if dt == "null_terminated_bytes":
            nct = "char" if md["data_type"]["configuration"]["length_bytes"] == 1 else "string"
        elif dt == "fixed_length_utf32":
            nct = "string"
        else:
            nct = V3_TYPES[dt]
        shape = [int(s) for s in node.shape]
        names = [n if n is not None else "_zdim_%d" % s
                 for n, s in zip(md.get("dimension_names") or [None] * len(shape), shape)]
        for n, s in zip(names, shape):
            assert dims.setdefault(n, s) == s
        raw = node.attrs.asdict()
        attrs = {k: M.infer_zarr_attr(v) for k, v in raw.items() if not M.is_hidden(k) and k != "_FillValue"}
        values = np.asarray(node[...])
        if dt.startswith("numpy."):
            conf = md["data_type"]["configuration"]
            assert conf["scale_factor"] == 1
            unit = UNITS[conf["unit"]]
            if dt == "numpy.datetime64":
                attrs.setdefault("units", M.attr_entry("char", unit + " since 1970-01-01T00:00:00"))
                attrs.setdefault("calendar", M.attr_entry("char", "proleptic_gregorian"))
            else:
                attrs.setdefault("units", M.attr_entry("char", unit))
            values = values.view("i8")
        fv = raw.get("_FillValue")
        if nct in ("string", "char"):
            fv = None    # SCHEMA: never a _FillValue for char/string
        if fv is not None:   # SCHEMA (2026-11-25): only the attribute; a string is base64 of little-endian bytes
            if isinstance(fv, str):
                b = base64.b64decode(fv)
                fv = np.frombuffer(b, "<f8" if len(b) == 8 else "<f4")[0] if nct in ("float", "double") else \
                    np.frombuffer(b, "<i%d" % len(b))[0]
            attrs["_FillValue"] = M.attr_entry(nct, M.typed_values([float(fv) if nct in ("float", "double")
                                                                    else int(fv)], nct))
        elif dt.startswith("numpy.") and np.isnat(node.fill_value):
            attrs["_FillValue"] = M.attr_entry("int64", [-9223372036854775808])
        m["variables"]["/" + p] = {"type": nct, "dimensions": ["/" + n for n in names], "shape": shape,
                                   "attributes": attrs, "data": M.summarize(values, nct)}
    m["groups"]["/"]["dimensions"] = dims
    return m


def xarray_v3_fill():
    import pandas as pd
    import xarray as xr
    path = fresh("xarray_v3_fill.zarr")
    ds = xr.Dataset(
        {"mask": (("y", "x"), np.array([[True, False, True], [False, False, True]])),
         "count": (("y", "x"), np.array([[0, 1, 0], [2, 0, 3]], dtype="i2")),
         "temp": (("time", "x"), np.array([[0.0, np.nan, 1.5], [2.0, 3.0, np.nan]], dtype="f4"))},
        coords={"time": pd.date_range("2026-01-01", periods=2, freq="D"), "x": [0, 1, 2], "y": [10, 20]},
        attrs={"title": "xarray v3: fill_value is not _FillValue"})
    ds.to_zarr(path, zarr_format=3, mode="w", consolidated=True)
    write_manifest(v3_manifest(path, "autumn_xarray_v3_fill"), "autumn_xarray_v3_fill")


def zarr342_times():
    import zarr
    path = fresh("zarr342_times.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    t = root.create_array("when", shape=(6,), chunks=(3,), dtype="datetime64[s]", fill_value=np.datetime64("NaT"),
                          dimension_names=["n"])
    t[0:3] = np.array(["2026-11-01T00:00:00", "NaT", "1970-01-01T00:00:00"], dtype="datetime64[s]")
    b = root.create_array("flag", shape=(6,), chunks=(3,), dtype="bool", fill_value=True, dimension_names=["n"])
    b[0:3] = [False, True, False]
    zarr.consolidate_metadata(path)
    write_manifest(v3_manifest(path, "autumn_zarr342_times"), "autumn_zarr342_times")


def zarr342_strings():
    import xarray as xr
    import zarr
    path = fresh("zarr342_strings.zarr")
    root = zarr.open_group(path, mode="w", zarr_format=3)
    u = root.create_array("names", shape=(4,), chunks=(2,), dtype="<U5", dimension_names=["n"])
    u[0:2] = np.array(["h\u00e9llo", "ab"], dtype="<U5")       # chunk 1 never written: fill ""
    s = root.create_array("codes", shape=(4,), chunks=(2,), dtype="S3", dimension_names=["n"])
    s[:] = np.array([b"abc", b"x", b"", b"yz"], dtype="S3")
    c = root.create_array("flag", shape=(4,), chunks=(2,), dtype="S1", dimension_names=["n"])
    c[:] = np.array([b"a", b"b", b"", b"d"], dtype="S1")
    zarr.consolidate_metadata(path)
    write_manifest(v3_manifest(path, "autumn_zarr342_strings"), "autumn_zarr342_strings")
    # xarray >= 2026.4 writes numpy strings as fixed_length_utf32
    xpath = fresh("xarray_v3_strings.zarr")
    ds = xr.Dataset({"station": (("s",), np.array(["Oslo", "Bergen", "Troms\u00f8"]))},
                    attrs={"title": "numpy strings"})
    ds.to_zarr(xpath, zarr_format=3, mode="w", consolidated=True)
    write_manifest(v3_manifest(xpath, "autumn_xarray_v3_strings"), "autumn_xarray_v3_strings")


# ------------------------------------------------------------------------------------------------
def parquet_refs():
    path = fresh(os.path.join("bad", "parquet_refs"))
    os.makedirs(os.path.join(path, "t"))
    zm = {"metadata": {
        ".zgroup": {"zarr_format": 2},
        ".zattrs": {"title": "kerchunk Parquet references"},
        "t/.zarray": {"zarr_format": 2, "shape": [4], "chunks": [2], "dtype": "<f8", "fill_value": 0.0,
                      "order": "C", "compressor": None, "filters": None},
        "t/.zattrs": {"_ARRAY_DIMENSIONS": ["x"]}}, "record_size": 100000}
    with open(os.path.join(path, ".zmetadata"), "w", encoding="utf-8") as f:
        json.dump(zm, f, indent=1, sort_keys=True)
    with open(os.path.join(path, "t", "refs.0.parq"), "wb") as f:
        f.write(b"PAR1")
    with open(os.path.join(HERE, "bad", "parquet_refs.expected.json"), "w", encoding="utf-8") as f:
        json.dump({"schema": SCHEMA, "name": "autumn_bad_parquet_refs",
                   # read as Parquet references (never as plain Zarr): the truncated record file fails /t
                   "expect": {"outcome": "open_or_read_error", "mentions": ["refs.0.parq", "parquet"],
                              "read_errors": ["/t"]}}, f, indent=1, sort_keys=True)
        f.write("\n")


def main():
    nczarr_410()
    nczarr_410_dimref()
    xarray_v3_fill()
    zarr342_times()
    zarr342_strings()
    parquet_refs()


if __name__ == "__main__":
    main()
