#!/usr/bin/env python3
"""Expected CF-decoded values of the shared corpus' xarray datasets, for the NetcdfDataset
enhancement test (nczarr-iosp EnhancementTest).

usage: /usr/bin/python3 test-data/xarray-decoded/generate.py [CORPUS_DIR]

For every numeric variable: the values xarray gives with mask_and_scale (scale_factor,
add_offset, _FillValue -> NaN) and decode_times=False (netCDF-Java keeps times numeric too),
flattened in C order as float64, NaN written as the string "NaN".
"""
import json
import math
import os
import sys

import numpy as np
import xarray as xr

here = os.path.dirname(os.path.abspath(__file__))
corpus = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "corpus")
DATASETS = {"xr_cf": ("xarray/xr_cf.zarr", [None]),
            "xr_encodings": ("xarray/xr_encodings.zarr", [None, "ocean/profiles"])}

for name, (path, groups) in DATASETS.items():
    out = {"dataset": name, "variables": {}}
    for group in groups:
        ds = xr.open_zarr(os.path.join(corpus, path), group=group, consolidated=False,
                          mask_and_scale=True, decode_times=False)
        for vname, var in ds.variables.items():
            if var.dtype.kind not in "biuf":
                continue
            vals = np.asarray(var.values, dtype="f8").reshape(-1)
            out["variables"][(group + "/" if group else "") + vname] = {
                "decoded_dtype": str(var.dtype),
                "values": ["NaN" if math.isnan(v) else float(v) for v in vals],
            }
    with open(os.path.join(here, name + ".decoded.json"), "w") as f:
        json.dump(out, f, indent=1)
    print("wrote", name, sorted(out["variables"]))
