#!/usr/bin/python3
"""Writes the ~100 MB netCDF-4 file of the mode=bytes benchmark (bench/bytes.sh), deterministic.

Needs /usr/bin/python3 with netCDF4 and numpy (Debian: python3-netcdf4). Not committed.

Variables (time=48, lat=360, lon=720):
  temp      float32 (time, lat, lon), chunks (1, 360, 720) = 1 MB, uncompressed: the large variable
  pressure  float32 (time, lat, lon), chunks (4, 90, 180), zlib level 1 + shuffle
  wind      int16   (time, lat, lon), contiguous
  mask      int8    (lat, lon), contiguous
  small     float32 (station=100), written last (at the end of the file): the small variable
  time, lat, lon coordinates
"""
import sys

import numpy as np
from netCDF4 import Dataset

T, Y, X = 48, 360, 720


def main(path):
    rng = np.random.default_rng(20240101)
    with Dataset(path, "w", format="NETCDF4") as nc:
        nc.title = "nczarr-java mode=bytes benchmark file"
        nc.createDimension("time", T)
        nc.createDimension("lat", Y)
        nc.createDimension("lon", X)
        nc.createDimension("station", 100)
        t = nc.createVariable("time", "f8", ("time",))
        t.units = "hours since 2000-01-01"
        t[:] = np.arange(T) * 6.0
        lat = nc.createVariable("lat", "f4", ("lat",))
        lat.units = "degrees_north"
        lat[:] = np.linspace(-89.75, 89.75, Y)
        lon = nc.createVariable("lon", "f4", ("lon",))
        lon.units = "degrees_east"
        lon[:] = np.linspace(0.25, 359.75, X)
        small = nc.createVariable("small", "f4", ("station",), contiguous=True)
        small.long_name = "one value per station"
        mask = nc.createVariable("mask", "i1", ("lat", "lon"), contiguous=True)
        mask[:] = (rng.random((Y, X)) > 0.3).astype("i1")
        temp = nc.createVariable("temp", "f4", ("time", "lat", "lon"), chunksizes=(1, Y, X))
        temp.units = "K"
        pressure = nc.createVariable("pressure", "f4", ("time", "lat", "lon"), chunksizes=(4, 90, 180),
                                     zlib=True, complevel=1, shuffle=True)
        pressure.units = "hPa"
        wind = nc.createVariable("wind", "i2", ("time", "lat", "lon"), contiguous=True)
        wind.scale_factor = 0.01
        yy, xx = np.meshgrid(np.linspace(0, 6, Y), np.linspace(0, 12, X), indexing="ij")
        for i in range(T):
            temp[i] = (250 + 40 * rng.random((Y, X))).astype("f4")
            pressure[i] = (1000 + 30 * np.sin(yy + i / 7.0) * np.cos(xx) + rng.random((Y, X))).astype("f4")
            wind[i] = rng.integers(-3000, 3000, (Y, X), dtype="i2")
        # written last: HDF5 allocates it at the end of the file, far from the header's blocks
        small[:] = rng.standard_normal(100).astype("f4")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/nczarr-bytes-bench.nc")
