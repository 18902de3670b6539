#!/usr/bin/env python3
"""Issue 22, virtual references: kerchunk-format references written by VirtualiZarr 2.8.0 and kerchunk 0.2.10 over
netCDF-4 and netCDF-3 files written by netCDF4-python 1.7.5.1 (netcdf-c 4.10.1), with expected manifests from
xarray 2026.9 + zarr-python 3.4.2 opening the references through fsspec's reference filesystem (never from our
reader). Own venv (pins in requirements-virtual.txt):

    ~/.pyenv/versions/3.12.1/bin/python3 -m venv /work/venvs/vz22
    /work/venvs/vz22/bin/pip install -r test-data/autumn-2026/requirements-virtual.txt
    /work/venvs/vz22/bin/python test-data/autumn-2026/make_virtual.py

Everything lives in `virtual/`: the sources and the references side by side. VirtualiZarr and kerchunk write
absolute `file://` target URLs; make_virtual.py rewrites each target to the source's file name (relative: it
resolves against the reference file's own URL, SCHEMA.md), so one folder serves the local, HTTP and S3 tests.
Nothing else in the references is changed. Datasets (INDEX.json lists them):

* virtual/vz_nc4.json       VirtualiZarr 2.8.0 (HDFParser) over vz_nc4.nc's root group, `to_kerchunk(format="json")`:
                            float `_FillValue` as base64 in `.zattrs` ("AAAAAAA4j8A=", -999.0 as float64), zlib +
                            shuffle chunks, a contiguous coordinate, CF attributes, a CF-packed short kept packed
                            (`scale_factor`/`add_offset` attributes, raw values), a ubyte whose `fill_value` is the
                            netCDF default 255, vlen strings inlined (`|O` + `vlen-utf8`).
* virtual/vz_nc4.parq/      the same references as `to_kerchunk(format="parquet")` (fsspec's folder layout; that
                            writer is kerchunk's refs_to_dataframe, called here on the relative-target dict).
* virtual/vz_nc4_v3.json    the same with `to_kerchunk(format="json", zarr_format=3)`: `zarr.json` keys, `numcodecs.*`
                            codecs, xarray's base64 `_FillValue` attributes (v3 `fill_value` is not `_FillValue`).
* virtual/vz_nc3.json       VirtualiZarr 2.8.0 (NetCDF3Parser = kerchunk's NetCDF3ToZarr) over vz_nc3.nc: record
                            variables, a fixed variable.
* virtual/h5_filters.json   VirtualiZarr 2.8.0 over h5_filters.h5 (h5py 3.16 + hdf5plugin 7.1): one dataset per HDF5
                            filter, as VirtualiZarr maps them: `imagecodecs_lzf` (declared `"header": true` although
                            HDF5's LZF filter writes no header), `imagecodecs_lz4h5`/`imagecodecs_bz2` with null
                            parameters, `zstd`, `blosc`, `shuffle` + `zlib`, `zlib` + `fletcher32`. Expected: h5py.
* virtual/kc_groups.json    kerchunk 0.2.10 SingleHdf5ToZarr over vz_nc4.nc (all groups): `/obs/elevation` has
                            `_ARRAY_DIMENSIONS` ["obs/station"] (kerchunk names a group's dimension by its path).
"""
import base64
import json
import os
import shutil
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import manifest as M  # noqa: E402

SCHEMA = "zarr-conformance-manifest/1"
DIR = os.path.join(HERE, "virtual")


