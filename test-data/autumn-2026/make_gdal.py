#!/usr/bin/env python3
"""Issue 22, GDAL: rasters written by GDAL 3.12's Zarr driver (the one bundled in rasterio 1.5.2's wheel),
as Zarr v2 and v3, with expected manifests (`zarr-conformance-manifest/1`) from zarr-python 3.4.2 reading
GDAL's stores (never from our reader). Own venv (rasterio's wheel bundles GDAL; pins in requirements-gdal.txt):

    ~/.pyenv/versions/3.12.1/bin/python3 -m venv /work/venvs/gdal
    /work/venvs/gdal/bin/pip install -r test-data/autumn-2026/requirements-gdal.txt
    /work/venvs/gdal/bin/python test-data/autumn-2026/make_gdal.py

Each raster is first written as a GeoTIFF (a temporary file) and then copied with GDAL's CreateCopy
(`rasterio.shutil.copy`, driver `Zarr`): GDAL 3.12 refuses to set a nodata value on a Zarr band after
creation ("SetRawNoDataValue() not implemented"), CreateCopy passes it at creation. Deterministic values;
GDAL writes no timestamps into the stores. Datasets (INDEX.json lists them):

* gdal_v2.zarr        FORMAT=ZARR_V2, COMPRESS=ZLIB, SINGLE_ARRAY=NO (one 2-D array per band: Band1..Band3),
                      BLOCKSIZE=3,4 (edge chunks), uint16 with nodata 65535 -> `fill_value` 65535 (SCHEMA v2:
                      reported as `_FillValue`), Band2's last block all nodata (GDAL does not write it), CRS as
                      GDAL's `_CRS` attribute (wkt, projjson, url), X/Y coordinate arrays, `.zmetadata`.
* gdal_v3.zarr        the same raster with FORMAT=ZARR_V3, COMPRESS=ZSTD: `fill_value` 65535 and no `_FillValue`
                      attribute (SCHEMA v3: not reported), chunk keys `c/i/j`.
* gdal_v2_cube.zarr   FORMAT=ZARR_V2, COMPRESS=BLOSC (lz4, shuffle), the default SINGLE_ARRAY=YES: one 3-D float32
                      array (Band, Y, X) with `fill_value: null`, BLOCKSIZE=2,3,4; GDAL keeps the CRS in
                      pam.aux.xml (not Zarr: ignored by readers).
* gdal_v3_cube.zarr   the cube with FORMAT=ZARR_V3, COMPRESS=GZIP (`fill_value` "NaN").
* gdal_v2_compressors.zarr  one int32 array per compressor GDAL 3.12 offers for v2 (NONE, BLOSC, ZLIB, GZIP, LZMA,
                      ZSTD; appended with APPEND_SUBDATASET=YES): GDAL writes `{"id": "lzma", "preset": 6,
                      "delta": 1}` (an .xz stream whose block has a delta filter; numcodecs refuses the parameter,
                      so zarr-python cannot open this group) and `{"id": "zstd", "checksum": "NO"}`. Expected values:
                      GDAL reading each band (and zarr-python per array where it can, agreeing).
"""
import json
import os
import shutil
import sys
import tempfile

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))
import make as A  # noqa: E402
import manifest as M  # noqa: E402

SCHEMA = A.SCHEMA


