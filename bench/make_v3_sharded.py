#!/usr/bin/env python3
"""Writes the Zarr v3 sharding benchmark array with zarr-python 3 (bench/v3-bench.sh).

float32 (4096, 4096), shards (1024, 1024), inner chunks (128, 128), zstd level 3 (index at the
end of each shard, zarr-python's default), smooth field + noise quantized to 1/64 so that zstd
has something to do. Writes DIR/v3sharded.zarr (a root group holding the array `field`) and DIR/v3sharded.expected.json with the sha256
of the raw little-endian C-order bytes of the whole array and of each benchmark section.

usage: make_v3_sharded.py DIR
"""
import hashlib
import json
import os
import sys

import numpy as np
import zarr
from zarr.codecs import ZstdCodec

N = 4096
SECTIONS = {
    # name: (origin, shape)
    "whole": ((0, 0), (N, N)),
    "chunk": ((1536, 2176), (128, 128)),  # inner chunk (12, 17), inside shard (1, 2)
    "row": ((2050, 0), (1, N)),  # crosses 4 shards, 32 inner chunks
}


def sections_sha(a):
    out = {}
    for name, (o, s) in SECTIONS.items():
        sec = np.ascontiguousarray(a[o[0]:o[0] + s[0], o[1]:o[1] + s[1]]).astype("<f4", copy=False)
        out[name] = {"origin": list(o), "shape": list(s), "sha256": hashlib.sha256(sec.tobytes()).hexdigest()}
    return out


def main():
    d = sys.argv[1]
    path = os.path.join(d, "v3sharded.zarr")
    rng = np.random.default_rng(20261122)
    y = np.linspace(0, 8 * np.pi, N, dtype=np.float32)[:, None]
    x = np.linspace(0, 6 * np.pi, N, dtype=np.float32)[None, :]
    field = 10 * np.sin(y) * np.cos(x) + np.cumsum(rng.standard_normal((N, N), dtype=np.float32) * 0.05, axis=1)
    field = (np.round(field * 64) / 64).astype(np.float32)
    root = zarr.open_group(path, mode="w", zarr_format=3)  # ours reads datasets with a root group
    arr = root.create_array(
        name="field",
        shape=(N, N),
        shards=(1024, 1024),
        chunks=(128, 128),
        dtype="float32",
        compressors=ZstdCodec(level=3),
        fill_value=0.0,
        dimension_names=["y", "x"],
    )
    arr[:] = field
    back = zarr.open_array(path + "/field", mode="r")[:]
    assert np.array_equal(back, field)
    stored = sum(os.path.getsize(os.path.join(r, f)) for r, _, fs in os.walk(path) for f in fs)
    manifest = {
        "array": "v3sharded.zarr/field",
        "dtype": "<f4",
        "shape": [N, N],
        "shards": [1024, 1024],
        "chunks": [128, 128],
        "codec": "zstd level 3",
        "decoded_bytes": N * N * 4,
        "stored_bytes": stored,
        "zarr_python": zarr.__version__,
        "sections": sections_sha(field),
    }
    with open(os.path.join(d, "v3sharded.expected.json"), "w") as f:
        json.dump(manifest, f, indent=1)
    print(f"wrote {path}: {stored} bytes stored for {N * N * 4} decoded ({N * N * 4 / stored:.2f}x)", file=sys.stderr)


if __name__ == "__main__":
    main()
