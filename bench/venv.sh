# Sourced by the bench scripts: makes a pinned venv once.
# venv DIR REQUIREMENTS [PYTHON]: DIR from REQUIREMENTS with PYTHON (default python3) when DIR has no python yet.
venv() {
  if [ ! -x "$1/bin/python" ]; then
    echo "making $1 from $2" >&2
    "${3:-python3}" -m venv "$1"
    "$1/bin/pip" install -q -r "$2" >&2
  fi
}
