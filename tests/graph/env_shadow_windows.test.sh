#!/usr/bin/env bash
# shadowed_library and Windows PATH: torch loads its DLLs with
# LoadLibraryExW(..., LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
# LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR) and os.add_dll_directory, and CPython
# loads extensions the same way, so PATH is not searched at all: a copy of
# c10.dll on PATH cannot hide the one in torch\lib. PATH matters only for a
# DLL the install does not ship (found_only_via_path), never as shadowing.
# Built here with mingw-w64 under a fake C:\ (ROOT):
#   C:\venv\...\torch\lib\c10.dll, torch_cpu.dll (needs c10.dll's c10_ok)
#   C:\evil\c10.dll         another c10.dll, without c10_ok
#   C:\evil\onlypath.dll    and a DLL nothing ships
#   C:\venv\...\torch\lib\needs_path.dll (needs onlypath.dll)
#   C:\load.exe FLAGS FILE  LoadLibraryExW(FILE, FLAGS), prints "FILE ERROR"
# Oracle: Wine with WINEPATH=C:\evil. With 0x1100 torch_cpu.dll loads (0:
# the evil c10.dll is not taken) and needs_path.dll fails (126: PATH is
# not searched); with flags 0 (the standard order, which searches PATH)
# needs_path.dll loads: PATH does reach the loader. torchdoctor deps
# --env 'PATH=C:\evil' agrees: no shadowed_library, c10.dll from torch\lib;
# onlypath.dll is found_only_via_path.
set -euo pipefail
command -v x86_64-w64-mingw32-gcc >/dev/null || { echo "skipped: mingw-w64 is not installed"; exit 0; }
tmp=$(mktemp -d)
trap 'WINEPREFIX=$tmp/prefix wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
root=$tmp/drive
lib=$root/venv/Lib/site-packages/torch/lib
mkdir -p "$lib" "$root/evil" "$tmp/src"
: >"$root/venv/Lib/site-packages/torch/__init__.py"
cd "$tmp/src"
cc=x86_64-w64-mingw32-gcc
echo '__declspec(dllexport) int c10_ok(void) { return 0; }' >c10.c
echo '__declspec(dllexport) int c10_other(void) { return 0; }' >evil.c
printf 'int c10_ok(void);\n__declspec(dllexport) int torch_cpu_ok(void) { return c10_ok(); }\n' >torch_cpu.c
echo '__declspec(dllexport) int only_path(void) { return 0; }' >onlypath.c
printf 'int only_path(void);\n__declspec(dllexport) int needs(void) { return only_path(); }\n' >needs.c
cat >load.c <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <windows.h>
int wmain(int argc, wchar_t **argv)
{
    DWORD flags = (DWORD)wcstoul(argv[1], NULL, 0);
    for (int i = 2; i < argc; i++) {
        HMODULE h = LoadLibraryExW(argv[i], NULL, flags);
        printf("%ls %lu\n", argv[i], h ? 0ul : (unsigned long)GetLastError());
        if (h)
            FreeLibrary(h);
    }
    return 0;
}
C
$cc -shared -o "$lib/c10.dll" c10.c
$cc -shared -o "$root/evil/c10.dll" evil.c
$cc -shared -o "$lib/torch_cpu.dll" torch_cpu.c -L"$lib" -l:c10.dll
$cc -shared -o "$root/evil/onlypath.dll" onlypath.c
$cc -shared -o "$lib/needs_path.dll" needs.c -L"$root/evil" -l:onlypath.dll
$cc -municode -o "$root/load.exe" load.c

fail=0
ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }

if ! command -v wine >/dev/null; then
    echo "skipped: Wine is not installed (Wine's verdict)"
else
    export WINEPREFIX=$tmp/prefix WINEDEBUG=-all WINEPATH='C:\evil'
    . "$(dirname "$0")/../windows/wine_boot.sh"
    wine_boot
    cp -r "$root/venv" "$root/evil" "$root/load.exe" "$WINEPREFIX/drive_c/"
    w='C:\venv\Lib\site-packages\torch\lib'
    v=$(wine 'C:\load.exe' 0x1100 "$w\\torch_cpu.dll" "$w\\needs_path.dll" | tr -d '\r')
    s=$(wine 'C:\load.exe' 0 "$w\\needs_path.dll" | tr -d '\r')
    echo "Wine: $v / $s"
    [[ $v == *'torch_cpu.dll 0'* ]] && ok "Wine: 0x1100 takes torch\\lib's c10.dll, not PATH's" ||
        bad "Wine torch_cpu.dll: $v"
    [[ $v == *'needs_path.dll 126'* ]] && ok "Wine: 0x1100 does not search PATH" ||
        bad "Wine needs_path.dll 0x1100: $v"
    [[ $s == *'needs_path.dll 0'* ]] && ok "Wine: the standard order finds onlypath.dll on PATH" ||
        bad "Wine needs_path.dll 0: $s"
fi

deps() { "$TD_BIN" deps --root "$root" --env 'PATH=C:\evil' --format json "$@" || true; }
# torch-import loads every DLL of torch\lib itself; python-extension
# (CPython's own LoadLibraryExW, the same flags) resolves c10.dll as an
# import of torch_cpu.dll.
/usr/bin/python3 - "$(deps "$lib/torch_cpu.dll")" "$(deps "$lib/needs_path.dll")" \
    "$(deps "$lib/torch_cpu.dll" --profile python-extension)" <<'P' || fail=1
import json, sys
cpu, needs, ext = (json.loads(a) for a in sys.argv[1:4])
bad = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        bad.append(what)
kinds = lambda d: [(f["kind"], f["library"]) for f in d["findings"] if f["kind"] != "missing_library"
                   or "onlypath" in (f["library"] or "")]
check(cpu["profile"] == "torch-import", f"profile {cpu['profile']}")
check(not [f for d in (cpu, needs, ext) for f in d["findings"] if f["kind"] == "shadowed_library"],
      "PATH shadows nothing under torch's flags")
for name, d in (("torch-import", cpu), ("python-extension", ext)):
    c10 = [l for l in d["libraries"] if l["name"].lower() == "c10.dll"]
    check(c10 and "torch" in c10[0]["path"].replace("\\", "/") and "evil" not in c10[0]["path"],
          f"{name}: c10.dll from torch\\lib: {c10[:1]}")
    check(not [f for f in d["findings"] if f["kind"] == "missing_symbol"],
          f"{name}: torch_cpu.dll binds")
only = [f for f in needs["findings"] if "onlypath" in (f["library"] or "").lower()]
check(only and only[0]["kind"] == "found_only_via_path", f"onlypath.dll: {only}")
sys.exit(1 if bad else 0)
P
exit $fail
