#!/usr/bin/env bash
# Zarr v3 sharding benchmark (issue 11): one float32 4096 x 4096 array, shards 1024 x 1024, inner
# chunks 128 x 128, zstd 3, written by zarr-python 3 (bench/make_v3_sharded.py, once, into
# bench-data/, not committed). Reads it whole, one inner chunk and one row (1 x 4096, across 4
# shards) with ours, tensorstore (zarr3 driver), zarrs and zarr-python 3, locally and from the loopback
# S3 server behind a relay that adds a latency per request and counts requests
# (io.nczarr.cli.bench.V3Benchmark; the baselines run as bench/v3_read.py child processes).
# The S3 rows again with one process per read (--fresh-iters N per reader, default 3, 0 = off): ours a fresh
# JVM with ./nczarr's default JVM options and class-data archive (io.nczarr.cli.bench.FreshRead), tensorstore
# and zarrs one v3_read.py --oneshot process each; time to data split into start-up, imports, open and read.
# Prints Markdown tables (docs/performance.md, "Zarr v3 sharded reads") and the load average.
#
# usage: bench/v3-bench.sh [--quick] [--latency MS] [--iters N] [--s3-iters N] [--fresh-iters N]
#                          [--libs tensorstore,zarrs,zarr]
#        --quick: --iters 3 --s3-iters 1 --fresh-iters 0 (a smoke run; later options still apply)
# env:   BENCH_DATA (default ./bench-data), V3PY (python with bench/requirements-anchors.txt: tensorstore,
#        zarrs, zarr-python 3.4, s3fs; default the compare.sh venv, BENCH_VENV3 or /tmp/anchors-312)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${BENCH_DATA:-$home/bench-data}"
py="${V3PY:-${BENCH_VENV3:-/tmp/anchors-312}/bin/python}"
if [ ! -x "$py" ]; then
  echo "no $py: ~/.pyenv/versions/3.12.1/bin/python3 -m venv /tmp/anchors-312 && /tmp/anchors-312/bin/pip install -r bench/requirements-anchors.txt (or run bench/compare.sh once)" >&2
  exit 2
fi
mkdir -p "$data"
if [ ! -f "$data/v3sharded.expected.json" ] || [ ! -d "$data/v3sharded.zarr" ]; then
  "$py" "$home/bench/make_v3_sharded.py" "$data" >&2
fi
libs="tensorstore,zarrs,zarr"
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --libs) libs="$2"; shift 2 ;;
    --quick) args+=(--iters 3 --s3-iters 1 --fresh-iters 0); shift ;;
    *) args+=("$1"); shift ;;
  esac
done
if ! "$py" -c 'import s3fs' 2>/dev/null; then
  echo "note: no s3fs in $py: zarr-python runs locally only" >&2
fi
mapfile -t sections < <("$py" - "$data/v3sharded.expected.json" <<'PY'
import json, sys
for n, s in json.load(open(sys.argv[1]))["sections"].items():
    print(f"--section\n{n}:{','.join(map(str, s['origin']))}:{','.join(map(str, s['shape']))}:{s['sha256']}")
PY
)
jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -DskipTests package >&2)
fi
"$home/nczarr" --help >/dev/null # the launcher's class-data archive, used by the fresh-process children
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores" >&2
java -Xmx2g -cp "$jar:$lib/*" io.nczarr.cli.bench.V3Benchmark --data "$data" --python "$py" \
  --script "$home/bench/v3_read.py" --libs "$libs" "${args[@]}" "${sections[@]}"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
