#!/usr/bin/env python3
"""Issue 14 test data: CF-1.13 aggregation files (cfdm, and hand-written per CF section 2.8) and
S3netCDF4-style CFA-0.4 / CFA-0.5 master-array files, with small netCDF-4 and netCDF-3 fragments,
all URIs relative to the aggregation file.

Run with the pinned venv (test-data/requirements-aggregation.txt); cfdm needs the UDUNITS-2 C
library (Debian: libudunits2-0; or LD_LIBRARY_PATH + UDUNITS2_XML_PATH to an unpacked copy):

    python3 -m venv /tmp/venv-14 && /tmp/venv-14/bin/pip install -r test-data/requirements-aggregation.txt
    cd test-data/aggregation && /tmp/venv-14/bin/python generate.py

s3netcdf4 2.1rc1 does not install on Python 3.11 (its build fails), so the CFA-0.4/0.5 files are
written here with netCDF4-python from the S3netCDF4 technical overview (Figures 2, 3 and 5).

Oracles (never the Java reader): every NAME.nc aggregation has NAME.plain.nc holding the same
variables as ordinary netCDF variables. For the cfdm-written files the plain file is written by
cfdm from the same field (and the script checks cfdm.read(aggregation) == cfdm.read(plain)); for
the hand-written CF-1.13 files it holds the data cfdm.read returns for the aggregation; for CFA the
numpy arrays the fragments were cut from. NAME.expected.json is test-data/manifest.py
(netCDF4-python) on NAME.plain.nc.
"""
import json
import os
import sys

import cfdm
import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import manifest  # noqa: E402

os.chdir(HERE)
INDEX = []


def clean(names):
    for n in names:
        if os.path.exists(n):
            os.remove(n)


def add(name, category, producer, oracle):
    m = manifest.from_netcdf4(name + ".plain.nc", name)
    manifest.write(m, name + ".expected.json")
    INDEX.append({"name": name, "category": category, "path": name + ".nc", "fragment": "",
                  "expected": name + ".expected.json", "twin": name + ".plain.nc",
                  "producer": producer, "oracle": oracle})


# ------------------------------------------------------------------------------------------------
# cfdm: example field 0 (q(latitude 5, longitude 8)) cut into fragments, aggregation written by cfdm
# ------------------------------------------------------------------------------------------------
def cfdm_case(name, pieces, axis_splits, fmt):
    """pieces: list of (index tuple, fragment file, netCDF format)."""
    f = cfdm.example_field(0)
    for index, path, pfmt in pieces:
        clean([path])
        cfdm.write(f[index], path, fmt=pfmt)
    frags = [cfdm.read(path, cfa_write="field")[0] for _, path, _ in pieces]
    rows = []
    k = 0
    for nrow in axis_splits[0]:
        row = frags[k:k + axis_splits[1]]
        k += axis_splits[1]
        rows.append(row[0] if len(row) == 1 else cfdm.Field.concatenate(row, axis=1))
    agg = rows[0] if len(rows) == 1 else cfdm.Field.concatenate(rows, axis=0)
    clean([name + ".nc", name + ".plain.nc"])
    cfdm.write(agg, name + ".nc", fmt=fmt, cfa={"constructs": "field", "uri": "relative"})
    cfdm.write(f, name + ".plain.nc", fmt="NETCDF4")
    a = cfdm.read(name + ".nc")[0]
    p = cfdm.read(name + ".plain.nc")[0]
    assert a.equals(p), name
    assert np.array_equal(a.data.array, f.data.array), name
    add(name, "cf-1.13", "cfdm %s cfdm.write(cfa='field', uri='relative')" % cfdm.__version__,
        "cfdm.write of the same field without aggregation (checked equal by cfdm.read)")


cfdm_case("cf_lat", [(slice(0, 2), "cf_lat_f0.nc", "NETCDF4"), (slice(2, 5), "cf_lat_f1.nc", "NETCDF3_CLASSIC")],
          ([2, 3], 1), "NETCDF4")
