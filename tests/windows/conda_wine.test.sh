#!/usr/bin/env bash
# torchdoctor.exe check under Wine on a Windows conda environment
# (C:\conda\envs\ml: python.exe, conda-meta\, Lib\site-packages\torch,
# Library\bin): the pytorch and cudnn packages' conda-meta records, as
# conda writes them, hold every file the import touches; see
# conda_wine_cases.py.
set -euo pipefail
. "$(dirname "$0")/need_mingw_wine.sh"
. "$(dirname "$0")/wine_prefix.sh"
export TD_EXE=$exe
python3 "$TD_SRC/tests/windows/conda_wine_cases.py" "$tmp"
