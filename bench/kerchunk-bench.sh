#!/usr/bin/env bash
# Kerchunk benchmark (issue 13): a ~100 MB netCDF-4 file (100 chunks of 1 MB) and its kerchunk JSON
# references in the loopback S3 server behind a relay with a fixed latency per request; the whole variable
# read (a) through the references, (b) with mode=bytes, (c) with xarray + kerchunk + fsspec/s3fs in Python.
# Prints a Markdown table (docs/performance.md, "Kerchunk references").
# Needs a venv with test-data/requirements-kerchunk.txt (its last lines pin s3fs and xarray for (c));
# PYTHON defaults to /tmp/venv-13/bin/python.
# usage: bench/kerchunk-bench.sh [latencyMs=20] [runs=3]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
py="${PYTHON:-/tmp/venv-13/bin/python}"
dir="${KERCHUNK_BENCH_DIR:-/tmp/nczarr-kerchunk-bench}"
[ -f "$dir/big.json" ] || "$py" "$here/make_kerchunk_bench.py" "$dir" >&2
cd "$repo"
[ -f nczarr-cli/target/nczarr-cli.jar ] || mvn -B -q -DskipTests package >/dev/null
java -Xmx2g -cp "nczarr-cli/target/nczarr-cli.jar:nczarr-cli/target/lib/*" \
  io.nczarr.cli.bench.KerchunkBench "$dir" "$py" "$here/kerchunk_xarray.py" "$@" 2> >(grep -v SLF4J >&2)
