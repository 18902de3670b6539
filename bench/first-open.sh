#!/usr/bin/env bash
# Issue 16 target 4: the library time of the first open in a new process (NcZarrFiles.open + a
# read of every variable, JVM start-up excluded), one fresh JVM per run; prints each run and the
# min / median. Default dataset: test-data/sample.file (NCZarr, written by netcdf-c).
# Two class paths: the drop-in jar (nczarr-all.jar beside cdm 4.5.5's own runtime jars and JNA, as
# an application or THREDDS has them) and the CLI's Maven class path (107 jars: every lookup of a
# class not yet loaded walks them, ~20 ms more).
# usage: bench/first-open.sh [RUNS] [URL]      env: JAVA_OPTS (default none)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-10}"
url="${2:-file://$home/test-data/sample.file#mode=nczarr,file}"
"$home/nczarr" --help >/dev/null # builds the jar if needed
[ -f "$home/nczarr-all/target/nczarr-all.jar" ] || mvn -B -q -f "$home/pom.xml" -pl nczarr-all -am package -DskipTests
lib="$home/nczarr-cli/target/lib"
cdm=""
for j in cdm udunits httpservices httpclient-4 httpcore-4 httpmime commons-codec jcl-over-slf4j slf4j-api slf4j-nop \
         joda-time jdom2 jcommander guava failureaccess protobuf-java ehcache-core quartz c3p0 bzip2 jcip-annotations jna; do
  for f in "$lib/$j"-[0-9]*.jar; do cdm+=":$f"; done
done
bench="$home/nczarr-cli/target/nczarr-cli.jar"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for what in "drop-in jar:$bench:$home/nczarr-all/target/nczarr-all.jar$cdm" "Maven class path:$bench:$lib/*"; do
  for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:-} -cp "${what#*:}" io.nczarr.cli.bench.FirstOpenBenchmark "$url"
  done | awk '{ print $7 }' | sort -n | awk -v what="${what%%:*}" '{ v[NR] = $1 }
    END { printf "%s: open + read, ms: min %.1f, median %.1f, max %.1f (%d runs)\n", what, v[1], v[int((NR + 1) / 2)], v[NR], NR }'
done
