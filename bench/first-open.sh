#!/usr/bin/env bash
# Issue 16 target 4: the library time of the first open in a new process (NcZarrFiles.open + a
# read of every variable, JVM start-up excluded), one fresh JVM per run; prints each run and the
# min / median. Default dataset: test-data/sample.file (NCZarr, written by netcdf-c).
# Two class paths: the drop-in jar (nczarr-all.jar beside cdm 4.5.5's own runtime jars and JNA, as
# an application or THREDDS has them) and the CLI's Maven class path (107 jars: every lookup of a
# class not yet loaded walks them, ~20 ms more). The benchmark class runs from a folder of its own for
# the drop-in rows: from nczarr-cli.jar, whose manifest Class-Path names all of target/lib, the
# "drop-in" row ran our unshaded jars and Jackson (until issue 26's stop 31 it measured that).
# A third row splits the drop-in time: cdm's NetcdfFile class set-up (its IOSP table, what any cdm
# application pays at its first open) first and apart, then ours.
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
alone="$home/nczarr-cli/target/first-open-class"
rm -rf "$alone" && mkdir -p "$alone" && (cd "$alone" && jar xf "$bench" io/nczarr/cli/bench/FirstOpenBenchmark.class)
dropin="$alone:$home/nczarr-all/target/nczarr-all.jar$cdm"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) cores"
for what in "drop-in jar::$dropin" "Maven class path::$bench:$lib/*" \
            "drop-in jar, cdm's NetcdfFile set up first:-Dnczarr.bench.cdmFirst=true:$dropin"; do
  name="${what%%:*}" rest="${what#*:}"
  out="$(for _ in $(seq "$runs"); do
    # shellcheck disable=SC2086
    java ${JAVA_OPTS:-} ${rest%%:*} -cp "${rest#*:}" io.nczarr.cli.bench.FirstOpenBenchmark "$url"
  done | tr -d '()')"
  # "open A ms, open + read B ms (V variables, E elements; cdm set-up before: C ms)": B is field 7, C the next to last
  echo "$out" | awk '{ print $7 }' | sort -n | awk -v what="$name" '{ v[NR] = $1 }
    END { printf "%s: open + read, ms: min %.1f, median %.1f, max %.1f (%d runs)", what, v[1], v[int((NR + 1) / 2)], v[NR], NR }'
  echo "$out" | awk '{ print $(NF - 1) }' | sort -n | awk '{ v[NR] = $1 }
    END { if (v[NR] > 0) printf "; cdm set-up before it, median %.1f ms", v[int((NR + 1) / 2)]; printf "\n" }'
done
