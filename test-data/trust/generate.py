#!/usr/bin/env python3
"""Issue 21 trust matrix: aggregation files (CF-1.13, CFA-0.4, CFA-0.5) over one dimension x = 4 with a
single fragment whose URI is a slot: the text TRUSTSLOT followed by spaces, SLOT bytes long. The Java test
(nczarr-iosp TrustMatrixTest) copies a file and overwrites the slot with the fragment URI of each case,
padded with spaces (fragment URIs are trimmed), so that one file per document kind serves every target.
The fragment itself (variable v = 1 2 3 4, netCDF-3) is written by the test.

    python3 -m venv /work/venvs/trust && /work/venvs/trust/bin/pip install -r requirements.txt
    cd test-data/trust && /work/venvs/trust/bin/python generate.py
"""
import json
import os

import netCDF4
import numpy as np

SLOT = 400
URI = "TRUSTSLOT".ljust(SLOT)
HERE = os.path.dirname(os.path.abspath(__file__))
os.chdir(HERE)


def cf113():
    with netCDF4.Dataset("cf113_slot.nc", "w", format="NETCDF3_CLASSIC") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("x", 4)
        ds.createDimension("j", 1)
        ds.createDimension("i", 1)
        ds.createDimension("f_x", 1)
        ds.createDimension("strlen", SLOT)
        m = ds.createVariable("fragment_map", "i4", ("j", "i"))
        u = ds.createVariable("fragment_uris", "S1", ("f_x", "strlen"))
        ident = ds.createVariable("fragment_identifiers", "S1", ("strlen",))
        v = ds.createVariable("v", "i4", ())
        v.aggregated_dimensions = "x"
        v.aggregated_data = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"
        m[:] = [[4]]
        u[0, :] = netCDF4.stringtoarr(URI, SLOT)
        ident[:] = netCDF4.stringtoarr("v", SLOT)


def cfa_master(ds, version):
    ds.Conventions = "CF-1.7 CFA-%s" % version
    ds.createDimension("x", 4)
    c = ds.createVariable("x", "f8", ("x",))
    c[:] = np.arange(4, dtype="f8")
    v = ds.createVariable("v", "i4", ())
    v.cf_role = "cfa_variable"
    v.cfa_dimensions = "x"
    return v


PARTITION = {"subarray": {"ncvar": "v", "file": URI, "format": "NETCDF3_CLASSIC", "shape": [4]},
             "index": [0], "location": [[0, 3]]}


def cfa04():
    with netCDF4.Dataset("cfa04_slot.nc", "w", format="NETCDF3_CLASSIC") as ds:
        v = cfa_master(ds, "0.4")
        v.cfa_array = json.dumps({"pmshape": [1], "pmdimensions": ["x"], "Partitions": [PARTITION]})


def cfa05():
    with netCDF4.Dataset("cfa05_slot.nc", "w", format="NETCDF4") as ds:
        v = cfa_master(ds, "0.5")
        v.cfa_group = "cfa_v"
        g = ds.createGroup("cfa_v")
        g.createDimension("x", 1)
        g.createDimension("ndimensions", 1)
        g.createDimension("bounds", 2)
        g.createVariable("pmshape", "i4", ("ndimensions",))[:] = [1]
        g.createVariable("pmdimensions", str, ())[0] = "x"
        g.createVariable("index", "i4", ("x", "ndimensions"))[0] = [0]
        g.createVariable("location", "i4", ("x", "ndimensions", "bounds"))[0] = [[0, 3]]
        g.createVariable("ncvar", str, ("x",))[0] = "v"
        g.createVariable("file", str, ("x",))[0] = URI
        g.createVariable("format", str, ("x",))[0] = "NETCDF3_CLASSIC"
        g.createVariable("shape", "i4", ("x", "ndimensions"))[0] = [4]


cf113()
cfa04()
cfa05()
for f in ("cf113_slot.nc", "cfa04_slot.nc", "cfa05_slot.nc"):
    with open(f, "rb") as fh:
        assert fh.read().count(b"TRUSTSLOT") == 1, f
