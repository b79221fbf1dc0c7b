#!/usr/bin/env bash
# A relative --root is the same root as its absolute spelling (trial 2):
# `deps --root drive $PWD/drive/.../torch_cpu.dll` from the fixture's folder
# gives the very report that `--root $PWD/drive` gives, for deps and check.
set -euo pipefail
fx=${TD_FIXTURES:?}/windows_check
[ -d "$fx/drive" ] || { echo "skipped: fixture windows_check not built"; exit 0; }
cd "$fx"
export PWD=$fx
dll=$fx/drive/venv/Lib/site-packages/torch/lib/torch_cpu.dll
fail=0
same() { # WHAT ABS_OUT REL_OUT
    if [ "$2" = "$3" ]; then
        echo "ok: $1"
    else
        echo "FAIL: $1"
        diff <(echo "$2") <(echo "$3") | head -20
        fail=1
    fi
}
# The report less its timings ("elapsed_ms"), which differ run to run.
run() { { "$TD_BIN" "$@" 2>&1 || echo "exit $?"; } | grep -v '"elapsed_ms":'; }
abs=$(run deps --root "$fx/drive" --format json "$dll")
for rel in drive ./drive drive/ drive/venv/..; do
    same "deps --root $rel" "$abs" "$(run deps --root "$rel" --format json "$dll")"
done
abs=$(run check --root "$fx/drive" --no-gpu --format json)
same "check --root drive" "$abs" "$(run check --root drive --no-gpu --format json)"
exit $fail
