#!/usr/bin/env python3
"""Issue 22, finding 4 (CF enhancement of unsigned and default fills): the same variables written by
netCDF4-python 1.7.5.1.post1 (netcdf-c 4.10.1) as netCDF-4 (HDF5) and as NCZarr, so that a test can hold
our NCZarr reading under netCDF-Java 4.5.5's `NetcdfDataset` enhancement to what netCDF-Java does with the
netCDF-4 twin through its own HDF5 reader. Same venv and requirements.txt as make.py:

    /work/venvs/autumn/bin/python test-data/autumn-2026/make_fills.py

* unsigned_fills.nc / unsigned_fills.file (#mode=nczarr,file): u1 ubyte _FillValue 200UB, u2 ushort 65535US,
  u4 uint 4000000000U, dflt short and dfloat float with no _FillValue holding the netCDF default fills
  (-32767s, 9.96921e+36f), du2 ushort with no _FillValue holding its default fill 65535.
  Expected values: unsigned_fills.expected.json (netCDF4-python's masked read: null = masked).
"""
import json
import os
import shutil

import netCDF4
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))

VARS = {
    "u1": ("u1", 200, [0, 200, 255, 199, 200, 1]),
    "u2": ("u2", 65535, [1, 65535, 3, 65534, 65535, 0]),
    "u4": ("u4", 4000000000, [4000000000, 1, 4294967295, 4000000000, 7, 0]),
    "dflt": ("i2", None, [5, -5, -32767, 0, -32767, 7]),
    "dfloat": ("f4", None, [9.969209968386869e+36, 0.5, 2.5, 9.969209968386869e+36, -1.0, 0.0]),
    "du2": ("u2", None, [1, 65535, 65534, 0, 65535, 2]),
}


def write(path):
    with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
        nc.createDimension("n", 6)
        for name, (dt, fill, values) in VARS.items():
            v = nc.createVariable(name, dt, ("n",), fill_value=fill if fill is not None else False)
            v.set_auto_mask(False)
            v[:] = np.array(values, dtype=dt)


def main():
    nc_path = os.path.join(HERE, "unsigned_fills.nc")
    zpath = os.path.join(HERE, "unsigned_fills.file")
    if os.path.exists(nc_path):
        os.remove(nc_path)
    shutil.rmtree(zpath, ignore_errors=True)
    write(nc_path)
    write("file://" + zpath + "#mode=nczarr,file")
    expected = {"about": "netCDF4-python 1.7.5.1.post1 reading unsigned_fills.nc masked (auto mask on): null = masked",
                "variables": {}}
    with netCDF4.Dataset(nc_path) as nc:
        for name in VARS:
            a = nc[name][:]
            mask = np.ma.getmaskarray(a)
            expected["variables"][name] = [None if m else (float(x) if name == "dfloat" else int(x))
                                           for x, m in zip(np.ma.getdata(a).tolist(), mask.tolist())]
    with open(os.path.join(HERE, "unsigned_fills.expected.json"), "w", encoding="utf-8") as f:
        json.dump(expected, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
