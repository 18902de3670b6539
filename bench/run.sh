#!/usr/bin/env bash
# Local read benchmark (issue: codecs, whole-read speed). Generates data under $BENCH_DIR
# (default /tmp/nczarr-bench, ~250 MB, not committed), then prints, in one run:
#   per-codec decode MB/s: ours (CodecBench) next to numcodecs on the same chunk files,
#   and the bare JDK Inflater (1 thread and all cores) for zlib;
#   whole-variable reads: ./nczarr bench next to zarr-python reading the same store.
# Needs /usr/bin/python3 with zarr 2.x / numcodecs (Debian python3-zarr).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(dirname "$here")"
dir="${BENCH_DIR:-/tmp/nczarr-bench}"
days="${BENCH_DAYS:-30}"
py=/usr/bin/python3
mkdir -p "$dir"
if [ ! -d "$dir/temperature_zlib.zarr" ]; then
  "$py" "$repo/../shared/corpus/make-bench.py" "$dir" --only 1,2,3 --days "$days"
fi
[ -d "$dir/temperature_zstd.zarr" ] || "$py" "$here/make_zstd.py" "$dir"
"$repo/nczarr" --help >/dev/null  # builds the jar if needed
cp="$repo/nczarr-cli/target/nczarr-cli.jar:$repo/nczarr-cli/target/lib/*"

echo "== decode throughput per codec (1 thread, same chunk files)"
for s in temperature_zlib temperature_blosc temperature_zstd temperature_blosc_zstd; do
  java -cp "$cp" io.nczarr.cli.bench.CodecBench "$dir/$s.zarr/temperature" 5
  "$py" "$here/numcodecs_decode.py" "$dir/$s.zarr/temperature" 5
done

echo "== whole-variable read (all cores)"
for s in temperature_zlib temperature_blosc; do
  "$repo/nczarr" bench "$dir/$s.zarr" temperature --repeat 3
  "$py" "$here/zarr_read.py" "$dir/$s.zarr" temperature 3
done
"$repo/nczarr" bench "$dir/many_chunks.zarr" field --repeat 3
"$py" "$here/zarr_read.py" "$dir/many_chunks.zarr" field 3
