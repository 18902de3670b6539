#!/usr/bin/env bash
# Issue 24's Spark benchmark (not a test): Spark local[1]/local[2] against xarray + dask and a plain core read,
# on the zlib cube of bench/make_compare.py, one run. Numbers go to docs/performance.md ("Spark").
#   bench/spark-bench.sh [--quick] [--s3] [--s3-only] [--latency MS] [RUNS=3] [PARTITION_BYTES, e.g. 16m]
#   --s3       also the S3 leg: the cube on the loopback S3 server behind a relay adding MS (default 20) ms per
#              request (io.nczarr.cli.bench.S3Relay, from nczarr-cli's jar), Spark and xarray + dask (s3fs) on the
#              same URL, with the relay's request counts per run
#   --s3-only  the S3 leg alone
#   --quick    a 4-day cube and 1 run: checks the whole chain in a few minutes; its times mean little
# Makes the venvs BENCH_VENV_SPARK (default /tmp/venv-spark, bench/requirements-spark-bench.txt) and BENCH_VENV2
# (default /tmp/venv-16, zarr-python 2 for bench/make_compare.py), the cube in $BENCH_DATA/spark (default
# ./bench-data; spark-quick with --quick; once), the shaded jar (mvn -pl nczarr-spark -am package -DskipTests)
# and, for --s3, nczarr-cli's jar and lib when missing.
set -euo pipefail
home="$(cd "$(dirname "$0")/.." && pwd)"
venv="${BENCH_VENV_SPARK:-/tmp/venv-spark}"
venv2="${BENCH_VENV2:-/tmp/venv-16}"
quick=0 s3=0 s3only=0 latency=20
pos=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --s3) s3=1; shift ;;
    --s3-only) s3=1; s3only=1; shift ;;
    --latency) latency="$2"; shift 2 ;;
    -h|--help) sed -n '2,14p' "$0"; exit 0 ;;
    -*) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
    *) pos+=("$1"); shift ;;
  esac
done
days=30 runs="${pos[0]:-3}"
if [ "$quick" = 1 ]; then
  days=4
  [ "${#pos[@]}" -gt 0 ] || runs=1
fi
data="${BENCH_DATA:-$home/bench-data}/spark$([ "$quick" = 1 ] && echo -quick || true)"
# shellcheck source=bench/venv.sh
. "$home/bench/venv.sh"
venv "$venv" "$home/bench/requirements-spark-bench.txt"
if [ "$s3" = 1 ] && ! "$venv/bin/python" -c "import s3fs" 2>/dev/null; then
  # a venv made before the S3 leg existed: add s3fs and its stack from the same pinned file
  "$venv/bin/pip" install -q -r "$home/bench/requirements-spark-bench.txt"
fi
if [ ! -d "$data/cube_zlib.zarr" ]; then
  venv "$venv2" "$home/bench/requirements-anchors-zarr2.txt"
  "$venv2/bin/python" "$home/bench/make_compare.py" "$data" --days "$days" --rows 10 --arrays 2
fi
jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar 2>/dev/null | head -1 || true)"
if [ -z "$jar" ]; then
  (cd "$home" && mvn -B -q -pl nczarr-spark -am package -DskipTests)
  jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar | head -1)"
fi
extra=()
if [ "$s3" = 1 ]; then
  cli="$home/nczarr-cli/target/nczarr-cli.jar"
  lib="$home/nczarr-cli/target/lib"
  if [ ! -f "$cli" ] || [ ! -d "$lib" ]; then
    (cd "$home" && mvn -B -q -pl nczarr-cli -am package -DskipTests >&2)
  fi
  extra+=(--s3 "java -Xmx1g -cp $cli:$lib/* io.nczarr.cli.bench.S3Relay" --latency "$latency")
  [ "$s3only" = 0 ] || extra+=(--s3-only)
fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); cores: $(nproc)"
"$venv/bin/python" "$home/bench/spark_bench.py" "$data/cube_zlib.zarr" "$jar" "$runs" ${pos[1]:+"${pos[1]}"} \
  ${extra[@]+"${extra[@]}"}
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
