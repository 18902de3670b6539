#!/usr/bin/env python3
"""Generates the kerchunk Parquet reference test data (issue 23). Run with the pinned venv:

    python3 -m venv /work/venvs/parquet && /work/venvs/parquet/bin/pip install -r test-data/parquet-refs/requirements.txt
    cd test-data/parquet-refs && /work/venvs/parquet/bin/python make.py

Writes, in this folder:
* nc4.nc, nc3.nc   small netCDF-4 / netCDF-3 sources (netCDF4-python)
* <src>.<writer>.parq/   fsspec LazyReferenceMapper folders (`.zmetadata` with `record_size`,
  `<var>/refs.<k>.parq`) made by kerchunk.df.refs_to_dataframe from kerchunk's references, with
  target paths made RELATIVE ("nc4.nc": a sibling of the folder). Writers:
    fastparquet           refs_to_dataframe's default engine (zstd, data page v1), categorical paths
    pyarrow-zstd-v1       LazyReferenceMapper(engine="pyarrow") (zstd, dictionary-encoded columns)
    pyarrow-snappy-v1-plain  pyarrow rewrite: snappy, no dictionary (PLAIN byte arrays)
    pyarrow-snappy-v2     pyarrow rewrite: snappy, data page v2
    pyarrow-zstd-v2       pyarrow rewrite: zstd, data page v2
    pyarrow-gzip-v1       pyarrow rewrite: gzip
    pyarrow-none-v2       pyarrow rewrite: uncompressed, data page v2
* records.json     every record file's rows [path, offset, size, base64 raw] as pyarrow reads them (the same
  for every writer: make.py checks), for the Parquet reader's unit tests
* formats.json     codec and encodings of each column of each record file (pyarrow's metadata)
* <src>.expected.json  manifests (zarr-conformance-manifest/1) of the references read through fsspec's
  ReferenceFileSystem (LazyReferenceMapper) with numcodecs decoding each chunk (../manifest.py, reader
  "raw"); make.py checks that xarray (zarr-python 3 on the same fsspec references) reads the same values,
  that every writer's folder gives the same manifest, and that the data equal netCDF4-python's.
Never produced by nczarr-java.
"""
import glob
import json
import os
import shutil
import sys
from collections.abc import Mapping

import fsspec
import numpy as np
import netCDF4
import pyarrow.parquet as pq
import xarray as xr
from fsspec.implementations.reference import LazyReferenceMapper
from kerchunk.df import refs_to_dataframe
from kerchunk.hdf import SingleHdf5ToZarr
from kerchunk.netCDF3 import NetCDF3ToZarr

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, ".."))
import manifest  # noqa: E402

REWRITES = {
    "pyarrow-snappy-v1-plain": dict(compression="snappy", data_page_version="1.0", use_dictionary=False),
    "pyarrow-snappy-v2": dict(compression="snappy", data_page_version="2.0"),
    "pyarrow-zstd-v2": dict(compression="zstd", data_page_version="2.0"),
    "pyarrow-gzip-v1": dict(compression="gzip", data_page_version="1.0"),
    "pyarrow-none-v2": dict(compression="none", data_page_version="2.0"),
}


def write_nc4(path):
    ds = netCDF4.Dataset(path, "w", format="NETCDF4")
    ds.title = "parquet references test: netCDF-4"
    ds.createDimension("time", 6)
    ds.createDimension("y", 10)
    ds.createDimension("x", 12)
    t = ds.createVariable("time", "f8", ("time",), contiguous=True)
    t.units = "hours since 2000-01-01"
    t[:] = np.arange(6) * 6.0
    temp = ds.createVariable("temp", "f4", ("time", "y", "x"), zlib=True, shuffle=True,
                             chunksizes=(2, 5, 6), fill_value=np.float32(-999))
    temp.units = "K"
    rng = np.random.default_rng(23)
    v = (rng.normal(280, 10, size=(6, 10, 12))).astype("f4")
    v[0, 0, 0] = -999
    temp[:] = v
    cnt = ds.createVariable("count", "i4", ("y", "x"), zlib=True, chunksizes=(4, 5))
    cnt[:] = rng.integers(-1000, 1000, size=(10, 12)).astype("i4")
    flat = ds.createVariable("flat", "i2", ("y",), contiguous=True)
    flat[:] = np.arange(10, dtype="i2") * 3
    # only the first of 4 chunks written: the other 3 are never allocated (null path = missing chunk)
    sparse = ds.createVariable("sparse", "f4", ("y", "x"), chunksizes=(5, 6), fill_value=np.float32(-1))
    sparse[0:5, 0:6] = np.arange(30, dtype="f4").reshape(5, 6)
    g = ds.createGroup("obs")
    g.createDimension("station", 5)
    elev = g.createVariable("elevation", "f8", ("station",), zlib=True, chunksizes=(2,))
    elev.units = "m"
    elev[:] = [10.5, 20.25, 30.0, 40.125, 50.0]
    ds.close()


