"""Blosc 1 frames written by numcodecs (its bundled c-blosc 1.21.6) for the native-vs-Java blosc tests
(NativeBloscCodecTest): every inner compressor x shuffle mode x typesize 1/2/4/8, one block and many
blocks with a short last block, split and unsplit streams (c-blosc splits blosclz/lz4 only), memcpyed,
tiny and incompressible buffers. The decoded bytes' sha256 comes from numcodecs decoding the frame.

Run: /tmp/venv-blosc/bin/python generate.py   (venv from requirements.txt)
"""
import hashlib
import json
import os

import numcodecs
import numpy as np
from numcodecs import Blosc

HERE = os.path.dirname(os.path.abspath(__file__))
FRAMES = os.path.join(HERE, "frames")
SHUFFLES = {0: "noshuffle", 1: "shuffle", 2: "bitshuffle"}
cases = []


def add(name, codec, raw):
    enc = codec.encode(raw)
    dec = bytes(codec.decode(enc))
    assert dec == raw.tobytes(), name
    with open(os.path.join(FRAMES, name + ".blosc"), "wb") as f:
        f.write(enc)
    flags = enc[2]
    cases.append({"file": "frames/" + name + ".blosc", "config": codec.get_config(),
                  "decoded_nbytes": len(dec), "decoded_sha256": hashlib.sha256(dec).hexdigest(),
                  "flags": flags, "typesize": enc[3], "blocksize": int.from_bytes(enc[8:12], "little")})


def sample(rng, n, ts):
    dtype = {1: "<u1", 2: "<i2", 4: "<f4", 8: "<f8"}[ts]
    x = np.sin(np.arange(n) / 37.0) * 100 + rng.normal(0, 0.5, n)
    x[n // 3: n // 3 + n // 10] = 0  # a run the matchers find
    return x.astype(dtype)


def main():
    os.makedirs(FRAMES, exist_ok=True)
    rng = np.random.default_rng(16)
    for cname in ["blosclz", "lz4", "lz4hc", "zlib", "zstd"]:
        for shuffle, sname in SHUFFLES.items():
            for ts in [1, 2, 4, 8]:
                raw = sample(rng, 601, ts)
                add(f"{cname}_{sname}_ts{ts}", Blosc(cname, 5, shuffle, 0), raw)
                add(f"{cname}_{sname}_ts{ts}_blocks", Blosc(cname, 5, shuffle, 1024), raw)
    # odd typesizes (structured elements): 3, 12 (split), 20 (> 16: never split)
    for ts in [3, 12, 20]:
        raw = np.frombuffer(sample(rng, 300 * ts, 1).tobytes(), dtype=f"V{ts}")
        for shuffle, sname in SHUFFLES.items():
            add(f"lz4_{sname}_ts{ts}_blocks", Blosc("lz4", 5, shuffle, 1536), raw)
    noise = rng.integers(0, 256, 5000, dtype=np.uint8)
    add("lz4_shuffle_incompressible", Blosc("lz4", 9, 1, 0), noise.view("<i4")[:1250])
    add("zstd_noshuffle_incompressible_blocks", Blosc("zstd", 5, 0, 1024), noise)
    add("lz4_shuffle_clevel0_memcpyed", Blosc("lz4", 0, 1, 0), sample(rng, 700, 4))
    add("blosclz_shuffle_tiny_memcpyed", Blosc("blosclz", 5, 1, 0), sample(rng, 20, 4))
    big = (np.arange(40000) // 7 + rng.integers(0, 3, 40000)).astype("<i8")  # 320 KB: several default blocks
    add("zstd_bitshuffle_ts8_big", Blosc("zstd", 3, 2, 0), big)
    add("lz4_shuffle_ts8_big", Blosc("lz4", 5, 1, 0), big)
    about = ("Blosc frames made by generate.py with numcodecs " + numcodecs.__version__
             + " (c-blosc " + numcodecs.blosc.VERSION_STRING + "), numpy " + np.__version__)
    with open(os.path.join(HERE, "INDEX.json"), "w") as f:
        json.dump({"about": about, "cases": cases}, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
