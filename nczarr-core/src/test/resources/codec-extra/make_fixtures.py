#!/usr/bin/python3
"""Extra codec fixtures for CodecFixtureTest, made with numcodecs 0.11 / h5py (Debian's
python3-zarr, python3-h5py): run with /usr/bin/python3 from this directory.

The encoded bytes come from the reference implementations (numcodecs' c-blosc 1.21, liblzma,
HDF5's filters), never from this project's code. Writes encoded files under data/ and INDEX.json
in the format of shared/corpus/codecs/INDEX.json. Also writes zarr_chunks.json: for every chunk
of shared/corpus/zarr/zarr_compressors.zarr and zarr_filters.zarr, the size and sha256 of the
bytes zarr 2.13 decodes it to (compressor, then filters in reverse order).
"""
import hashlib
import json
import lzma
import os
import sys

import numpy as np
import numcodecs
from numcodecs import Blosc, LZMA, Zstd, LZ4, Shuffle, Categorize, VLenUTF8, VLenBytes, CRC32, Adler32

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "data")
cases = []


def add(name, config, encoded, decoded, array_dtype, note):
    os.makedirs(DATA, exist_ok=True)
    path = "data/" + name
    with open(os.path.join(HERE, path), "wb") as f:
        f.write(bytes(encoded))
    decoded = bytes(decoded)
    cases.append({
        "codec": config["id"], "config": config, "encoded": path, "encoded_nbytes": len(bytes(encoded)),
        "array_dtype": array_dtype, "decoded_nbytes": len(decoded),
        "decoded_sha256": hashlib.sha256(decoded).hexdigest(), "note": note})


rng = np.random.default_rng(42)
f4 = (np.arange(6000, dtype="<f4") * 0.25 + rng.normal(0, 0.01, 6000).astype("<f4")).astype("<f4")
i2 = (np.arange(5003) % 300).astype("<i2")
u8 = np.cumsum(rng.integers(0, 5, 3001)).astype("<u8")
# several blocks with a short last block (Debian's c-blosc 1.21.3 turns blocksize=1000 into 64 KiB)
i2_big = (np.arange(50003) % 300).astype("<i2")
u8_big = np.cumsum(rng.integers(0, 3, 12501)).astype("<u8")
f4_big = (np.arange(30001) * 0.5).astype("<f4")
rec = np.zeros(700, dtype=[("a", "<i8"), ("b", "<f8"), ("c", "<i4")])  # itemsize 20 > 16 (no split)
rec["a"] = np.arange(700)
rec["b"] = np.arange(700) / 7
rec["c"] = 3

# --- Blosc: split streams, multi-block with a short last block, typesize > 16, bitshuffle leftovers
blosc_cases = [
    ("blosc_blosclz_shuffle_split_f4", dict(cname="blosclz", clevel=5, shuffle=1, blocksize=0), f4),
    ("blosc_blosclz_noshuffle_f4", dict(cname="blosclz", clevel=9, shuffle=0, blocksize=0), f4),
    ("blosc_lz4_shuffle_i2", dict(cname="lz4", clevel=5, shuffle=1, blocksize=0), i2),
    ("blosc_lz4_shuffle_blocks_i2", dict(cname="lz4", clevel=5, shuffle=1, blocksize=1000), i2_big),
    ("blosc_lz4hc_bitshuffle_blocks_i2", dict(cname="lz4hc", clevel=5, shuffle=2, blocksize=1000), i2_big),
    ("blosc_zstd_bitshuffle_u8", dict(cname="zstd", clevel=3, shuffle=2, blocksize=0), u8),
    ("blosc_zstd_bitshuffle_blocks_u8", dict(cname="zstd", clevel=3, shuffle=2, blocksize=1000), u8_big),
    ("blosc_zlib_shuffle_blocks_u8", dict(cname="zlib", clevel=5, shuffle=1, blocksize=1000), u8_big),
    ("blosc_snappy_shuffle_split_f4", dict(cname="snappy", clevel=5, shuffle=1, blocksize=0), f4),
    ("blosc_snappy_shuffle_blocks_f4", dict(cname="snappy", clevel=5, shuffle=1, blocksize=1000), f4_big),
    ("blosc_blosclz_bitshuffle_f4", dict(cname="blosclz", clevel=7, shuffle=2, blocksize=0), f4),
    ("blosc_blosclz_shuffle_blocks_f4", dict(cname="blosclz", clevel=9, shuffle=1, blocksize=1000), f4_big),
    ("blosc_blosclz_bitshuffle_blocks_i2", dict(cname="blosclz", clevel=9, shuffle=2, blocksize=1000), i2_big),
    ("blosc_lz4_shuffle_ts20", dict(cname="lz4", clevel=5, shuffle=1, blocksize=0), rec),
    ("blosc_blosclz_shuffle_ts20", dict(cname="blosclz", clevel=5, shuffle=1, blocksize=0), rec),
]
for name, params, arr in blosc_cases:
    codec = Blosc(**params)
    enc = codec.encode(arr)
    config = codec.get_config()
    dec = codec.decode(enc)
    assert bytes(dec) == arr.tobytes()
    add(name + ".blosc", config, enc, dec, arr.dtype.str, "flags=0x%02x typesize=%d nbytes=%d blocksize=%d" % (
        enc[2], enc[3], len(dec), int.from_bytes(enc[8:12], "little")))

