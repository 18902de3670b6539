#!/usr/bin/env python3
"""Issue 23 S3 benchmark data: next to bench/icechunk_bench.py's src.nc (DIR), a repository virtual-s3.icechunk
whose virtual refs name s3://BUCKET/PREFIX/src.nc (container s3://BUCKET/PREFIX/), so that both icechunk-python and
nczarr-java read the same repository and netCDF-4 file from the loopback S3 server (IcechunkBench uploads DIR).

    /work/venvs/icechunk/bin/python bench/icechunk_s3_repo.py DIR s3://bench/ic/
"""
import os, sys, numpy as np, icechunk as ic, zarr, h5py
from zarr.codecs.numcodecs import Zlib
from zarr.codecs import BytesCodec
D, prefix = sys.argv[1], sys.argv[2]
path = os.path.join(D, "virtual-s3.icechunk")
if not os.path.exists(path):
    bucket = prefix[len("s3://"):].split("/")[0]
    cont = ic.VirtualChunkContainer(prefix, ic.s3_store(region="us-east-1"))
    repo = ic.Repository.create(ic.local_filesystem_storage(path),
                                config=ic.RepositoryConfig(virtual_chunk_containers={"src": cont}))
    s = repo.writable_session("main"); root = zarr.group(store=s.store, zarr_format=3)
    with h5py.File(os.path.join(D, "src.nc")) as h:
        shape, chunk = h["sst"].shape, h["sst"].chunks
        root.create_array("sst", shape=shape, chunks=chunk, dtype="f4", fill_value=np.nan,
                          serializer=BytesCodec(endian="little"), compressors=[Zlib(level=1)],
                          dimension_names=["t", "y", "x"])
        dsid = h["sst"].id
        for i in range(dsid.get_num_chunks()):
            ci = dsid.get_chunk_info(i)
            s.store.set_virtual_ref("sst/c/%d/0/0" % ci.chunk_offset[0], prefix + "src.nc", offset=ci.byte_offset,
                                    length=ci.size, validate_container=False)
    s.commit("virtual, on S3")
