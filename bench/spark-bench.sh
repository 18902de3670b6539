#!/usr/bin/env bash
# Issue 24's Spark benchmark (not a test): Spark local[1]/local[2] against xarray + dask and a plain core read,
# on the zlib cube of bench/make_compare.py, one run. Numbers go to docs/performance.md ("Spark").
#   bench/spark-bench.sh [RUNS=3] [PARTITION_BYTES, e.g. 16m]
# Makes the venvs BENCH_VENV_SPARK (default /tmp/venv-spark, bench/requirements-spark-bench.txt) and BENCH_VENV2
# (default /tmp/venv-16, zarr-python 2 for bench/make_compare.py), the cube in bench-data/spark (once) and the
# shaded jar (mvn -pl nczarr-spark -am package -DskipTests) when missing.
set -euo pipefail
home="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BENCH_VENV_SPARK:-/tmp/venv-spark}"
venv2="${BENCH_VENV2:-/tmp/venv-16}"
data="$home/bench-data/spark"
runs="${1:-3}"
make_venv() { # DIR REQUIREMENTS
  if [ ! -x "$1/bin/python" ]; then
    python3 -m venv "$1"
    "$1/bin/pip" install -q -r "$2"
  fi
}
make_venv "$venv" "$home/bench/requirements-spark-bench.txt"
if [ ! -d "$data/cube_zlib.zarr" ]; then
  make_venv "$venv2" "$home/bench/requirements-anchors-zarr2.txt"
  "$venv2/bin/python" "$home/bench/make_compare.py" "$data" --days 30 --rows 10 --arrays 2
fi
jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar 2>/dev/null | head -1 || true)"
if [ -z "$jar" ]; then
  (cd "$home" && mvn -B -q -pl nczarr-spark -am package -DskipTests)
  jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar | head -1)"
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); cores: $(nproc)"
"$venv/bin/python" "$home/bench/spark_bench.py" "$data/cube_zlib.zarr" "$jar" "$runs" ${2:-}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
