#!/usr/bin/env python3
"""Arrays of bench/blosc-cpu.sh (issue 26): the compare cube's temperature values (make_compare.py's
temperature_slice, float32 (DAYS, 721, 1440), one 4.15 MB chunk per day) written as Zarr v2 with blosc
lz4 / zstd / blosclz, clevel 5, byte shuffle and bit shuffle (typesize 4, blosc's automatic block size),
by numcodecs (c-blosc 1.21). Chunk files are written directly (.zgroup, .zarray, .zattrs), so any
numcodecs works.

usage: /tmp/anchors-312/bin/python bench/make_blosc_cpu.py OUTDIR [--days 8]
OUTDIR/blosc-cpu.json: the stores and the sha256 of the values (little-endian, C order).
"""
import argparse
import hashlib
import json
import os
import shutil
import sys

import numcodecs
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_compare import temperature_slice  # noqa: E402  (the compare cube's values)

CNAMES = ["lz4", "zstd", "blosclz"]
SHUFFLES = {1: "shuffle", 2: "bitshuffle"}


def main():
    p = argparse.ArgumentParser()
    p.add_argument("outdir")
    p.add_argument("--days", type=int, default=8)
    a = p.parse_args()
    lat = np.linspace(-90.0, 90.0, 721)
    lon = np.arange(1440) * 0.25
    slices = [temperature_slice(t, lat, lon) for t in range(a.days)]
    h = hashlib.sha256()
    for s in slices:
        h.update(s.astype("<f4").tobytes())
    stores = []
    for cname in CNAMES:
        for shuffle, sname in SHUFFLES.items():
            store = "%s_%s.zarr" % (cname, sname)
            root = os.path.join(a.outdir, store)
            if os.path.exists(root):
                shutil.rmtree(root)
            arr = os.path.join(root, "temperature")
            os.makedirs(arr)
            comp = {"id": "blosc", "cname": cname, "clevel": 5, "shuffle": shuffle, "blocksize": 0}
            codec = numcodecs.get_codec(comp)
            meta = {"zarr_format": 2, "shape": [a.days, 721, 1440], "chunks": [1, 721, 1440], "dtype": "<f4",
                    "compressor": comp, "fill_value": "NaN", "order": "C", "filters": None}
            with open(os.path.join(root, ".zgroup"), "w") as f:
                json.dump({"zarr_format": 2}, f)
            with open(os.path.join(arr, ".zarray"), "w") as f:
                json.dump(meta, f)
            with open(os.path.join(arr, ".zattrs"), "w") as f:
                json.dump({"_ARRAY_DIMENSIONS": ["time", "lat", "lon"]}, f)
            stored = 0
            for t, s in enumerate(slices):
                enc = codec.encode(np.ascontiguousarray(s, dtype="<f4"))  # an f4 array: typesize 4
                stored += len(enc)
                with open(os.path.join(arr, "%d.0.0" % t), "wb") as f:
                    f.write(enc)
            stores.append({"store": store, "cname": cname, "shuffle": sname, "stored_bytes": stored})
            print("wrote %s (%.1f MB stored)" % (store, stored / 1e6), file=sys.stderr)
    with open(os.path.join(a.outdir, "blosc-cpu.json"), "w") as f:
        json.dump({"days": a.days, "numcodecs": numcodecs.__version__, "sha256": h.hexdigest(), "stores": stores},
                  f, indent=1)


if __name__ == "__main__":
    main()
