#!/usr/bin/env bash
# Aggregation benchmark (issue 14): 100 netCDF-4 fragments of ~2 MB and a CF-1.13 aggregation file
# (bench/make_aggregation_bench.py; default /tmp/nczarr-aggregation-bench, not committed) on the
# loopback S3 server behind a relay with a fixed latency per request; open, whole read and one
# fragment's section by nczarr-java, next to cfdm + s3fs reading the same objects in the same run.
# Needs a Python with the pins of test-data/requirements-aggregation.txt (cfdm also needs libudunits2).
# usage: bench/aggregation-bench.sh [--latency MS]   env: PYTHON (default /tmp/venv-14/bin/python), AGG_BENCH_DIR
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
dir="${AGG_BENCH_DIR:-/tmp/nczarr-aggregation-bench}"
py="${PYTHON:-/tmp/venv-14/bin/python}"
[ -f "$dir/expected.json" ] || "$py" "$here/make_aggregation_bench.py" "$dir" 100
cd "$repo"
[ -f nczarr-cli/target/nczarr-cli.jar ] || mvn -B -q -DskipTests package >/dev/null
java -Xmx2g -cp "nczarr-cli/target/nczarr-cli.jar:nczarr-cli/target/lib/*" \
  io.nczarr.cli.bench.AggregationBench "$dir" --python "$py" "$@" 2> >(grep -v SLF4J >&2)