def sources():
    import netCDF4 as nc
    d = nc.Dataset(os.path.join(DIR, "vz_nc4.nc"), "w", format="NETCDF4")
    d.title = "VirtualiZarr source (netCDF-4)"
    d.Conventions = "CF-1.11"
    d.createDimension("time", 4)
    d.createDimension("y", 3)
    d.createDimension("x", 5)
    t = d.createVariable("time", "f8", ("time",))
    t.units = "days since 2026-01-01"
    t[:] = [0.0, 1.0, 2.0, 3.5]
    temp = d.createVariable("temp", "f4", ("time", "y", "x"), zlib=True, shuffle=True, chunksizes=(2, 3, 5),
                            fill_value=-999.0)
    temp.units = "K"
    v = (np.arange(60, dtype="f4").reshape(4, 3, 5) / 4 + 270).astype("f4")
    v[1, 2, 3] = -999.0
    temp[:] = v
    cnt = d.createVariable("count", "i4", ("y", "x"), zlib=True, chunksizes=(2, 3), fill_value=-1)
    cnt[0:2, :] = np.arange(10, dtype="i4").reshape(2, 5) * 1000003 - 4000000   # row 2 never written
    pk = d.createVariable("packed", "i2", ("x",), zlib=True, fill_value=-32767)
    pk.scale_factor = 0.01
    pk.add_offset = 20.0
    pk.units = "degC"
    pk.set_auto_maskandscale(False)     # raw values; the references keep them packed with the CF attributes
    pk[:] = np.array([0, 100, -100, -32767, 32000], dtype="i2")
    u8 = d.createVariable("u8", "u1", ("x",))     # no _FillValue: .zarray fill_value is the netCDF default 255
    u8[:] = np.array([0, 1, 254, 255, 7], dtype="u1")
    st = d.createVariable("name", str, ("x",))    # vlen strings: the references inline them (vlen-utf8)
    st[:] = np.array(["a", "bb", "", "ccc", "\u00e9t\u00e9"], dtype=object)
    g = d.createGroup("obs")
    g.createDimension("station", 3)
    el = g.createVariable("elevation", "f8", ("station",), zlib=True)
    el.units = "m"
    el[:] = [12.5, 1800.25, -3.0]
    d.close()
    d = nc.Dataset(os.path.join(DIR, "vz_nc3.nc"), "w", format="NETCDF3_CLASSIC")
    d.title = "VirtualiZarr source (netCDF-3)"
    d.createDimension("rec", None)
    d.createDimension("x", 3)
    fx = d.createVariable("fixed", "f8", ("x",))
    fx[:] = [1.5, -2.5, 1.0e10]
    r = d.createVariable("rec", "i4", ("rec",))
    r[0:4] = [10, -20, 30, 2147483647]
    r2 = d.createVariable("rec2d", "f4", ("rec", "x"))
    r2.units = "m/s"
    r2[0:4, :] = np.arange(12, dtype="f4").reshape(4, 3) - 5.5
    d.close()


def relative(refs):
    """Every absolute file:// target (VirtualiZarr, kerchunk) -> the source's file name."""
    out = {}
    for k, v in refs.items():
        if isinstance(v, list) and v and isinstance(v[0], str) and (v[0].startswith("file://") or
                                                                     v[0].startswith("/")):
            v = [os.path.basename(v[0])] + v[1:]
        out[k] = v
    return out


def write_refs(refs, name):
    with open(os.path.join(DIR, name), "w", encoding="utf-8") as f:
        json.dump(refs, f, indent=1, sort_keys=True)
        f.write("\n")


def virtualizarr_refs():
    from obspec_utils.registry import ObjectStoreRegistry
    from obstore.store import LocalStore
    from virtualizarr import open_virtual_dataset
    from virtualizarr.parsers import HDFParser, NetCDF3Parser
    reg = ObjectStoreRegistry({"file://": LocalStore()})
    out = {}
    for name, parser in (("vz_nc4", HDFParser()), ("vz_nc3", NetCDF3Parser())):
        url = "file://" + os.path.join(DIR, name + ".nc")
        vds = open_virtual_dataset(url=url, parser=parser, registry=reg)
        refs = vds.vz.to_kerchunk(format="dict")
        refs["refs"] = relative(refs["refs"])
        write_refs(refs, name + ".json")
        out[name] = refs
        if name == "vz_nc4":
            v3 = vds.vz.to_kerchunk(format="dict", zarr_format=3)
            v3["refs"] = relative(v3["refs"])
            write_refs(v3, name + "_v3.json")
    # to_kerchunk(format="parquet") is kerchunk.df.refs_to_dataframe(to_kerchunk(format="dict"), ...): called
    # here on the relative-target dict (record_size 2: several record files; /count's second one holds only
    # never-written chunks and is not written at all)
    from kerchunk.df import refs_to_dataframe
    refs_to_dataframe(out["vz_nc4"], url=os.path.join(DIR, "vz_nc4.parq"), record_size=2)
    return out


def kerchunk_groups():
    from kerchunk.hdf import SingleHdf5ToZarr
    src = os.path.join(DIR, "vz_nc4.nc")
    with open(src, "rb") as f:
        refs = SingleHdf5ToZarr(f, "file://" + src, inline_threshold=0).translate()
    refs["refs"] = relative(refs["refs"])
    write_refs(refs, "kc_groups.json")


