#!/usr/bin/env bash
# Issue 16's side-by-side comparison, one entry point: ours next to tensorstore, zarr-python 3
# and zarr-python 2 on the same stores, back to back, every result checked against the sha256
# written by the generator. Prints one Markdown table (docs/performance.md, "How to run the
# comparison") with time or throughput per reader, ratios ours ÷ theirs, request counts on S3 and
# the load average.
#
#  1. makes the anchor venvs when missing: BENCH_VENV3 (default /tmp/anchors-312, Python 3.12 from
#     BENCH_PYTHON312) from bench/requirements-anchors.txt (tensorstore, zarrs, zarr-python 3.4, s3fs), BENCH_VENV2 (default
#     /tmp/venv-16) from bench/requirements-anchors-zarr2.txt (zarr-python 2.18);
#  2. writes the datasets once with zarr-python 2 (bench/make_compare.py) into bench-data/compare
#     (bench-data/compare-quick with --quick; not committed);
#  3. builds the jar if needed, then runs io.nczarr.cli.bench.CompareBenchmark: ours in its JVM,
#     the anchors as bench/compare_read.py child processes, S3 rows on the loopback S3 server
#     behind a relay adding --latency ms per request. With one process per read (--cli-iters processes per
#     reader, best by time to data; ours = a fresh JVM with ./nczarr's default JVM options and its class-data
#     archive, io.nczarr.cli.bench.FreshRead; the anchors = one compare_read.py --oneshot process each): the
#     CLI-like row, the S3 rows again (ours, tensorstore, zarrs; --cli-iters 0 leaves them out) and row rss
#     (peak RSS of one whole read of the zlib cube). These print two more tables.
#
# usage: bench/compare.sh [--quick] [--latency MS] [--iters N] [--s3-iters N] [--cli-iters N]
#                         [--libs tensorstore,zarrs,zarr3,zarr2]
#                         [--rows zlib,blosc,many,row,open,open-cons,s3-many,s3-zlib,cli,rss]
#   --quick   small data (2-day cubes, 1,000 chunks) and 2/1/1 iterations: checks the whole chain
#             and the values in about a minute; its times mean nothing
# env: BENCH_DATA (default ./bench-data), BENCH_VENV3, BENCH_VENV2, JAVA_OPTS (default -Xmx2g)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv3="${BENCH_VENV3:-/tmp/anchors-312}"
# zarr-python 3.4 and zarrs need Python >= 3.12
py312="${BENCH_PYTHON312:-$HOME/.pyenv/versions/3.12.1/bin/python3}"
venv2="${BENCH_VENV2:-/tmp/venv-16}"
quick=0
days=30 rows=1000 iters=5 s3iters=3 cliiters=3
given=""
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; shift ;;
    --iters) iters="$2"; given+=" iters"; shift 2 ;;
    --s3-iters) s3iters="$2"; given+=" s3iters"; shift 2 ;;
    --cli-iters) cliiters="$2"; given+=" cliiters"; shift 2 ;;
    --latency|--libs|--rows) args+=("$1" "$2"); shift 2 ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ "$quick" = 1 ]; then
  days=2 rows=100
  [[ "$given" == *" iters"* ]] || iters=2
  [[ "$given" == *" s3iters"* ]] || s3iters=1
  [[ "$given" == *" cliiters"* ]] || cliiters=1
fi
data="${BENCH_DATA:-$home/bench-data}/compare$([ "$quick" = 1 ] && echo -quick || true)"

# shellcheck source=bench/venv.sh
. "$home/bench/venv.sh"
venv "$venv3" "$home/bench/requirements-anchors.txt" "$py312"
venv "$venv2" "$home/bench/requirements-anchors-zarr2.txt"
for v in "$venv3:tensorstore zarr zarrs s3fs" "$venv2:zarr"; do
  "${v%%:*}/bin/python" - "${v#*:}" <<'PY' >&2 || true
import importlib, sys
for m in sys.argv[1].split():
    try:
        print("  %s %s %s" % (sys.executable, m, importlib.import_module(m).__version__))
    except ImportError:
        print("  %s: no %s" % (sys.executable, m))
PY
done

want="$days $rows 200"
have="$([ -f "$data/compare.expected.json" ] && python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["params"]; print(p["days"], p["rows"], p["arrays"])' "$data/compare.expected.json" || true)"
if [ "$have" != "$want" ]; then
  "$venv2/bin/python" "$home/bench/make_compare.py" "$data" --days "$days" --rows "$rows" --arrays 200 >&2
fi

jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -DskipTests package >&2)
fi
# the launcher's class-data archive (made once per build): the fresh-process children use it as ./nczarr does
"$home/nczarr" --help >/dev/null
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; $(java -version 2>&1 | head -1)" >&2
# shellcheck disable=SC2086
exec java ${JAVA_OPTS:--Xmx2g} -cp "$jar:$lib/*" io.nczarr.cli.bench.CompareBenchmark \
  --data "$data" --script "$home/bench/compare_read.py" --py3 "$venv3/bin/python" --py2 "$venv2/bin/python" \
  --iters "$iters" --s3-iters "$s3iters" --cli-iters "$cliiters" "${args[@]}"