# --- LZMA: alone format, raw LZMA1, raw delta+LZMA2, auto format
lz_cases = [
    ("lzma_alone", dict(format=lzma.FORMAT_ALONE)),
    ("lzma_raw_lzma1", dict(format=lzma.FORMAT_RAW, filters=[{"id": lzma.FILTER_LZMA1, "preset": 6}])),
    ("lzma_raw_delta_lzma2", dict(format=lzma.FORMAT_RAW,
                                  filters=[{"id": lzma.FILTER_DELTA, "dist": 4},
                                           {"id": lzma.FILTER_LZMA2, "preset": 9}])),
    ("lzma_xz_preset9_check_sha256", dict(format=lzma.FORMAT_XZ, preset=9, check=lzma.CHECK_SHA256)),
]
for name, params in lz_cases:
    codec = LZMA(**params)
    enc = codec.encode(f4)
    add(name + ".dat", codec.get_config(), enc, codec.decode(enc), "<f4", "liblzma")
# FORMAT_AUTO decoding of an .xz and an .lzma stream
auto = LZMA(format=lzma.FORMAT_AUTO)
add("lzma_auto_xz.dat", auto.get_config(), lzma.compress(i2.tobytes()), auto.decode(lzma.compress(i2.tobytes())),
    "<i2", "format 0 reading .xz")
alone = lzma.compress(i2.tobytes(), format=lzma.FORMAT_ALONE)
add("lzma_auto_alone.dat", auto.get_config(), alone, auto.decode(alone), "<i2", "format 0 reading .lzma")

# --- checksums (numcodecs 0.11: checksum first)
for codec in (CRC32(), Adler32()):
    enc = codec.encode(i2)
    add(codec.codec_id + ".dat", codec.get_config(), enc, codec.decode(enc), "<i2", "numcodecs 0.11")

# --- object codecs and categorize
strs = np.array(["", "a", "héllo", "ünïcode ✓", "x" * 300], dtype=object)
for codec in (VLenUTF8(), VLenBytes()):
    arr = strs if codec.codec_id == "vlen-utf8" else np.array([s.encode() for s in strs], dtype=object)
    enc = codec.encode(arr)
    add(codec.codec_id + ".dat", codec.get_config(), enc, enc, "|O", "identity after validation")
labels = ["ab", "héllo", "z"]
cat_arr = np.array(["ab", "z", "", "héllo", "zz", "z"], dtype="<U5")
codec = Categorize(labels=labels, dtype="<U5", astype="<u2")
enc = codec.encode(cat_arr)
add("categorize_u5.dat", codec.get_config(), enc, codec.decode(enc), "<U5", "unknown 'zz' decodes to ''")

