#!/usr/bin/env python3
"""Test data for issue 23: virtual Icechunk repositories written by VirtualiZarr 2.8 (open_virtual_dataset +
.vz.to_icechunk) over a small netCDF-4 file (HDFParser) and a small netCDF-3 file (NetCDF3Parser), both
written by netCDF4-python; expected manifests from icechunk + zarr-python reading the repositories (never from
nczarr-java), under SCHEMA's v3 rules (test-data/autumn-2026/make.py's v3_manifest).

    ~/.pyenv/versions/3.12.1/bin/python3 -m venv /work/venvs/virtualizarr
    /work/venvs/virtualizarr/bin/pip install -r test-data/icechunk/requirements-virtualizarr.txt
    /work/venvs/virtualizarr/bin/python test-data/icechunk/make_virtualizarr.py

Same relocatable-container trick as make.py: the sources are opened as file:///nczarr-icechunk-src/NAME (a
symlink to this directory while the script runs), the repository declares the container `src` with that
prefix, and readers map it (icechunk.container.src=<URL of this directory>/). Coordinate variables are
loaded by VirtualiZarr (its default) and so stored as native/inline chunks; data variables are virtual.
Add the datasets to INDEX.json by hand (category icechunk-virtual).
"""
import os
import shutil

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_LINK = "/nczarr-icechunk-src"
SRC_PREFIX = "file://" + SRC_LINK + "/"


def write_nc4(path):
    import netCDF4 as nc
    d = nc.Dataset(path, "w", format="NETCDF4")
    d.title = "virtualizarr over netCDF-4"
    d.createDimension("time", 3)
    d.createDimension("lat", 4)
    d.createDimension("lon", 5)
    t = d.createVariable("time", "i4", ("time",))
    t.units = "hours since 2026-01-01"
    t[:] = [0, 6, 12]
    la = d.createVariable("lat", "f4", ("lat",))
    la[:] = [-45, -15, 15, 45]
    lo = d.createVariable("lon", "f4", ("lon",))
    lo[:] = [0, 72, 144, 216, 288]
    v = d.createVariable("temp", "f4", ("time", "lat", "lon"), chunksizes=(1, 2, 5), zlib=True, complevel=4,
                         fill_value=-999.0)
    v.units = "K"
    v[:] = (np.arange(60, dtype="f4").reshape(3, 4, 5) * 0.5 + 270).astype("f4")
    v[1, 0, 0] = np.ma.masked
    w = d.createVariable("flat", "i2", ("lat", "lon"), contiguous=True)
    w.long_name = "contiguous int16"
    w[:] = (np.arange(20, dtype="i2").reshape(4, 5) * 37 - 300).astype("i2")
    d.close()


def write_nc3(path):
    import netCDF4 as nc
    d = nc.Dataset(path, "w", format="NETCDF3_CLASSIC")
    d.title = "virtualizarr over netCDF-3"
    d.createDimension("y", 3)
    d.createDimension("x", 4)
    y = d.createVariable("y", "f8", ("y",))
    y[:] = [10.0, 20.0, 30.0]
    x = d.createVariable("x", "i4", ("x",))
    x[:] = [1, 2, 3, 4]
    a = d.createVariable("a", "f4", ("y", "x"), fill_value=9.96921e36)
    a.units = "m"
    a[:] = (np.arange(12, dtype="f4").reshape(3, 4) - 5.5).astype("f4")
    b = d.createVariable("b", "i2", ("y", "x"))
    b[:] = (np.arange(12, dtype="i2").reshape(3, 4) * -7).astype("i2")
    d.close()


LAST_UPDATED = __import__("datetime").datetime(2100, 1, 1, tzinfo=__import__("datetime").timezone.utc)


def make(src_name, repo_name, parser):
    import icechunk as ic
    from obspec_utils.registry import ObjectStoreRegistry
    from obstore.store import LocalStore
    from virtualizarr import open_virtual_dataset
    path = os.path.join(HERE, repo_name)
    shutil.rmtree(path, ignore_errors=True)
    registry = ObjectStoreRegistry({"file://" + SRC_LINK: LocalStore(prefix=SRC_LINK)})
    vds = open_virtual_dataset(SRC_PREFIX + src_name, registry=registry, parser=parser)
    cont = ic.VirtualChunkContainer(SRC_PREFIX, ic.local_filesystem_store(SRC_LINK), name="src")
    # Keyed by the name "src" like make.py (the name readers map). icechunk's set_virtual_chunk_container keys
    # containers by their prefix, and VirtualiZarr's container check looks for the prefix among the keys, so
    # that check is switched off here (validate_containers=False); every ref lies under SRC_PREFIX anyway.
    config = ic.RepositoryConfig(virtual_chunk_containers={"src": cont})
    repo = ic.Repository.create(ic.local_filesystem_storage(path), config=config,
                                authorize_virtual_chunk_access={SRC_PREFIX: ic.credentials.LocalFileSystemAccess})
    s = repo.writable_session("main")
    # VirtualiZarr records a "last updated" time per reference (checksum_last_modified; default: now). The
    # sources' mtimes change with every checkout, and the loopback S3 copies are newer still, so a fixed date
    # far ahead is recorded; readers refusing changed objects is tested with hand-built refs instead.
    vds.vz.to_icechunk(s.store, validate_containers=False, last_updated_at=LAST_UPDATED)
    s.commit("virtualizarr: " + src_name)
    return path


def expected(path, name):
    import importlib.util
    import json
    import sys
    import icechunk as ic
    sys.path.insert(0, os.path.dirname(HERE))
    spec = importlib.util.spec_from_file_location("autumn_make",
                                                  os.path.join(os.path.dirname(HERE), "autumn-2026", "make.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    ro = ic.Repository.open(ic.local_filesystem_storage(path),
                            authorize_virtual_chunk_access={SRC_PREFIX: ic.credentials.LocalFileSystemAccess}).readonly_session(branch="main")
    m = mod.v3_manifest(ro.store, name)
    with open(os.path.join(HERE, name + ".expected.json"), "w", encoding="utf-8") as f:
        json.dump(m, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.write("\n")


def main():
    from virtualizarr.parsers import HDFParser, NetCDF3Parser
    write_nc4(os.path.join(HERE, "vz_src4.nc"))
    write_nc3(os.path.join(HERE, "vz_src3.nc"))
    if os.path.islink(SRC_LINK):
        os.remove(SRC_LINK)
    os.symlink(HERE, SRC_LINK)
    try:
        p = make("vz_src4.nc", "vz_nc4.icechunk", HDFParser())
        expected(p, "icechunk_vz_nc4")
        p = make("vz_src3.nc", "vz_nc3.icechunk", NetCDF3Parser())
        expected(p, "icechunk_vz_nc3")
    finally:
        os.remove(SRC_LINK)


if __name__ == "__main__":
    main()