def v2_manifest(path, name):
    """A pure Zarr v2 store read with zarr-python 3.4.2 under SCHEMA's pure-Zarr rules: metadata from the
    store's own .zarray/.zattrs JSON, values from zarr-python."""
    import zarr
    root = zarr.open_group(store=path, mode="r", zarr_format=2)
    m = {"schema": SCHEMA, "name": name, "groups": {}, "variables": {}}
    m["groups"]["/"] = {"dimensions": {}, "attributes": {k: M.infer_zarr_attr(v) for k, v in
                                                         root.attrs.asdict().items() if not M.is_hidden(k)}}
    dims = {}
    for p, node in sorted(root.members(max_depth=None), key=lambda kv: kv[0]):
        if isinstance(node, zarr.Group):
            m["groups"]["/" + p] = {"dimensions": {}, "attributes": {
                k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items() if not M.is_hidden(k)}}
            continue
        with open(os.path.join(path, p, ".zarray"), encoding="utf-8") as f:
            zarray = json.load(f)
        raw = node.attrs.asdict()
        shape = [int(s) for s in zarray["shape"]]
        nct = M.dtype_nctype(zarray["dtype"], nczarr=False)
        names = raw.get("_ARRAY_DIMENSIONS")
        if not (isinstance(names, list) and len(names) == len(shape) and all(isinstance(n, str) for n in names)):
            names = ["_zdim_%d" % s for s in shape]
        for n, s in zip(names, shape):
            assert dims.setdefault(n, s) == s
        attrs = {k: M.infer_zarr_attr(v) for k, v in raw.items() if not M.is_hidden(k) and k != "_FillValue"}
        fv = raw.get("_FillValue", zarray.get("fill_value"))
        if fv is not None and nct not in ("char", "string"):
            attrs["_FillValue"] = M.attr_entry(nct, M.typed_values([fv], nct))
        m["variables"]["/" + p] = {"type": nct, "dimensions": ["/" + n for n in names], "shape": shape,
                                   "attributes": attrs, "data": M.summarize(np.asarray(node[...]), nct)}
    m["groups"]["/"]["dimensions"] = dims
    return m


def v3_manifest(path, name):
    """make.v3_manifest plus every subgroup (v3 dimensions live in the root group)."""
    import zarr
    m = A.v3_manifest(path, name)
    root = zarr.open_group(store=path, mode="r")
    for p, node in sorted(root.members(max_depth=None), key=lambda kv: kv[0]):
        if isinstance(node, zarr.Group):
            m["groups"]["/" + p] = {"dimensions": {}, "attributes": {
                k: M.infer_zarr_attr(v) for k, v in node.attrs.asdict().items()}}
    return m


def geotiff(tmp, name, data, nodata, crs, transform, tags, descriptions=()):
    import rasterio
    p = os.path.join(tmp, name + ".tif")
    with rasterio.open(p, "w", driver="GTiff", width=data.shape[2], height=data.shape[1], count=data.shape[0],
                       dtype=data.dtype.name, crs=crs, transform=transform, nodata=nodata) as d:
        d.write(data)
        d.update_tags(**tags)
        for i, desc in enumerate(descriptions):
            d.set_band_description(i + 1, desc)
    return p


def gdal_copy(src, name, **options):
    from rasterio.shutil import copy
    path = A.fresh(name)
    copy(src, path, driver="Zarr", **options)
    return path


def bands():
    """3 bands of uint16 5x7, one nodata pixel in band 1, band 2's block (1, 1) all nodata."""
    data = ((np.arange(3 * 5 * 7, dtype="u4").reshape(3, 5, 7) * 37) % 1000).astype("u2")
    data[0, 0, 0] = 65535
    data[1, 3:5, 4:7] = 65535
    return data


def cube():
    return (np.arange(4 * 5 * 7, dtype="f4").reshape(4, 5, 7) / 8 - 3).astype("f4")


COMPRESSORS = ("NONE", "BLOSC", "ZLIB", "GZIP", "LZMA", "ZSTD")   # GDAL 3.12's v2 choices (its wheel lacks LZ4, XZ)


