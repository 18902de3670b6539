#!/usr/bin/env python3
"""Issue 21 test data: a Parquet reference folder whose `path` column names a LOCAL file (file:///etc/passwd),
to prove that such a folder read over HTTP (a remote document) is refused before anything is opened.

A copy of ../parquet-refs/nc4.pyarrow-none-v2.parq with every non-null `path` of `temp/refs.*.parq` replaced
by `file:///etc/passwd` (pyarrow, uncompressed, data page v2, as the original). Regenerate with the venv of
../parquet-refs (requirements.txt there, pinned):

    cd test-data/parquet-refs-trust && /work/venvs/parquet/bin/python make.py

Never produced by nczarr-java.
"""
import glob
import os
import shutil

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

SRC = "../parquet-refs/nc4.pyarrow-none-v2.parq"
DST = "nc4.local-path.parq"
TARGET = "file:///etc/passwd"

shutil.rmtree(DST, ignore_errors=True)
shutil.copytree(SRC, DST)
for f in sorted(glob.glob(os.path.join(DST, "temp", "refs.*.parq"))):
    t = pq.read_table(f)
    paths = t.column("path")
    new = pc.if_else(pc.is_null(paths), paths, pa.scalar(TARGET, type=paths.type))
    t = t.set_column(t.schema.get_field_index("path"), "path", new)
    pq.write_table(t, f, compression="none", data_page_version="2.0", use_dictionary=False)
    print(f, pq.read_table(f).column("path").to_pylist())
