#!/usr/bin/env bash
# Windows interpreter scope: python.exe's own imports are loaded before any
# extension, so an extension's import of python311.dll is answered from the
# loaded-module list, whatever the extension's search order. Built here
# with mingw-w64 under a fake C:\ (ROOT):
#   C:\py311\python.exe     links python311.dll (beside it) and loads each
#                           file it is given as CPython does (LoadLibraryExW
#                           0x1100), printing "FILE ERROR" (0: loaded)
#   C:\bare\loadlib.exe     the same loader, linking no python311.dll
#   C:\ext\ok.pyd           imports python311.dll (PyLong_FromLong)
#   C:\ext\old.pyd          imports python310.dll (built for Python 3.10)
# Oracle: Wine. ok.pyd loads in python.exe (0) and not in loadlib.exe (126:
# python311.dll is neither loaded nor in the .pyd's directory); old.pyd
# fails in python.exe (126). torchdoctor deps --profile python-extension
# says the same: with --python C:\py311\python.exe, ok.pyd has no error and
# python311.dll is "already loaded"; without it, python311.dll is missing;
# old.pyd with --python is one python_abi_mismatch error naming
# python310.dll (not a bare missing_library). A torch in a venv of it
# (pyvenv.cfg home = C:\py311) gets the same interpreter from its layout,
# without --python: its _C.pyd's python311.dll is already loaded.
set -euo pipefail
command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "skipped: mingw-w64 is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'WINEPREFIX=$tmp/prefix wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
root=$tmp/drive
mkdir -p "$root/py311" "$root/bare" "$root/ext" "$tmp/src" "$tmp/lib310"
cd "$tmp/src"
cc=x86_64-w64-mingw32-gcc
echo '__declspec(dllexport) long PyLong_FromLong(long v) { return v; }' >py.c
cat >loader.c <<'C'
#include <stdio.h>
#include <windows.h>
#ifdef WITH_PYTHON
long PyLong_FromLong(long v);
#endif
int wmain(int argc, wchar_t **argv)
{
#ifdef WITH_PYTHON
    PyLong_FromLong(0); /* links python311.dll, as python.exe does */
#endif
    for (int i = 1; i < argc; i++) {
        HMODULE h = LoadLibraryExW(argv[i], NULL, 0x1100);
        printf("%ls %lu\n", argv[i], h ? 0ul : (unsigned long)GetLastError());
    }
    return 0;
}
C
echo 'long PyLong_FromLong(long v); __declspec(dllexport) long PyInit_ext(void) { return PyLong_FromLong(1); }' >ext.c
$cc -shared -o "$root/py311/python311.dll" py.c
$cc -shared -o "$tmp/lib310/python310.dll" py.c
$cc -municode -DWITH_PYTHON -o "$root/py311/python.exe" loader.c -L"$root/py311" -l:python311.dll
$cc -municode -o "$root/bare/loadlib.exe" loader.c
$cc -shared -o "$root/ext/ok.pyd" ext.c -L"$root/py311" -l:python311.dll
$cc -shared -o "$root/ext/old.pyd" ext.c -L"$tmp/lib310" -l:python310.dll
torch=$root/venv/Lib/site-packages/torch
mkdir -p "$torch/lib"
: >"$torch/__init__.py"
printf 'home = C:\\py311\r\nversion = 3.11.4\r\n' >"$root/venv/pyvenv.cfg"
cp "$root/ext/ok.pyd" "$torch/_C.cp311-win_amd64.pyd"

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

# Wine's verdict.
if ! command -v wine >/dev/null; then
    echo "skipped: Wine is not installed (Wine's verdict)"
else
    export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
    . "$(dirname "$0")/../windows/wine_boot.sh"
    wine_boot
    cp -r "$root/py311" "$root/bare" "$root/ext" "$WINEPREFIX/drive_c/"
    v=$(wine 'C:\py311\python.exe' 'C:\ext\ok.pyd' 'C:\ext\old.pyd' | tr -d '\r')
    b=$(wine 'C:\bare\loadlib.exe' 'C:\ext\ok.pyd' | tr -d '\r')
    echo "Wine: $v / $b"
    [[ $v == *'ok.pyd 0'* ]] && ok "Wine: ok.pyd loads in python.exe" || bad "Wine python.exe: $v"
    [[ $v == *'old.pyd 126'* ]] && ok "Wine: old.pyd fails with 126" || bad "Wine old.pyd: $v"
    [[ $b == *'ok.pyd 126'* ]] && ok "Wine: ok.pyd fails with 126 without python311.dll loaded" ||
        bad "Wine loadlib.exe: $b"
fi

deps() { "$TD_BIN" deps --root "$root" --profile python-extension --format json "$@" || true; }
py=$root/py311/python.exe
layout=$("$TD_BIN" deps --root "$root" --format json "$torch/_C.cp311-win_amd64.pyd" || true)
/usr/bin/python3 - "$(deps "$root/ext/ok.pyd" --python "$py")" "$(deps "$root/ext/ok.pyd")" \
    "$(deps "$root/ext/old.pyd" --python "$py")" "$layout" <<'P' || fail=1
import json, sys
with_py, without, old, layout = (json.loads(a) for a in sys.argv[1:5])
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        bad.append(what)
# The fake C:\ has no Windows\System32: KERNEL32.dll and msvcrt.dll are left out.
system = ("kernel32.dll", "msvcrt.dll")
errors = lambda d: [(f["kind"], f["library"]) for f in d["findings"]
                    if f["severity"] == "error" and (f["library"] or "").lower() not in system]
check(not errors(with_py), f"ok.pyd in python.exe: no error {errors(with_py)}")
lib = [l for l in with_py["libraries"] if l["name"].lower() == "python311.dll"]
check(lib and lib[0]["found_via"].startswith("already loaded") and
      lib[0]["path"].replace("\\", "/").endswith("py311/python311.dll"),
      f"python311.dll already loaded: {lib}")
check(("missing_library", "python311.dll") in errors(without),
      f"ok.pyd without the interpreter: python311.dll missing {errors(without)}")
e = errors(old)
check(e == [("python_abi_mismatch", "python310.dll")], f"old.pyd: one python_abi_mismatch {e}")
f = [x for x in old["findings"] if x["kind"] == "python_abi_mismatch"]
check(f and "python311.dll" in f[0]["detail"] and "126" in f[0]["detail"], f"detail {f[:1]}")
lib = [l for l in layout["libraries"] if l["name"].lower() == "python311.dll"]
check(layout["profile"] == "torch-import" and not errors(layout) and lib and
      lib[0]["found_via"].startswith("already loaded"),
      f"torch in a venv: python.exe from pyvenv.cfg home: {errors(layout)} {lib[:1]}")
sys.exit(1 if bad else 0)
P
exit $fail