# --- netcdf-c writes integer parameters as strings
codec = Shuffle(elementsize=8)
enc = codec.encode(u8)
cfg = {"id": "shuffle", "elementsize": "8"}
add("shuffle_string_param.dat", cfg, enc, codec.decode(enc), "<u8", "netcdf-c style string parameter")

# --- HDF5 filters (netcdf-c's NCZarr uses the same shuffle/fletcher32 byte layouts)
try:
    import h5py
    import tempfile
    with tempfile.TemporaryDirectory() as td:
        fn = os.path.join(td, "f.h5")
        with h5py.File(fn, "w") as h:
            h.create_dataset("f32", data=f4[:1000], chunks=(1000,), fletcher32=True)
            h.create_dataset("odd", data=np.arange(7, dtype="u1"), chunks=(7,), fletcher32=True)
            h.create_dataset("shuf", data=u8[:500], chunks=(500,), shuffle=True, fletcher32=True)
        with h5py.File(fn, "r") as h:
            for key, arr, filters in (("f32", f4[:1000], "fletcher32"), ("odd", np.arange(7, dtype="u1"), "fletcher32"),
                                      ("shuf", u8[:500], "shuffle+fletcher32")):
                ds = h[key]
                _, raw = ds.id.read_direct_chunk((0,))
                if filters == "fletcher32":
                    add("hdf5_fletcher32_%s.dat" % key, {"id": "fletcher32"}, raw, arr.tobytes(), arr.dtype.str,
                        "HDF5 %s chunk" % h5py.version.hdf5_version)
                else:
                    # decode fletcher32 only: the result is the shuffled bytes HDF5 wrote
                    add("hdf5_fletcher32_shuffled.dat", {"id": "fletcher32"}, raw, raw[:-4], arr.dtype.str,
                        "HDF5 shuffle+fletcher32 chunk, fletcher32 step")
                    add("hdf5_shuffle.dat", {"id": "shuffle", "elementsize": "8"}, raw[:-4], arr.tobytes(),
                        arr.dtype.str, "HDF5 shuffle step")
except ImportError:
    print("h5py missing: HDF5 fixtures skipped", file=sys.stderr)

with open(os.path.join(HERE, "INDEX.json"), "w") as f:
    json.dump({"about": "Extra codec fixtures made by make_fixtures.py with numcodecs %s, numpy %s"
               % (numcodecs.__version__, np.__version__), "cases": cases}, f, indent=1)

# --- zarr corpus chunks, decoded by zarr 2.13 / numcodecs
import zarr  # noqa: E402

corpus = os.path.join(os.environ.get("CORPUS_DIR") or os.path.normpath(
    os.path.join(HERE, "../../../../../../shared/corpus")), "zarr")
chunks = []
for store in ("zarr_compressors.zarr", "zarr_filters.zarr"):
    root = zarr.open_group(os.path.join(corpus, store), mode="r")
    for name, arr in sorted(root.arrays()):
        d = os.path.join(corpus, store, name)
        for key in sorted(os.listdir(d)):
            if key.startswith("."):
                continue
            with open(os.path.join(d, key), "rb") as f:
                cdata = f.read()
            chunk = arr._compressor.decode(cdata) if arr._compressor else cdata
            for flt in reversed(arr._filters or []):
                chunk = flt.decode(chunk)
            b = np.ascontiguousarray(numcodecs.compat.ensure_ndarray(chunk)).tobytes()
            chunks.append({"store": store, "array": name, "key": key, "decoded_nbytes": len(b),
                           "decoded_sha256": hashlib.sha256(b).hexdigest()})
with open(os.path.join(HERE, "zarr_chunks.json"), "w") as f:
    json.dump({"about": "sha256 of each chunk as zarr %s decodes it (compressor, then filters reversed)"
               % zarr.__version__, "chunks": chunks}, f, indent=1)
print(len(cases), "fixtures,", len(chunks), "zarr chunks")