def open_refs(refs, group=None, zarr_format=2):
    """xarray + zarr-python 3.4.2 over fsspec's reference filesystem, raw values (no CF decoding); relative
    targets resolve against the working directory (main() runs in virtual/)."""
    import xarray as xr
    return xr.open_dataset("reference://", engine="zarr", consolidated=False, zarr_format=zarr_format, group=group,
                           decode_cf=False, mask_and_scale=False, decode_times=False,
                           storage_options={"fo": refs, "remote_protocol": "file"})


def add_group(m, ds, gpath):
    """One group's variables (xarray's view) into manifest m. A dimension named by a path ("obs/station",
    kerchunk) is that group's (SCHEMA.md, reference files); plain names are the root's (pure-Zarr rule)."""
    m["groups"][gpath] = {"dimensions": {}, "attributes": {k: M.infer_zarr_attr(v) for k, v in ds.attrs.items()
                                                           if not M.is_hidden(k)}}
    for vn, v in ds.variables.items():
        nct = M.numpy_nctype(v.dtype) or ("char" if v.dtype.kind == "S" and v.dtype.itemsize == 1 else "string")
        dims = []
        for d, n in zip(v.dims, v.shape):
            full = "/" + d.lstrip("/") if "/" in d else "/" + d
            g, _, short = full.rpartition("/")
            m["groups"].setdefault(g or "/", {"dimensions": {}, "attributes": {}})
            assert m["groups"][g or "/"]["dimensions"].setdefault(short, int(n)) == int(n)
            dims.append(full)
        attrs = {k: M.infer_zarr_attr(a) for k, a in v.attrs.items() if not M.is_hidden(k) and k != "_FillValue"}
        fv = v.attrs.get("_FillValue")
        if fv is not None and nct not in ("char", "string"):   # SCHEMA: never for char/string
            attrs["_FillValue"] = M.attr_entry(nct, M.typed_values([float(fv) if nct in ("float", "double")
                                                                    else int(fv)], nct))
        m["variables"][(gpath.rstrip("/") + "/" + vn)] = {
            "type": nct, "dimensions": dims, "shape": [int(n) for n in v.shape], "attributes": attrs,
            "data": M.summarize(np.asarray(v.values), nct)}


