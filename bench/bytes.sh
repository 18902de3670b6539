#!/usr/bin/env bash
# mode=bytes benchmark (issue: s3-raf). Generates a ~100 MB netCDF-4 file (default
# /tmp/nczarr-bytes-bench.nc, not committed), serves it from the loopback range server of the
# s3-raf tests, and prints GETs / bytes / time for open+header, a small variable, a large variable
# and a chunked+deflated one, per block size and injected latency, next to a whole download and
# cdm 4.5.5's HTTPRandomAccessFile. Results: docs/performance.md, "Byte-range reads (mode=bytes)".
# Needs /usr/bin/python3 with netCDF4 + numpy (Debian python3-netcdf4).
# Usage: bench/bytes.sh [configs=64k,256k,512k,1m,4m (blockSize[:cacheBlocks[:readAhead]])] [latenciesMs=0,20] [cacheMiB=16]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
file="${BYTES_BENCH_FILE:-/tmp/nczarr-bytes-bench.nc}"
[ -f "$file" ] || /usr/bin/python3 "$here/make_bytes_bench.py" "$file"
cd "$repo"
[ -f nczarr-cli/target/nczarr-cli.jar ] || mvn -B -q -DskipTests package >/dev/null
java -Xmx2g -cp "nczarr-cli/target/nczarr-cli.jar:nczarr-cli/target/lib/*" \
  io.nczarr.cli.bench.ByteRangeBench "$file" "$@" 2> >(grep -v SLF4J >&2)