def compressors_manifest(path, name):
    """gdal_v2_compressors.zarr: metadata by SCHEMA's pure-Zarr rules from GDAL's own .zarray/.zattrs, values
    read back by GDAL (rasterio) for every band array and by zarr-python array by array where it can: zarr-python
    cannot open the group at all (numcodecs' LZMA refuses GDAL's extra `"delta": 1` parameter)."""
    import rasterio
    import zarr
    m = {"schema": SCHEMA, "name": name, "groups": {"/": {"dimensions": {"Y": 5, "X": 7}, "attributes": {}}},
         "variables": {}}
    for a in ("X", "Y") + COMPRESSORS:
        with open(os.path.join(path, a, ".zarray"), encoding="utf-8") as f:
            zarray = json.load(f)
        with open(os.path.join(path, a, ".zattrs"), encoding="utf-8") as f:
            zattrs = json.load(f)
        nct = M.dtype_nctype(zarray["dtype"], nczarr=False)
        attrs = {k: M.infer_zarr_attr(v) for k, v in zattrs.items() if not M.is_hidden(k)}
        if a in ("X", "Y"):
            values = zarr.open_array(os.path.join(path, a), mode="r", zarr_format=2)[...]
        else:
            with rasterio.open('ZARR:"%s":/%s' % (path, a)) as d:
                values = d.read(1)
            if a != "LZMA":
                assert (zarr.open_array(os.path.join(path, a), mode="r", zarr_format=2)[...] == values).all()
        m["variables"]["/" + a] = {"type": nct, "dimensions": ["/" + n for n in zattrs["_ARRAY_DIMENSIONS"]],
                                   "shape": zarray["shape"], "attributes": attrs, "data": M.summarize(values, nct)}
    return m


def main():
    from rasterio.transform import from_origin
    with tempfile.TemporaryDirectory() as tmp:
        tif = geotiff(tmp, "bands", bands(), 65535, "EPSG:32633", from_origin(500000, 6000000, 10, 10),
                      {"title": "GDAL raster"}, ("blue", "green", "red"))
        p = gdal_copy(tif, "gdal_v2.zarr", FORMAT="ZARR_V2", COMPRESS="ZLIB", SINGLE_ARRAY="NO", BLOCKSIZE="3,4")
        A.write_manifest(v2_manifest(p, "autumn_gdal_v2"), "autumn_gdal_v2")
        p = gdal_copy(tif, "gdal_v3.zarr", FORMAT="ZARR_V3", COMPRESS="ZSTD", SINGLE_ARRAY="NO", BLOCKSIZE="3,4")
        A.write_manifest(v3_manifest(p, "autumn_gdal_v3"), "autumn_gdal_v3")
        tif = geotiff(tmp, "cube", cube(), None, "EPSG:4326", from_origin(10, 60, 0.25, 0.25),
                      {"title": "GDAL cube"})
        p = gdal_copy(tif, "gdal_v2_cube.zarr", FORMAT="ZARR_V2", COMPRESS="BLOSC", BLOCKSIZE="2,3,4")
        A.write_manifest(v2_manifest(p, "autumn_gdal_v2_cube"), "autumn_gdal_v2_cube")
        p = gdal_copy(tif, "gdal_v3_cube.zarr", FORMAT="ZARR_V3", COMPRESS="GZIP", BLOCKSIZE="2,3,4")
        A.write_manifest(v3_manifest(p, "autumn_gdal_v3_cube"), "autumn_gdal_v3_cube")
        # one array per compressor in one store: CreateCopy with APPEND_SUBDATASET=YES, ARRAY_NAME
        data = ((np.arange(5 * 7, dtype="i8").reshape(1, 5, 7) * 1234567 - 20000000)).astype("i4")
        tif = geotiff(tmp, "ints", data, None, "EPSG:4326", from_origin(0, 5, 1, 1), {})
        path = A.fresh("gdal_v2_compressors.zarr")
        for k, c in enumerate(COMPRESSORS):
            extra = {"APPEND_SUBDATASET": "YES"} if k else {}
            from rasterio.shutil import copy
            copy(tif, path, driver="Zarr", FORMAT="ZARR_V2", COMPRESS=c, ARRAY_NAME=c, BLOCKSIZE="3,4", **extra)
        A.write_manifest(compressors_manifest(path, "autumn_gdal_v2_compressors"), "autumn_gdal_v2_compressors")


if __name__ == "__main__":
    main()
