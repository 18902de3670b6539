#!/usr/bin/env bash
# Runs the README's PySpark example (example.py) with pyspark from PyPI (pinned in requirements.txt) and
# the shaded jar. usage: nczarr-spark/python/run-example.sh   env: PYSPARK_VENV (default /work/venvs/w24s-pyspark)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
venv="${PYSPARK_VENV:-/work/venvs/w24s-pyspark}"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q -r "$here/requirements.txt"
fi
jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar 2>/dev/null | head -1 || true)"
if [ -z "$jar" ]; then
  (cd "$home" && mvn -B -q -pl nczarr-spark -am package -DskipTests)
  jar="$(ls "$home"/nczarr-spark/target/nczarr-spark-*-all.jar | head -1)"
fi
"$venv/bin/python" "$here/example.py" "$jar" "$home/test-data/sample.file#mode=nczarr,file"