def write_nc3(path):
    ds = netCDF4.Dataset(path, "w", format="NETCDF3_CLASSIC")
    ds.title = "parquet references test: netCDF-3"
    ds.createDimension("rec", None)
    ds.createDimension("x", 4)
    a = ds.createVariable("fixed", "f4", ("x",))
    a.units = "m"
    a[:] = [1.5, 2.5, 3.5, 4.5]
    r = ds.createVariable("rec", "i4", ("rec",))
    r[:] = np.arange(5, dtype="i4") * 7 - 3
    r2 = ds.createVariable("rec2d", "f8", ("rec", "x"))
    r2[:] = np.arange(20, dtype="f8").reshape(5, 4) / 8
    ds.close()


def relative(refs, name):
    out = {}
    for k, v in refs.items():
        if isinstance(v, list) and v and isinstance(v[0], str) and v[0].endswith(name):
            v = [name] + v[1:]
        out[k] = v
    return out


def mapper(folder):
    """fsspec's ReferenceFileSystem over the folder, reading Parquet with the engine that wrote it
    (fastparquet 2026.9.0 cannot read pyarrow's uncompressed data page v2)."""
    engine = "pyarrow" if ".pyarrow" in folder else "fastparquet"
    lazy = LazyReferenceMapper(os.path.abspath(folder), fs=fsspec.filesystem("file"), engine=engine)
    fs = fsspec.filesystem("reference", fo=lazy, remote_protocol="file")
    return fs.get_mapper("")


class Refs(Mapping):
    """Read-only Mapping of the references through fsspec (listing = the metadata keys)."""

    def __init__(self, folder):
        self.m = mapper(folder)
        self.lazy = self.m.fs.references
        with open(os.path.join(folder, ".zmetadata")) as f:
            self.meta = sorted(json.load(f)["metadata"])

    def __getitem__(self, k):
        # KeyError for a missing reference (null path and no raw), as zarr expects. fsspec 2026.9.0 itself
        # returns [nan] for a null path read back through pandas (NaN, not None) and then fails or reads b"":
        # the spec (kerchunk docs/source/spec.rst) says a null path is a missing chunk, so it is one here.
        ref = self.lazy[k]
        if isinstance(ref, list) and not isinstance(ref[0], str):
            raise KeyError(k)
        return self.m[k]

    def __iter__(self):
        return iter(self.meta)

    def __len__(self):
        return len(self.meta)


