#!/usr/bin/env bash
# Issue 26's scaling table: the time of one whole read vs the chunk count (100, 1,000, 10,000, 40,000
# uncompressed chunks of the SAME size, 800 B each, so the data grows with the count) and vs the data size
# (compare.sh's zlib cube at 7 / 30 / 90 days, chunks of one day), for ours, tensorstore and zarrs, local.
# Prints one Markdown table per axis with time, MB/s and time per chunk per reader (a cost that grows faster
# than linear shows as a time per chunk that grows down the table), every result checked against the sha256
# written by the generator.
#
#  1. makes the anchor venvs when missing (as bench/compare.sh: BENCH_VENV3, default /tmp/anchors-312, from
#     bench/requirements-anchors.txt; BENCH_VENV2, default /tmp/venv-16, from requirements-anchors-zarr2.txt);
#  2. writes the datasets once with zarr-python 2 (bench/make_scaling.py) into bench-data/scaling
#     (bench-data/scaling-quick with --quick; not committed; ~0.6 GB);
#  3. runs io.nczarr.cli.bench.ScalingBenchmark: ours in its JVM (one open, a warm-up read, best of N), the
#     anchors as bench/compare_read.py child processes (the same protocol), dataset by dataset.
#
# usage: bench/scaling.sh [--quick] [--iters N] [--libs tensorstore,zarrs]
#   --quick   100 / 1,000 chunks and 1 / 2 days, 2 iterations: checks the chain; its times mean nothing
# env: BENCH_DATA (default ./bench-data), BENCH_VENV3, BENCH_VENV2, JAVA_OPTS (default -Xmx3g)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv3="${BENCH_VENV3:-/tmp/anchors-312}"
py312="${BENCH_PYTHON312:-$HOME/.pyenv/versions/3.12.1/bin/python3}"
venv2="${BENCH_VENV2:-/tmp/venv-16}"
quick=0 iters=5 libs="tensorstore,zarrs" given=""
chunks="100,1000,10000,40000" days="7,30,90"
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --iters) iters="$2"; given+=" iters"; shift 2 ;;
    --libs) libs="$2"; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$quick" = 1 ]; then
  chunks="100,1000" days="1,2"
  [[ "$given" == *" iters"* ]] || iters=2
fi
data="${BENCH_DATA:-$home/bench-data}/scaling$([ "$quick" = 1 ] && echo -quick || true)"

# shellcheck source=bench/venv.sh
. "$home/bench/venv.sh"
venv "$venv3" "$home/bench/requirements-anchors.txt" "$py312"
venv "$venv2" "$home/bench/requirements-anchors-zarr2.txt"

want="$chunks $days"
have="$([ -f "$data/compare.expected.json" ] && python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["params"]; print(p["chunks"], p["days"])' "$data/compare.expected.json" || true)"
if [ "$have" != "$want" ]; then
  "$venv2/bin/python" "$home/bench/make_scaling.py" "$data" --chunks "$chunks" --days "$days" >&2
fi

jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -DskipTests package >&2)
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(java -version 2>&1 | head -1)" >&2
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx3g} -cp "$jar:$lib/*" io.nczarr.cli.bench.ScalingBenchmark \
  --data "$data" --script "$home/bench/compare_read.py" --py3 "$venv3/bin/python" --iters "$iters" --libs "$libs"
