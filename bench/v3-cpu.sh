#!/usr/bin/env bash
# CPU time of the local v3 sharded reads (issue 26, stop 31): whole / one inner chunk / one row of
# bench/make_v3_sharded.py's array, read by io.nczarr.cli.bench.V3LocalCpu (wall best + median, process CPU per
# read, the reading thread's CPU), on one open array and with a fresh open before each read (not timed). With --base DIR (a folder holding another build's nczarr-cli.jar and lib/),
# runs the two builds alternately, ROUNDS times each (A/B interleaved, for a loaded machine), one JVM per run.
# Prints a Markdown table and the load average.
#
# usage: bench/v3-cpu.sh [--quick] [--base DIR] [--rounds N] [--iters N]
# env:   BENCH_DATA (default ./bench-data; the array is made there by bench/v3-bench.sh or make_v3_sharded.py)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
data="${BENCH_DATA:-$home/bench-data}"
base=""
rounds=3
iters=20
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) rounds=1; iters=8; shift ;;
    --base) base="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --iters) iters="$2"; shift 2 ;;
    *) echo "usage: bench/v3-cpu.sh [--quick] [--base DIR] [--rounds N] [--iters N]" >&2; exit 2 ;;
  esac
done
if [ ! -d "$data/v3sharded.zarr" ]; then
  echo "no $data/v3sharded.zarr: run bench/v3-bench.sh once (or bench/make_v3_sharded.py $data)" >&2
  exit 2
fi
jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -DskipTests package -pl nczarr-cli -am >&2)
fi
run() { # label classpath: reads of one open array, then each read on a fresh open (as v3-bench.sh times them)
  # the harness class from this build's classes, the library from the build under test (first on the path)
  for mode in "" --reopen; do
    java -Xmx2g -cp "$2:$home/nczarr-cli/target/classes" io.nczarr.cli.bench.V3LocalCpu \
      --data "$data" --iters "$iters" --label "$1" $mode
  done
}
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
echo
echo "| build | read | reads | wall best ms | wall median ms | process CPU mean ms | reading thread CPU median ms | load (1 min) |"
echo "|---|---|---:|---:|---:|---:|---:|---:|"
for ((r = 0; r < rounds; r++)); do
  if [ -n "$base" ]; then
    run base "$base/nczarr-cli.jar:$base/lib/*"
  fi
  run this "$jar:$lib/*"
done
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg) ($(nproc) cores)"
