#!/usr/bin/env bash
# JMH codec microbenchmarks (module nczarr-bench, built only with -Pbench; `mvn verify` never
# builds or runs them): ChunkDecodeBench decodes the stored chunks of bench/make_compare.py's
# zlib and blosc cubes, native decoders on and off. The data comes from bench/compare.sh
# (bench-data/compare, or bench-data/compare-quick after `compare.sh --quick`).
#
# usage: bench/jmh.sh [JMH options...]   e.g. bench/jmh.sh -f 1 -wi 3 -i 5   (default: -f 1 -wi 2 -i 3 -r 2s -w 1s)
# env:   BENCH_DATA (default ./bench-data)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
base="${BENCH_DATA:-$home/bench-data}"
data="$base/compare"
[ -f "$data/compare.expected.json" ] || data="$base/compare-quick"
if [ ! -f "$data/compare.expected.json" ]; then
  echo "no datasets under $base: run bench/compare.sh (or bench/compare.sh --quick) first" >&2
  exit 2
fi
(cd "$home" && mvn -B -q -Pbench -DskipTests -Dspotbugs.skip -Dspotless.check.skip package -pl nczarr-bench -am >&2)
opts=("$@")
[ ${#opts[@]} -gt 0 ] || opts=(-f 1 -wi 2 -i 3 -r 2s -w 1s)
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores; data $data" >&2
exec java -cp "$home/nczarr-bench/target/classes:$home/nczarr-bench/target/lib/*" org.openjdk.jmh.Main \
  -p data="$data" "${opts[@]}" ChunkDecodeBench
