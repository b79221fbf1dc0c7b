#!/usr/bin/env bash
# inspect's PE debug record (CodeView RSDS: the PDB's GUID, age and name)
# against objdump -p, on a mingw-built DLL and the real MSVC DLL of the npm
# cache (see inspect_pe_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/inspect_pe_cases.py"
