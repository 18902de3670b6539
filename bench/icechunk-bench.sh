#!/usr/bin/env bash
# Icechunk benchmark (issue 23): a virtual Icechunk repository over a netCDF-4 file (48 x 360 x 720 float32, 1 MB
# chunks, zlib 1), the whole variable and one time step read by nczarr-java and by icechunk-python + zarr-python 3,
# locally and from the loopback S3 server behind a relay with a fixed latency per request (IcechunkBench). Prints a
# Markdown table (docs/performance.md, "Icechunk repositories").
# Needs the venv of test-data/icechunk/requirements.txt (PYTHON, default /work/venvs/icechunk/bin/python).
# usage: bench/icechunk-bench.sh [latencyMs=20] [runs=3]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
py="${PYTHON:-/work/venvs/icechunk/bin/python}"
dir="${ICECHUNK_BENCH_DIR:-/tmp/nczarr-icechunk-bench}"
[ -d "$dir/virtual.icechunk" ] || "$py" "$here/icechunk_bench.py" "$dir" >&2
[ -d "$dir/virtual-s3.icechunk" ] || "$py" "$here/icechunk_s3_repo.py" "$dir" "s3://bench/ic/" >&2
cd "$repo"
[ -f nczarr-cli/target/nczarr-cli.jar ] || mvn -B -q -DskipTests package >/dev/null
uptime
java -Xmx2g -cp "nczarr-cli/target/nczarr-cli.jar:nczarr-cli/target/lib/*" \
  io.nczarr.cli.bench.IcechunkBench "$dir" "$dir" "$py" "$here/icechunk_local_read.py" "$here/icechunk_s3_read.py" "$@" \
  2> >(grep -v SLF4J >&2)
uptime
