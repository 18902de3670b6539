#!/usr/bin/env python3
"""The compare cube's blosc chunks re-encoded with other Blosc settings, for the native-vs-Java blosc
measurements in docs/performance.md (issue 16, "Native blosc"): ChunkDecodeBench reads them with
`bench/jmh.sh -p store=blosc_zstd_bitshuffle,...`.

Writes DATA/blosc_<cname>_<shuffle>[_r].zarr/temperature (Zarr v2 chunk files + .zarray) from
DATA/cube_blosc.zarr; "_r" variants zero the 16 low mantissa bits first (compressible, like most real
data). The first 8 chunks only.

usage: /tmp/venv-16/bin/python bench/make_blosc_variants.py DATA   (DATA e.g. bench-data/compare)
"""
import json
import os
import sys

import numcodecs
import numpy as np

data = sys.argv[1]
src = os.path.join(data, "cube_blosc.zarr", "temperature")
meta = json.load(open(os.path.join(src, ".zarray")))
cube = numcodecs.get_codec(meta["compressor"])
names = sorted(f for f in os.listdir(src) if not f.startswith("."))[:8]
SHUFFLE = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle"}
VARIANTS = [("zstd", 1, False), ("zstd", 2, False), ("lz4", 1, True), ("lz4", 2, True),
            ("zstd", 1, True), ("blosclz", 1, True), ("zlib", 1, True)]
for cname, shuffle, rounded in VARIANTS:
    store = "blosc_%s_%s%s" % (cname, SHUFFLE[shuffle], "_r" if rounded else "")
    dst = os.path.join(data, store + ".zarr", "temperature")
    os.makedirs(dst, exist_ok=True)
    m = dict(meta)
    m["compressor"] = {"id": "blosc", "cname": cname, "clevel": 5, "shuffle": shuffle, "blocksize": 0}
    codec = numcodecs.get_codec(m["compressor"])
    with open(os.path.join(dst, ".zarray"), "w") as f:
        json.dump(m, f)
    for name in names:
        raw = np.frombuffer(cube.decode(open(os.path.join(src, name), "rb").read()), dtype="<u4")
        if rounded:
            raw = raw & np.uint32(0xFFFF0000)
        with open(os.path.join(dst, name), "wb") as f:
            f.write(codec.encode(raw.tobytes()))
    print("wrote", store)
