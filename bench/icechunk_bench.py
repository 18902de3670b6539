#!/usr/bin/env python3
"""Issue 23 benchmark (not a timed test): a 48 x 360 x 720 float32 variable (1 MB chunks, 49.8 MB) in an Icechunk
repository with native chunks (zarr-python's default zstd) and in one with virtual chunks into a netCDF-4 file
(zlib level 1, no shuffle), read by icechunk 2.3.0 + zarr-python 3.4.2: open + one time step, and the whole
variable (best of 3). The Java side: ./nczarr bench URL sst --repeat 3 on the same repositories.

    /work/venvs/icechunk/bin/python bench/icechunk_bench.py /tmp/icbench/data   (test-data/icechunk/requirements.txt)
"""
import os, sys, time, shutil, numpy as np, icechunk as ic, zarr, h5py, netCDF4 as nc
from zarr.codecs.numcodecs import Zlib
from zarr.codecs import BytesCodec
D = sys.argv[1]
os.makedirs(D, exist_ok=True)
shape, chunk = (48, 360, 720), (1, 360, 720)
rng = np.random.default_rng(23)
data = (np.cumsum(rng.normal(size=shape).astype("f4"), axis=2) / 10).astype("f4")
src = os.path.join(D, "src.nc")
if not os.path.exists(src):
    d = nc.Dataset(src, "w"); d.createDimension("t", shape[0]); d.createDimension("y", shape[1]); d.createDimension("x", shape[2])
    v = d.createVariable("sst", "f4", ("t", "y", "x"), chunksizes=chunk, zlib=True, complevel=1, shuffle=False); v[:] = data; d.close()
prefix = "file://" + D + "/"
vpath = os.path.join(D, "virtual.icechunk")
if not os.path.exists(vpath):
    cont = ic.VirtualChunkContainer(prefix, ic.local_filesystem_store(D), name="src")
    repo = ic.Repository.create(ic.local_filesystem_storage(vpath), config=ic.RepositoryConfig(virtual_chunk_containers={"src": cont}))
    s = repo.writable_session("main"); root = zarr.group(store=s.store, zarr_format=3)
    root.create_array("sst", shape=shape, chunks=chunk, dtype="f4", fill_value=np.nan, serializer=BytesCodec(endian="little"), compressors=[Zlib(level=1)], dimension_names=["t", "y", "x"])
    with h5py.File(src) as h:
        dsid = h["sst"].id
        for i in range(dsid.get_num_chunks()):
            ci = dsid.get_chunk_info(i)
            s.store.set_virtual_ref("sst/c/%d/0/0" % ci.chunk_offset[0], prefix + "src.nc", offset=ci.byte_offset, length=ci.size)
    s.commit("virtual")
npath = os.path.join(D, "native.icechunk")
if not os.path.exists(npath):
    repo = ic.Repository.create(ic.local_filesystem_storage(npath))
    s = repo.writable_session("main"); root = zarr.group(store=s.store, zarr_format=3)
    a = root.create_array("sst", shape=shape, chunks=chunk, dtype="f4", dimension_names=["t", "y", "x"]); a[:] = data
    s.commit("native")
for name, path, auth in (("native", npath, None), ("virtual", vpath, {prefix: ic.credentials.LocalFileSystemAccess})):
    best_all = best_one = 1e9
    for r in range(3):
        t0 = time.perf_counter()
        repo = ic.Repository.open(ic.local_filesystem_storage(path), authorize_virtual_chunk_access=auth)
        arr = zarr.open_group(store=repo.readonly_session(branch="main").store, mode="r")["sst"]
        t1 = time.perf_counter(); x = arr[7]; t2 = time.perf_counter(); y = arr[...]; t3 = time.perf_counter()
        best_one = min(best_one, t2 - t0); best_all = min(best_all, t3 - t2)
        assert np.array_equal(y, data), (name, np.abs(y - data).max(), np.isnan(y).sum())
    print("%s: open+one step %.1f ms, whole variable %.0f ms (%.0f MB/s)" % (name, best_one * 1e3, best_all * 1e3, data.nbytes / best_all / 1e6))
