#!/usr/bin/env python3
"""Issue 24 (issue 22 item 6) test data: a CF-1.13 aggregation whose fragments are packed differently from the
aggregation variable, which CF-1.13 section 2.8.2 says are unpacked and repacked to the aggregation's form.

    tp(time 4, x 3) int16, scale_factor 0.01, add_offset 10.0 (float64), _FillValue -32767
    cf_packed_f0.nc  time 0-1: int16 packed with its own scale_factor 0.02, add_offset 0, _FillValue -1
    cf_packed_f1.nc  time 2-3: float32 not packed at all, _FillValue 1e20

Written by netCDF4-python alone (pins: netCDF4 and numpy of ../requirements-aggregation.txt; this script needs
no cfdm). The oracle is numpy: cf_packed.plain.nc holds the aggregation's raw values computed here as
rint((value - add_offset) / scale_factor) of each fragment's unpacked value (float64), the missing values as
-32767; cf_packed.expected.json is ../manifest.py on the plain twin. The script replaces its own entry in
INDEX.json (generate.py calls it last).

    /tmp/venv-14/bin/python packed.py
"""
import json
import os
import sys

import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import manifest  # noqa: E402

NAME = "cf_packed"
SCALE, OFFSET, FILL = 0.01, 10.0, np.int16(-32767)
F0_RAW = np.array([[600, 610, -1], [555, 700, 1000]], dtype="i2")     # x 0.02: 12.0 12.2 _ 11.1 14.0 20.0
F0_SCALE = 0.02
F1 = np.array([[12.34, 1e20, 9.5], [-20.25, 0.0, 15.125]], dtype="f4")  # 1e20 is the fill


def write_fragment(path, var, dtype, data, fill, attrs):
    with netCDF4.Dataset(path, "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("time", data.shape[0])
        ds.createDimension("x", data.shape[1])
        v = ds.createVariable(var, dtype, ("time", "x"), fill_value=fill)
        v.set_auto_maskandscale(False)
        for k, val in attrs.items():
            v.setncattr(k, val)
        v.units = "mm"
        v[...] = data


def expected():
    """The aggregation's raw int16 values: each fragment unpacked (float64), repacked, missing -> FILL."""
    out = np.empty((4, 3), dtype="i2")
    u0 = F0_RAW.astype("f8") * F0_SCALE + 0.0
    r0 = np.rint((u0 - OFFSET) / SCALE)
    out[0:2] = np.where(F0_RAW == -1, FILL, r0).astype("i2")
    u1 = F1.astype("f8")
    r1 = np.rint((u1 - OFFSET) / SCALE)
    out[2:4] = np.where(F1 == np.float32(1e20), FILL, r1).astype("i2")
    return out


def var_attrs(v):
    v.set_auto_maskandscale(False)
    v.standard_name = "precipitation_amount"
    v.units = "mm"
    v.scale_factor = np.float64(SCALE)
    v.add_offset = np.float64(OFFSET)


def main():
    os.chdir(HERE)
    write_fragment(NAME + "_f0.nc", "tp", "i2", F0_RAW, np.int16(-1),
                   {"scale_factor": np.float64(F0_SCALE), "add_offset": np.float64(0.0)})
    write_fragment(NAME + "_f1.nc", "tp", "f4", F1, np.float32(1e20), {})
    with netCDF4.Dataset(NAME + ".nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("time", 4)
        ds.createDimension("x", 3)
        ds.createDimension("f_time", 2)
        ds.createDimension("f_x", 1)
        ds.createDimension("j", 2)
        ds.createDimension("i", 2)
        m = ds.createVariable("fragment_map", "i8", ("j", "i"), fill_value=-1)
        m[...] = np.ma.masked_array([[2, 2], [3, 0]], mask=[[0, 0], [0, 1]])
        u = ds.createVariable("fragment_uris", str, ("f_time", "f_x"))
        u[...] = np.array([[NAME + "_f0.nc"], [NAME + "_f1.nc"]], dtype=object)
        idv = ds.createVariable("fragment_identifiers", str, ("f_time", "f_x"))
        idv[...] = np.array([["tp"], ["tp"]], dtype=object)
        v = ds.createVariable("tp", "i2", (), fill_value=FILL)
        var_attrs(v)
        v.aggregated_dimensions = "time x"
        v.aggregated_data = "map: fragment_map uris: fragment_uris identifiers: fragment_identifiers"
    with netCDF4.Dataset(NAME + ".plain.nc", "w", format="NETCDF4") as ds:
        ds.Conventions = "CF-1.13"
        ds.createDimension("time", 4)
        ds.createDimension("x", 3)
        v = ds.createVariable("tp", "i2", ("time", "x"), fill_value=FILL)
        var_attrs(v)
        v[...] = expected()
    manifest.write(manifest.from_netcdf4(NAME + ".plain.nc", NAME), NAME + ".expected.json")
    with open("INDEX.json") as fh:
        index = json.load(fh)
    entries = [d for d in index["datasets"] if d["name"] != NAME]
    entries.append({"name": NAME, "category": "cf-1.13", "path": NAME + ".nc", "fragment": "",
                    "expected": NAME + ".expected.json", "twin": NAME + ".plain.nc",
                    "producer": "netCDF4-python %s, by hand per CF-1.13 section 2.8.2 (packed fragments)"
                                % netCDF4.__version__,
                    "oracle": "numpy %s: each fragment unpacked and repacked to the aggregation's packing"
                              % np.__version__})
    index["datasets"] = entries
    with open("INDEX.json", "w") as fh:
        json.dump(index, fh, indent=1)
        fh.write("\n")
    print(expected())


if __name__ == "__main__":
    main()
