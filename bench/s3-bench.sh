#!/usr/bin/env bash
# S3 store benchmark: a 10,000-chunk dataset (1000 x 1000 float64, chunks 10 x 10, uncompressed;
# ../shared/corpus/make-bench.py dataset 3) as NCZarr and as pure Zarr, served by the loopback S3
# server behind a relay that adds a fixed latency per request and counts requests server side.
# Opens it by http://127.0.0.1:PORT/...#mode=...,s3 URLs and reads the whole variable one request
# at a time and in parallel. Prints a Markdown table (docs/performance.md, "S3 store").
#
# usage: bench/s3-bench.sh [--latency MS] [--levels 1,4,16,64]
# env:   BENCH_DATA (default ./bench-data, not committed), BENCH_SETS ("nczarr zarr"),
#        PYTHON with numpy + zarr 2.x for the generator (default /usr/bin/python3)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${BENCH_DATA:-$home/bench-data}"
py="${PYTHON:-/usr/bin/python3}"
corpus="$home/../shared/corpus"
mkdir -p "$data"
if [ ! -f "$data/many_chunks.expected.json" ]; then
  "$py" "$corpus/make-bench.py" "$data" --only 3 --manifest >&2
  rm -rf "$data/many_chunks.file"
fi
if [ ! -d "$data/many_chunks.file" ]; then
  python3 "$home/bench/to-nczarr.py" "$data/many_chunks.zarr" "$data/many_chunks.file" >&2
fi
sha="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["variables"]["/field"]["data"]["sha256"])' \
  "$data/many_chunks.expected.json")"
sets=()
for s in ${BENCH_SETS:-nczarr zarr}; do
  case "$s" in
    nczarr) sets+=("$data/many_chunks.file#nczarr") ;;
    zarr) sets+=("$data/many_chunks.zarr#zarr") ;;
    *) echo "unknown set $s" >&2; exit 2 ;;
  esac
done
jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -DskipTests package >&2)
fi
exec java -Xmx2g -cp "$jar:$lib/*" io.nczarr.cli.bench.S3Benchmark --sha256 "$sha" "$@" "${sets[@]}"
