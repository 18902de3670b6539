#!/usr/bin/env python3
"""The Python anchor of IcechunkBench on S3: icechunk-python 2.3.0 + zarr-python 3.4.2 open
s3://BUCKET/KEY (the loopback S3 server's unauthenticated endpoint, through the latency relay) and read the whole
variable sst or one time step (7), its virtual chunks from the container s3://BUCKET/PREFIX/ on the same
endpoint. Prints `seconds sum`. Usage: icechunk_s3_read.py ENDPOINT BUCKET KEY CONTAINER_PREFIX all|step"""
import sys, time, numpy as np, icechunk as ic, zarr
endpoint, bucket, key, prefix, what = sys.argv[1:6]
t0 = time.perf_counter()
storage = ic.s3_storage(bucket=bucket, prefix=key, endpoint_url=endpoint, allow_http=True, force_path_style=True,
                        region="us-east-1", anonymous=True)
cont = ic.VirtualChunkContainer(prefix, ic.s3_store(region="us-east-1", endpoint_url=endpoint, allow_http=True,
                                                    force_path_style=True, s3_compatible=True))
cfg = ic.RepositoryConfig(virtual_chunk_containers={"src": cont})
repo = ic.Repository.open(storage, config=cfg,
                          authorize_virtual_chunk_access=ic.containers_credentials({prefix: ic.s3_anonymous_credentials()}))
arr = zarr.open_group(store=repo.readonly_session(branch="main").store, mode="r")["sst"]
v = arr[7] if what == "step" else arr[...]
total = float(np.asarray(v, dtype="f8").sum())
print("%.3f %.1f" % (time.perf_counter() - t0, total))