def expected(refs_file, name, groups=("/",), zarr_format=2):
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    for g in groups:
        add_group(m, open_refs(refs_file, None if g == "/" else g.strip("/"), zarr_format), g)
    with open(os.path.join(HERE, name + ".expected.json"), "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def register_imagecodecs():
    """imagecodecs' numcodecs codecs for numcodecs (v2 reads) and for zarr-python 3 (VirtualiZarr builds v3
    metadata internally and asks zarr's registry for `numcodecs.imagecodecs_*`)."""
    from imagecodecs.numcodecs import register_codecs
    from zarr.codecs.numcodecs._codecs import _NumcodecsBytesBytesCodec
    from zarr.registry import register_codec
    register_codecs()
    for cid in ("imagecodecs_lzf", "imagecodecs_lz4h5", "imagecodecs_bz2"):
        register_codec("numcodecs." + cid, type(cid, (_NumcodecsBytesBytesCodec,), {}, codec_name=cid))


H5_FILTERS = ("lzf", "lz4", "bz2", "zstd", "blosc", "gzip_shuffle", "gzip_fletcher32")


def h5_source():
    """h5_filters.h5, written before netCDF4 is imported: netCDF4-python's wheel bundles its own HDF5, and with
    both libraries loaded h5py's filter callbacks fail ("error during user callback")."""
    import h5py
    import hdf5plugin
    src = os.path.join(DIR, "h5_filters.h5")
    data = ((np.arange(12 * 20, dtype="f4").reshape(12, 20) % 37) * 0.5 - 4).astype("f4")
    kws = {"lzf": dict(compression="lzf"), "lz4": dict(hdf5plugin.LZ4()), "bz2": dict(hdf5plugin.BZip2()),
           "zstd": dict(hdf5plugin.Zstd()),
           "blosc": dict(hdf5plugin.Blosc(cname="lz4", clevel=5, shuffle=hdf5plugin.Blosc.SHUFFLE)),
           "gzip_shuffle": dict(compression="gzip", shuffle=True),
           "gzip_fletcher32": dict(compression="gzip", fletcher32=True)}
    with h5py.File(src, "w") as f:
        f.attrs["title"] = "HDF5 filters (h5py, hdf5plugin)"
        y = f.create_dataset("y", data=np.arange(12, dtype="i4"))
        y.make_scale("y")
        x = f.create_dataset("x", data=np.arange(20, dtype="i4"))
        x.make_scale("x")
        for k, name in enumerate(H5_FILTERS):
            d = f.create_dataset(name, data=data + k, chunks=(6, 10), **kws[name])
            d.dims[0].attach_scale(y)
            d.dims[1].attach_scale(x)


def h5_codecs():
    """h5py 3.16 + hdf5plugin 7.1 write one float32 dataset per HDF5 filter (dimension scales y, x); VirtualiZarr
    2.8.0 writes the references. Expected: h5py reading the source (zarr-python cannot decode the LZF
    references: VirtualiZarr declares imagecodecs' size header, `"header": true`, which HDF5's LZF filter does
    not write); every other variable is checked against xarray over the references too."""
    import h5py
    from obspec_utils.registry import ObjectStoreRegistry
    from obstore.store import LocalStore
    from virtualizarr import open_virtual_dataset
    from virtualizarr.parsers import HDFParser
    src = os.path.join(DIR, "h5_filters.h5")
    register_imagecodecs()
    reg = ObjectStoreRegistry({"file://": LocalStore()})
    vds = open_virtual_dataset(url="file://" + src, parser=HDFParser(), registry=reg)
    refs = vds.vz.to_kerchunk(format="dict")
    refs["refs"] = relative(refs["refs"])
    write_refs(refs, "h5_filters.json")
    # expected: metadata by SCHEMA's pure-Zarr rules from the references, values from h5py
    r = refs["refs"]
    m = {"schema": SCHEMA, "name": "autumn_virtualizarr_h5_filters", "variables": {},
         "groups": {"/": {"dimensions": {"y": 12, "x": 20}, "attributes": {
             k: M.infer_zarr_attr(v) for k, v in json.loads(r[".zattrs"]).items()}}}}
    with h5py.File(src, "r") as f:
        for name in ("x", "y") + H5_FILTERS:
            za = json.loads(r[name + "/.zarray"])
            zt = json.loads(r[name + "/.zattrs"])
            nct = M.dtype_nctype(za["dtype"], nczarr=False)
            attrs = {k: M.infer_zarr_attr(v) for k, v in zt.items() if not M.is_hidden(k)}
            if za["fill_value"] is not None:
                attrs["_FillValue"] = M.attr_entry(nct, M.typed_values([za["fill_value"]], nct))
            m["variables"]["/" + name] = {"type": nct, "dimensions": ["/" + d for d in zt["_ARRAY_DIMENSIONS"]],
                                          "shape": za["shape"], "attributes": attrs,
                                          "data": M.summarize(f[name][...], nct)}
    ds = open_refs("h5_filters.json")
    for name in ("x", "y") + H5_FILTERS[1:]:
        assert M.summarize(ds[name].values, m["variables"]["/" + name]["type"]) == m["variables"]["/" + name]["data"]
    with open(os.path.join(HERE, "autumn_virtualizarr_h5_filters.expected.json"), "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def main():
    shutil.rmtree(DIR, ignore_errors=True)
    os.makedirs(DIR)
    h5_source()
    sources()
    virtualizarr_refs()
    kerchunk_groups()
    os.chdir(DIR)
    expected("vz_nc4.json", "autumn_virtualizarr_nc4")
    expected("vz_nc3.json", "autumn_virtualizarr_nc3")
    expected("kc_groups.json", "autumn_kerchunk_groups", ("/", "/obs"))
    expected("vz_nc4.parq", "autumn_virtualizarr_nc4_parquet")
    expected("vz_nc4_v3.json", "autumn_virtualizarr_nc4_v3", zarr_format=3)
    h5_codecs()
    with open(os.path.join(HERE, "autumn_virtualizarr_nc4.expected.json"), encoding="utf-8") as f:
        j = json.load(f)
    with open(os.path.join(HERE, "autumn_virtualizarr_nc4_parquet.expected.json"), encoding="utf-8") as f:
        p = json.load(f)
    assert dict(j, name=None) == dict(p, name=None), "Parquet and JSON references present different data"


if __name__ == "__main__":
    main()
