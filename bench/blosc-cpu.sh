#!/usr/bin/env bash
# Issue 26: CPU per decoded MB of blosc frames, ours next to zarrs, on the compare cube's values written with
# blosc lz4 / zstd / blosclz, byte shuffle and bit shuffle (bench/make_blosc_cpu.py, numcodecs' c-blosc).
# Per store and per round, interleaved: ours with the scalar byte unshuffle (the default), ours with the
# Vector API one (-Dnczarr.codec.vector=true --add-modules jdk.incubator.vector), then zarr-python 3.4 with
# the zarrs codec pipeline (bench/blosc_cpu_read.py); each reader in a fresh process per round (--pairs), the
# best process kept. Columns:
#   read: process CPU (all threads) per decoded MB (10^6 bytes) of whole reads of the array, the mean of
#         --rounds reads after warm-up reads in the same JVM / Python process; wall time per read in parentheses
#   decode: one thread's CPU per decoded MB for the chunk files through the codec alone (ours: the default
#         codec, native c-blosc where it is faster, scalar and vector unshuffle; numcodecs: its c-blosc 1.21
#         with 1 thread)
# Prints one Markdown table with the load average before and after.
#
# usage: bench/blosc-cpu.sh [--quick] [--rounds N] [--pairs P]
#   --quick   2 days (2 chunks per store), 3 reads per process, 1 process round: checks the chain
#   default   8 days, 5 reads per process, 3 process rounds
# env: BENCH_DATA (default ./bench-data), BENCH_VENV3 (default /tmp/anchors-312), JAVA_OPTS (default -Xmx1g)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv3="${BENCH_VENV3:-/tmp/anchors-312}"
py312="${BENCH_PYTHON312:-$HOME/.pyenv/versions/3.12.1/bin/python3}"
days=8 rounds=5 pairs=3 quick=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) quick=1; days=2 rounds=3 pairs=1; shift ;;
    --rounds) rounds="$2"; shift 2 ;;
    --pairs) pairs="$2"; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
data="${BENCH_DATA:-$home/bench-data}/blosc-cpu$([ "$quick" = 1 ] && echo -quick || true)"
# shellcheck source=bench/venv.sh
. "$home/bench/venv.sh"
venv "$venv3" "$home/bench/requirements-anchors.txt" "$py312"
have="$([ -f "$data/blosc-cpu.json" ] && python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["days"])' "$data/blosc-cpu.json" || true)"
if [ "$have" != "$days" ]; then
  mkdir -p "$data"
  "$venv3/bin/python" "$home/bench/make_blosc_cpu.py" "$data" --days "$days" >&2
fi
mapfile -t stores < <(python3 -c 'import json,sys; [print(s["store"]) for s in json.load(open(sys.argv[1]))["stores"]]' "$data/blosc-cpu.json")
jar="$home/nczarr-cli/target/nczarr-cli.jar"
lib="$home/nczarr-cli/target/lib"
if [ ! -f "$jar" ] || [ ! -d "$lib" ]; then
  (cd "$home" && mvn -B -q -o -DskipTests package -pl nczarr-cli -am >&2)
fi
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
load0="$(cut -d' ' -f1-3 /proc/loadavg)"
echo "load average before: $load0; $(nproc) cores; data $data" >&2
for ((p = 0; p < pairs; p++)); do
  for s in "${stores[@]}"; do
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:--Xmx1g} -cp "$jar:$lib/*" io.nczarr.cli.bench.BloscCpuBench "$data" "$rounds" "$s" \
      | grep '^RESULT' >> "$out/scalar"
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:--Xmx1g} --add-modules jdk.incubator.vector -Dnczarr.codec.vector=true -cp "$jar:$lib/*" \
      io.nczarr.cli.bench.BloscCpuBench "$data" "$rounds" "$s" 2>/dev/null | grep '^RESULT' >> "$out/vector"
    "$venv3/bin/python" "$home/bench/blosc_cpu_read.py" "$data" "$rounds" "$s" | grep '^RESULT' >> "$out/zarrs"
  done
done
load1="$(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" "$data/blosc-cpu.json" "$load0" "$load1" "$pairs" "$rounds" <<'PY'
import json, sys
out, manifest, load0, load1, pairs, rounds = sys.argv[1:]
man = json.load(open(manifest))
def best(kind):
    r = {}
    for line in open(out + "/" + kind):
        _, store, cpu, wall, dec, sha = line.split()
        cpu, wall, dec = float(cpu), float(wall), float(dec)
        old = r.get(store)
        if old is None:
            r[store] = [cpu, wall, dec, {sha}]
        else:
            if cpu < old[0]:
                old[0], old[1] = cpu, wall
            old[2] = min(old[2], dec)
            old[3].add(sha)
    return r
s, v, z = best("scalar"), best("vector"), best("zarrs")
print("Blosc CPU per decoded MB (ms), compare-cube values, %d days = %d chunks of 4.15 MB per store; best of %s "
      "processes, each the mean of %s reads; load average %s before, %s after" % (man["days"], man["days"], pairs, rounds, load0, load1))
print()
print("| frames | stored MB | ours read, scalar | ours read, vector | zarrs read | zarrs ÷ ours (scalar / vector) "
      "| ours decode, scalar | ours decode, vector | numcodecs decode | values |")
print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
for st in man["stores"]:
    k = st["store"]
    a, b, c = s[k], v[k], z[k]
    shas = a[3] | b[3] | c[3]
    ok = "match" if shas == {man["sha256"]} else "MISMATCH " + ",".join(sorted(shas))
    print("| %s + %s | %.1f | %.3f (%.0f ms) | %.3f (%.0f ms) | %.3f (%.0f ms) | %.2f / %.2f | %.3f | %.3f | %.3f | %s |" % (
        st["cname"], st["shuffle"], st["stored_bytes"] / 1e6, a[0], a[1], b[0], b[1], c[0], c[1],
        c[0] / a[0], c[0] / b[0], a[2], b[2], c[2], ok))
PY