cfdm_case("cf_lat_nc3", [(slice(0, 3), "cf_lat_nc3_f0.nc", "NETCDF3_CLASSIC"),
                         (slice(3, 5), "cf_lat_nc3_f1.nc", "NETCDF4")], ([3, 2], 1), "NETCDF3_CLASSIC")
cfdm_case("cf_grid", [((slice(0, 2), slice(0, 4)), "cf_grid_f00.nc", "NETCDF4"),
                      ((slice(0, 2), slice(4, 8)), "cf_grid_f01.nc", "NETCDF3_CLASSIC"),
                      ((slice(2, 5), slice(0, 4)), "cf_grid_f10.nc", "NETCDF4"),
                      ((slice(2, 5), slice(4, 8)), "cf_grid_f11.nc", "NETCDF4")], ([2, 3], 2), "NETCDF4")


# ------------------------------------------------------------------------------------------------
# hand-written CF-1.13 (section 2.8): padded map, omitted size-1 dimension, units conversion,
# fragment missing values, type conversion, per-fragment identifiers; unique_values
# ------------------------------------------------------------------------------------------------
def write_fragment(path, fmt, var, dims, dtype, data, attrs):
    clean([path])
    with netCDF4.Dataset(path, "w", format=fmt) as ds:
        for d, n in dims:
            ds.createDimension(d, n)
        fill = attrs.pop("_FillValue", None)
        v = ds.createVariable(var, dtype, [d for d, _ in dims], fill_value=fill)
        v.set_auto_maskandscale(False)
        for k, val in attrs.items():
            v.setncattr(k, val)
        v[...] = data
        ds.Conventions = "CF-1.13"


