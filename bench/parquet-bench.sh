#!/usr/bin/env bash
# Parquet reference benchmark (issue 23): the kerchunk benchmark's ~100 MB netCDF-4 file (100 chunks of 1 MB)
# and its kerchunk references as fsspec Parquet folders (record_size 10) in the loopback S3 server behind a
# relay with a fixed latency per request; the whole variable and one time step read (a) by nczarr-java through
# the Parquet references, (b) by fsspec ReferenceFileSystem + xarray/zarr-python 3 (s3fs). Prints a Markdown
# table (docs/performance.md, "Parquet references").
# Needs the venv of test-data/parquet-refs/requirements.txt plus its bench pins (s3fs); PYTHON defaults to
# /work/venvs/parquet/bin/python.
# usage: bench/parquet-bench.sh [latencyMs=20] [runs=3]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
py="${PYTHON:-/work/venvs/parquet/bin/python}"
dir="${PARQUET_BENCH_DIR:-/tmp/nczarr-parquet-bench}"
[ -f "$dir/big.parq/.zmetadata" ] || "$py" "$here/make_parquet_bench.py" "$dir" "s3://bench/parquet/" >&2
cd "$repo"
[ -f nczarr-cli/target/nczarr-cli.jar ] || mvn -B -q -DskipTests package >/dev/null
java -Xmx2g -cp "nczarr-cli/target/nczarr-cli.jar:nczarr-cli/target/lib/*" \
  io.nczarr.cli.bench.ParquetBench "$dir" "$py" "$here/parquet_xarray.py" "$@" 2> >(grep -v SLF4J >&2)