def check_xarray(folder, m):
    """xarray (zarr-python 3) reading the same references: every key's bytes from fsspec (Refs) put in a
    zarr MemoryStore, since zarr-python on fsspec's mapper trips over null paths (see Refs)."""
    from zarr.core.buffer import cpu
    from zarr.storage import MemoryStore
    refs = Refs(folder)
    d = {}
    for k in refs:
        d[k] = cpu.Buffer.from_bytes(refs[k])
        if k.endswith(".zarray"):
            za = json.loads(refs[k])
            field = k[: -len("/.zarray")]
            grid = [-(-s // c) for s, c in zip(za["shape"], za["chunks"])] or [1]
            for idx in np.ndindex(*grid):
                key = field + "/" + ".".join(str(i) for i in idx)
                try:
                    d[key] = cpu.Buffer.from_bytes(refs[key])
                except KeyError:
                    pass
    ds = xr.open_dataset(MemoryStore(d), engine="zarr", consolidated=False, zarr_format=2,
                         mask_and_scale=False, decode_times=False)
    checked = 0
    for vpath, v in m["variables"].items():
        if vpath.count("/") > 1:
            continue
        a = ds[vpath[1:]].values
        assert manifest.summarize(a, v["type"])["sha256"] == v["data"]["sha256"], (folder, vpath, "xarray")
        checked += 1
    assert checked > 0


def rewrite(src, dst, options):
    shutil.copytree(src, dst)
    for f in glob.glob(os.path.join(dst, "**", "*.parq"), recursive=True):
        t = pq.read_table(f)
        pq.write_table(t, f, write_statistics=False, **options)


def records(folder):
    """Every record file's rows as pyarrow reads them: [path, offset, size, base64 raw] (null = None)."""
    import base64
    out = {}
    for f in sorted(glob.glob(os.path.join(folder, "**", "*.parq"), recursive=True)):
        t = pq.read_table(f).to_pydict()
        rows = []
        for i in range(len(t["path"])):
            raw = t["raw"][i]
            rows.append([t["path"][i], t["offset"][i], t["size"][i],
                         None if raw is None else base64.b64encode(raw).decode()])
        out[os.path.relpath(f, folder)] = rows
    return out


def describe(folder):
    out = {}
    for f in sorted(glob.glob(os.path.join(folder, "**", "*.parq"), recursive=True)):
        md = pq.ParquetFile(f).metadata
        cols = {}
        for i in range(md.num_columns):
            c = md.row_group(0).column(i)
            cols[c.path_in_schema] = [c.compression, sorted(c.encodings)]
        out[os.path.relpath(f, folder)] = cols
    return out


def schema_dimensions(m):
    """SCHEMA.md (reference files): an _ARRAY_DIMENSIONS entry with a '/' ("obs/station", as kerchunk writes a
    netCDF-4 group's dimension) is defined in that group, not in the root as manifest.py's pure-Zarr walk puts it."""
    root = m["groups"]["/"]["dimensions"]
    for name in [n for n in root if "/" in n]:
        group, _, dim = name.rpartition("/")
        m["groups"].setdefault("/" + group, {"dimensions": {}, "attributes": {}})["dimensions"][dim] = root.pop(name)
    return m


def main():
    os.chdir(HERE)
    for d in glob.glob("*.parq"):
        shutil.rmtree(d)
    write_nc4("nc4.nc")
    write_nc3("nc3.nc")
    h = relative(SingleHdf5ToZarr(os.path.abspath("nc4.nc"), inline_threshold=64).translate()["refs"], "nc4.nc")
    n = relative(NetCDF3ToZarr(os.path.abspath("nc3.nc"), inline_threshold=0).translate()["refs"], "nc3.nc")
    assert any(not isinstance(v, list) and not k.split("/")[-1].startswith(".z") for k, v in h.items()), "no inline"
    # temp: 3*2*2 = 12 chunks, record_size 5 -> refs.0/1/2.parq; sparse: 1 of 4 chunks present
    refs_to_dataframe(h, "nc4.fastparquet.parq", record_size=5, categorical_threshold=1)
    refs_to_dataframe(n, "nc3.fastparquet.parq", record_size=2)
    for src, refs in (("nc4", h), ("nc3", n)):
        out = LazyReferenceMapper.create(root=src + ".pyarrow-zstd-v1.parq", record_size=5 if src == "nc4" else 2,
                                         engine="pyarrow", categorical_threshold=1)
        for k in sorted(refs):
            out[k] = refs[k]
        out.flush()
        for name, options in REWRITES.items():
            rewrite(src + ".fastparquet.parq", "%s.%s.parq" % (src, name), options)

    formats = {}
    rows = {}
    for src in ("nc4", "nc3"):
        base = manifest.from_store(Refs(src + ".fastparquet.parq"), src, mode="zarr", reader="raw")
        truth = manifest.from_netcdf4(src + ".nc", src)
        for vpath, v in truth["variables"].items():
            assert base["variables"][vpath]["data"]["sha256"] == v["data"]["sha256"], (src, vpath)
        for folder in sorted(glob.glob(src + ".*.parq")):
            m = manifest.from_store(Refs(folder), src, mode="zarr", reader="raw")
            assert m == base, folder
            check_xarray(folder, base)
            formats[folder] = describe(folder)
            r = records(folder)
            assert rows.setdefault(src, r) == r, folder
        manifest.write(schema_dimensions(base), src + ".expected.json")
    with open("records.json", "w") as f:
        json.dump(rows, f, indent=0, sort_keys=True)
        f.write("\n")
    with open("formats.json", "w") as f:
        json.dump(formats, f, indent=1, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