def plain_from_cfdm(name, var, dims, dtype, attrs, fill):
    """The plain twin: the data cfdm reads from the aggregation, filled with the missing value."""
    fields = cfdm.read(name + ".nc")
    f = [x for x in fields if x.nc_get_variable() == var][0]
    arr = np.ma.filled(f.data.array, fill).astype(dtype)
    clean([name + ".plain.nc"])
    with netCDF4.Dataset(name + ".plain.nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        for d, n in dims:
            ds.createDimension(d, n)
        v = ds.createVariable(var, dtype, [d for d, _ in dims], fill_value=fill)
        v.set_auto_maskandscale(False)
        for k, val in attrs.items():
            v.setncattr(k, val)
        v[...] = arr
    return arr


def cf_edge():
    name = "cf_edge"
    # tas(time 4, lat 3) float64 K; fragments along time of sizes 1, 2, 1
    write_fragment("cf_edge_f0.nc", "NETCDF4", "tas", [("time", 1), ("lat", 3)], "f8",
                   np.array([[10.0, 20.0, 30.0]]), {"units": "degC"})         # degC
    write_fragment("cf_edge_f1.nc", "NETCDF3_CLASSIC", "t2", [("time", 2), ("lat", 3)], "f4",
                   np.array([[280.5, 1e20, 282.5], [283.5, 284.5, 285.5]], dtype="f4"),
                   {"units": "K", "_FillValue": np.float32(1e20)})            # missing value, float32
    write_fragment("cf_edge_f2.nc", "NETCDF4", "tas", [("t", 1), ("y", 3)], "i2",
                   np.array([[290, 291, 292]], dtype="i2"), {"units": "K"})   # int16
    clean([name + ".nc"])
    with netCDF4.Dataset(name + ".nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("time", 4)
        ds.createDimension("lat", 3)
        ds.createDimension("f_time", 3)
        ds.createDimension("f_lat", 1)
        ds.createDimension("j", 2)
        ds.createDimension("i", 3)
        t = ds.createVariable("time", "f8", ("time",))
        t.units = "days since 2000-01-01"
        t.standard_name = "time"
        t[:] = [0, 1, 2, 3]
        la = ds.createVariable("lat", "f8", ("lat",))
        la.units = "degrees_north"
        la.standard_name = "latitude"
        la[:] = [-10, 0, 10]
        m = ds.createVariable("fragment_map", "i8", ("j", "i"), fill_value=-1)
        m[...] = np.ma.masked_array([[1, 2, 1], [3, 0, 0]], mask=[[0, 0, 0], [0, 1, 1]])
        u = ds.createVariable("fragment_uris", str, ("f_time", "f_lat"))
        u[...] = np.array([["cf_edge_f0.nc"], ["cf_edge_f1.nc"], ["cf_edge_f2.nc"]], dtype=object)
        idv = ds.createVariable("fragment_identifiers", str, ("f_time", "f_lat"))
        idv[...] = np.array([["tas"], ["t2"], ["tas"]], dtype=object)
        v = ds.createVariable("tas", "f8", (), fill_value=-999.0)
        v.standard_name = "air_temperature"
        v.units = "K"
        v.aggregated_dimensions = "time lat"
        v.aggregated_data = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"
    plain_from_cfdm(name, "tas", [("time", 4), ("lat", 3)], "f8",
                    {"standard_name": "air_temperature", "units": "K"}, -999.0)
    # coordinates: copy into the plain file
    with netCDF4.Dataset(name + ".nc") as src, netCDF4.Dataset(name + ".plain.nc", "a") as ds:
        for c in ("time", "lat"):
            v = ds.createVariable(c, "f8", (c,))
            for k in src[c].ncattrs():
                v.setncattr(k, src[c].getncattr(k))
            v[:] = src[c][:]
    add(name, "cf-1.13", "netCDF4-python %s, by hand per CF-1.13 section 2.8" % netCDF4.__version__,
        "cfdm %s reading the aggregation" % cfdm.__version__)


def cf_unique():
    name = "cf_unique"
    clean([name + ".nc"])
    with netCDF4.Dataset(name + ".nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("x", 6)
        ds.createDimension("f_x", 2)
        ds.createDimension("j", 1)
        ds.createDimension("i", 2)
        m = ds.createVariable("fragment_map", "i4", ("j", "i"))
        m[...] = [[2, 4]]
        uv = ds.createVariable("fragment_unique_values", "i4", ("f_x",))
        uv[...] = [7, 9]
        v = ds.createVariable("flag", "i4", (), fill_value=-1)
        v.long_name = "a flag"
        v.aggregated_dimensions = "x"
        v.aggregated_data = "map: fragment_map unique_values: fragment_unique_values"
    plain_from_cfdm(name, "flag", [("x", 6)], "i4", {"long_name": "a flag"}, -1)
    add(name, "cf-1.13", "netCDF4-python %s, by hand per CF-1.13 section 2.8" % netCDF4.__version__,
        "cfdm %s reading the aggregation" % cfdm.__version__)


def cf_squeeze():
    """A fragment that omits a size-1 aggregated dimension (CF 2.8.2). cfdm 1.13.3 cannot read this
    (its xnetcdf fragment backend raises IndexError where cfdm expects ValueError), so the oracle is
    the numpy array the fragments were cut from."""
    name = "cf_squeeze"
    data = np.arange(2 * 3, dtype="f4").reshape(2, 3) + 0.25
    write_fragment("cf_squeeze_f0.nc", "NETCDF4", "v", [("lat", 3)], "f4", data[0], {})
    write_fragment("cf_squeeze_f1.nc", "NETCDF3_CLASSIC", "v", [("time", 1), ("lat", 3)], "f4", data[1:], {})
    clean([name + ".nc", name + ".plain.nc"])
    with netCDF4.Dataset(name + ".nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        for d, n in [("time", 2), ("lat", 3), ("f_time", 2), ("f_lat", 1), ("j", 2), ("i", 2)]:
            ds.createDimension(d, n)
        m = ds.createVariable("fragment_map", "i4", ("j", "i"), fill_value=-1)
        m[...] = np.ma.masked_array([[1, 1], [3, 0]], mask=[[0, 0], [0, 1]])
        u = ds.createVariable("fragment_uris", str, ("f_time", "f_lat"))
        u[...] = np.array([["cf_squeeze_f0.nc"], ["cf_squeeze_f1.nc"]], dtype=object)
        idv = ds.createVariable("fragment_identifiers", str, ())
        idv[0] = "v"
        v = ds.createVariable("v", "f4", ())
        v.aggregated_dimensions = "time lat"
        v.aggregated_data = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"
    with netCDF4.Dataset(name + ".plain.nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("time", 2)
        ds.createDimension("lat", 3)
        ds.createVariable("v", "f4", ("time", "lat"))[...] = data
    add(name, "cf-1.13", "netCDF4-python %s, by hand per CF-1.13 section 2.8.2" % netCDF4.__version__,
        "the numpy array the fragments were cut from (cfdm 1.13.3 cannot read omitted size-1 dimensions)")


cf_edge()
cf_unique()
cf_squeeze()


# ------------------------------------------------------------------------------------------------
# CFA-0.4 and CFA-0.5 master-array files as S3netCDF4 2.x writes them (technical overview, Figs 2-5)
# ------------------------------------------------------------------------------------------------
TMP = (np.arange(4 * 1 * 3 * 4, dtype="f4").reshape(4, 1, 3, 4) * 0.5 + 270).astype("f4")
PARTS = [((0, 0, 0, 0), (slice(0, 2), slice(0, 1), slice(0, 3), slice(0, 4))),
         ((1, 0, 0, 0), (slice(2, 4), slice(0, 1), slice(0, 3), slice(0, 4)))]
DIMS = [("time", 4), ("level", 1), ("latitude", 3), ("longitude", 4)]
ATTRS = {"standard_name": "temperature", "units": "degrees C", "long_name": "Surface temperature at 1m"}


def cfa_master(name, version, ds):
    ds.Conventions = "CF-1.7 CFA-%s" % version
    for d, n in DIMS:
        ds.createDimension(d, n)
        c = ds.createVariable(d, "f8", (d,))
        c[:] = np.arange(n, dtype="f8")
    v = ds.createVariable("tmp", "f4", (), fill_value=np.float32(2e20))
    for k, val in ATTRS.items():
        v.setncattr(k, val)
    v.cf_role = "cfa_variable"
    v.cfa_dimensions = " ".join(d for d, _ in DIMS)
    return v


def cfa_case(name, version):
    partitions = []
    for index, sl in PARTS:
        path = "%s.tmp.%s.nc" % (name, ".".join(map(str, index)))
        sub = TMP[sl]
        write_fragment(path, "NETCDF4", "tmp", DIMS_SUB(sub.shape), "f4", sub,
                       dict(ATTRS, _FillValue=np.float32(2e20)))
        partitions.append({"subarray": {"ncvar": "tmp", "file": path, "format": "NETCDF4",
                                        "shape": list(sub.shape)},
                           "index": list(index),
                           "location": [[s.start, s.stop - 1] for s in sl]})
    clean([name + ".nc"])
    with netCDF4.Dataset(name + ".nc", "w", format="NETCDF4") as ds:
        v = cfa_master(name, version, ds)
        if version == "0.4":
            v.cfa_array = json.dumps({"pmshape": [2, 1, 1, 1], "pmdimensions": [d for d, _ in DIMS],
                                      "Partitions": partitions})
        else:
            v.cfa_group = "cfa_tmp"
            g = ds.createGroup("cfa_tmp")
            for d, n in zip([d for d, _ in DIMS], [2, 1, 1, 1]):
                g.createDimension(d, n)
            g.createDimension("ndimensions", 4)
            g.createDimension("bounds", 2)
            pd = tuple(d for d, _ in DIMS)
            g.createVariable("pmshape", "i4", ("ndimensions",))[:] = [2, 1, 1, 1]
            g.createVariable("pmdimensions", str, ())[0] = " ".join(pd)
            ix = g.createVariable("index", "i4", pd + ("ndimensions",))
            loc = g.createVariable("location", "i4", pd + ("ndimensions", "bounds"))
            ncv = g.createVariable("ncvar", str, pd)
            fil = g.createVariable("file", str, pd)
            fmt = g.createVariable("format", str, pd)
            shp = g.createVariable("shape", "i4", pd + ("ndimensions",))
            for p in partitions:
                i = tuple(p["index"])
                ix[i] = p["index"]
                loc[i] = p["location"]
                ncv[i] = p["subarray"]["ncvar"]
                fil[i] = p["subarray"]["file"]
                fmt[i] = p["subarray"]["format"]
                shp[i] = p["subarray"]["shape"]
    clean([name + ".plain.nc"])
    with netCDF4.Dataset(name + ".plain.nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.7 CFA-%s" % version
        for d, n in DIMS:
            ds.createDimension(d, n)
            c = ds.createVariable(d, "f8", (d,))
            c[:] = np.arange(n, dtype="f8")
        v = ds.createVariable("tmp", "f4", tuple(d for d, _ in DIMS), fill_value=np.float32(2e20))
        for k, val in ATTRS.items():
            v.setncattr(k, val)
        v[...] = TMP
    add(name, "cfa-" + version, "netCDF4-python %s from the S3netCDF4 overview (s3netcdf4 2.1rc1 does not"
        " install on Python 3.11)" % netCDF4.__version__, "the numpy array the sub-arrays were cut from")


def DIMS_SUB(shape):
    return [(d, n) for (d, _), n in zip(DIMS, shape)]


def zarr_copy(name, source):
    """The aggregation file {source}.nc as a Zarr v2 store (zarr-python, _ARRAY_DIMENSIONS): the same
    aggregation variables held by a Zarr dataset; fragment URIs stay relative (to the store's location)."""
    import shutil

    import zarr

    path = name + ".zarr"
    shutil.rmtree(path, ignore_errors=True)
    root = zarr.open_group(path, mode="w", zarr_format=2)
    with netCDF4.Dataset(source + ".nc") as src:
        root.attrs.update({k: src.getncattr(k) for k in src.ncattrs()})
        for n, v in src.variables.items():
            v.set_auto_maskandscale(False)
            data = v[...]
            if v.dtype == str:
                data = np.array(data, dtype="U")
            else:
                data = np.asarray(data)
            a = root.create_array(n, shape=data.shape, dtype=data.dtype, fill_value=None,
                                  chunks=data.shape)
            if data.shape:
                a[...] = data
            else:
                a[()] = data
            attrs = {k: v.getncattr(k) for k in v.ncattrs()}
            attrs["_ARRAY_DIMENSIONS"] = list(v.dimensions)
            a.attrs.update({k: (val.tolist() if hasattr(val, "tolist") else val) for k, val in attrs.items()})
    INDEX.append({"name": name, "category": "cf-1.13-zarr", "path": path, "fragment": "#mode=zarr,file",
                  "expected": source + ".expected.json", "twin": source + ".plain.nc",
                  "producer": "zarr-python %s copy of %s.nc" % (zarr.__version__, source),
                  "oracle": "as " + source})


zarr_copy("cf_lat_zarr", "cf_lat")
cfa_case("cfa04", "0.4")
cfa_case("cfa05", "0.5")

with open("INDEX.json", "w") as fh:
    json.dump({"schema": "zarr-conformance-index/1",
               "about": "issue 14 aggregations; regenerate with test-data/aggregation/generate.py",
               "datasets": INDEX}, fh, indent=1)
    fh.write("\n")

# cf_packed (issue 24): fragments packed differently from the aggregation; netCDF4-python only, see packed.py,
# which adds its own entry to INDEX.json
import packed  # noqa: E402

packed.main()
