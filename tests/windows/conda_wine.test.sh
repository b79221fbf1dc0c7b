#!/usr/bin/env bash
# torchdoctor.exe check under Wine on a Windows conda environment
# (C:\conda\envs\ml: python.exe, conda-meta\, Lib\site-packages\torch,
# Library\bin): the pytorch and cudnn packages' conda-meta records, as
# conda writes them, hold every file the import touches; see
# conda_wine_cases.py.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
[ -f "$exe" ] || { echo "skipped: no windows_exe fixture"; exit 0; }
command -v wine >/dev/null && command -v x86_64-w64-mingw32-gcc >/dev/null ||
    { echo "skipped: no wine or mingw-w64"; exit 0; }
. "$(dirname "$0")/wine_prefix.sh"
export TD_EXE=$exe
exec python3 "$TD_SRC/tests/windows/conda_wine_cases.py" "$tmp"
