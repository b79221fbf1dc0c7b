#!/usr/bin/env bash
# Windows process machine (fixture windows_torch.sh, badarch): an x64 torch
# install whose torch\lib\c10.dll is 32-bit. The process is python.exe's
# (pyvenv.cfg home), never the first DLL in glob order: one error,
# wrong_architecture on c10.dll, its imports not chased, and no "wrong
# machine" noise on KERNEL32/msvcrt. Oracle: Wine's loader, LoadLibraryExW
# 0x1100 as torch calls it (fixture windows_check.sh loadlib.exe), says 193.
set -euo pipefail
root=${TD_FIXTURES:?}/windows_torch/badarch
lib=$root/venv/Lib/site-packages/torch/lib
[ -d "$root" ] || { echo "skipped: fixture windows_torch/badarch not built"; exit 0; }
fail=0
for file in "$lib/torch_cpu.dll" "$lib/c10.dll" "$root/venv/Lib/site-packages/torch/_C.cp311-win_amd64.pyd"; do
    rc=0
    out=$("$TD_BIN" deps --root "$root" --format json "$file") || rc=$?
    /usr/bin/python3 - "$out" "$rc" "$file" <<'P' || fail=1
import json, sys
d, rc, file = json.loads(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what + f" ({file.rsplit('/', 1)[-1]})")
    if not cond:
        bad.append(what)
errors = [f for f in d["findings"] if f["severity"] == "error"]
check(rc == 1, f"exit {rc}")
check(d["profile"] == "torch-import", f"profile {d['profile']}")
check(len(errors) == 1 and errors[0]["kind"] == "wrong_architecture" and
      errors[0]["library"].endswith("torch/lib/c10.dll") and "193" in errors[0]["detail"],
      f"one error on c10.dll: {[(f['kind'], f['library']) for f in errors]}")
noise = [f for f in d["findings"] if f["library"] and
         f["library"].lower().rsplit("/", 1)[-1] in ("kernel32.dll", "msvcrt.dll", "vcruntime140_1.dll")]
check(not noise, f"no system DLL noise: {noise[:2]}")
c10 = [l for l in d["libraries"] if l["name"] == "c10.dll"]
edges_from_c10 = [l for l in d["libraries"] if any(n.endswith("c10.dll") for n in l["needed_by"])
                  and l["name"] != "c10.dll"]
check(not edges_from_c10, f"c10.dll's imports not chased: {[l['name'] for l in edges_from_c10]}")
sys.exit(1 if bad else 0)
P
done

# Wine's loader on the same files.
loadlib=$TD_FIXTURES/windows_check/loadlib.exe
if ! command -v wine >/dev/null || [ ! -f "$loadlib" ]; then
    echo "skipped: Wine or loadlib.exe absent (Wine's verdict)"
else
    tmp=$(mktemp -d)
    export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
    trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
    . "$(dirname "$0")/../windows/wine_boot.sh"
    wine_boot
    cp -r "$root/venv" "$WINEPREFIX/drive_c/"
    w='C:\venv\Lib\site-packages\torch\lib'
    verdict=$(wine "$loadlib" "$w\\c10.dll" | tr -d '\r')
    echo "Wine: $verdict"
    case "$verdict" in
    *'c10.dll 193') echo "ok: Wine loads c10.dll with error 193" ;;
    *) echo "FAIL: Wine's verdict on c10.dll: $verdict"; fail=1 ;;
    esac
fi
# Without --root a Linux host has no Windows (System32, KnownDLLs, the API
# set schema) to resolve a DLL's imports against: exit 2 saying so, not ten
# "missing" system DLLs with "sfc /scannow" as their fix.
if [ "$(uname -s)" = Linux ]; then
    rc=0
    "$TD_BIN" deps "$lib/torch_cpu.dll" >"${TMPDIR:-/tmp}/td-noroot.$$" 2>&1 || rc=$?
    if [ $rc -eq 2 ] && grep -q -- "--root DIR" "${TMPDIR:-/tmp}/td-noroot.$$" &&
        ! grep -q "sfc /scannow" "${TMPDIR:-/tmp}/td-noroot.$$"; then
        echo "ok: a DLL without --root on Linux: exit 2, --root named"
    else
        echo "FAIL: a DLL without --root on Linux: exit $rc:"; cat "${TMPDIR:-/tmp}/td-noroot.$$"; fail=1
    fi
    rm -f "${TMPDIR:-/tmp}/td-noroot.$$"
fi
exit $fail
