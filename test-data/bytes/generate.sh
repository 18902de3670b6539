#!/usr/bin/env bash
# Regenerates the mode=bytes test files from their CDL with netcdf-c's ncgen (Debian: netcdf-bin).
# The files are committed; the tests do not need ncgen.
set -euo pipefail
cd "$(dirname "$0")"
ncgen -k nc3 -o classic.nc classic.cdl
ncgen -k nc6 -o offset64.nc offset64.cdl
ncgen -k nc4 -o nc4.nc nc4.cdl
python3 make_accounting_cdl.py > /tmp/accounting.$$.cdl
ncgen -k nc4 -o accounting.nc /tmp/accounting.$$.cdl
rm -f /tmp/accounting.$$.cdl
ls -l ./*.nc
