#!/usr/bin/env bash
# torchdoctor.exe check under Wine on a Windows venv whose torch\lib holds
# cudnn64_8.dll, which torch's RECORD does not list, beside the listed
# cudnn64_9.dll that torch_cuda.dll imports (mingw-built DLLs): one
# stray_file names the leftover, the listed copy, the copy the closure maps
# for cudnn64 and that torch's import loads the leftover too (it loads
# every DLL of torch\lib). Ground truth from Wine's own loader
# (LoadLibraryExW 0x1100, as torch loads): the module torch_cuda.dll's
# import maps, and both cudnn copies loaded once every DLL of the folder
# is loaded in glob order as torch/__init__.py does.
set -euo pipefail
. "$(dirname "$0")/need_mingw_wine.sh"
. "$(dirname "$0")/wine_prefix.sh"
venv=$WINEPREFIX/drive_c/venv
site=$venv/Lib/site-packages
lib=$site/torch/lib
mkdir -p "$lib" "$venv/Scripts" "$tmp/src"
cd "$tmp/src"
cc=x86_64-w64-mingw32-gcc
echo '__declspec(dllexport) int cudnnGetVersion(void) { return 9; }' >cudnn9.c
echo '__declspec(dllexport) int cudnnGetVersion(void) { return 8; }' >cudnn8.c
printf 'int cudnnGetVersion(void);\n__declspec(dllexport) int torch_cuda_ok(void) { return cudnnGetVersion(); }\n' >torch_cuda.c
cat >loaded.c <<'C'
#include <stdio.h>
#include <windows.h>
/* Loads each DLL given (as torch does: LoadLibraryExW 0x1100), then says
 * which file each cudnn64 module name maps to, or "-" when not loaded. */
int wmain(int argc, wchar_t **argv)
{
    for (int i = 1; i < argc; i++)
        if (!LoadLibraryExW(argv[i], NULL, 0x1100))
            printf("load %ls failed %lu\n", argv[i], GetLastError());
    const wchar_t *names[] = {L"cudnn64_9.dll", L"cudnn64_8.dll"};
    for (int i = 0; i < 2; i++) {
        wchar_t path[MAX_PATH] = L"-";
        HMODULE h = GetModuleHandleW(names[i]);
        if (h)
            GetModuleFileNameW(h, path, MAX_PATH);
        printf("%ls %ls\n", names[i], path);
    }
    return 0;
}
C
$cc -shared -o "$lib/cudnn64_9.dll" cudnn9.c
$cc -shared -o "$lib/cudnn64_8.dll" cudnn8.c
$cc -shared -o "$lib/torch_cuda.dll" torch_cuda.c -L"$lib" -l:cudnn64_9.dll
echo 'int main(void) { return 0; }' >python.c
$cc -o "$venv/Scripts/python.exe" python.c
$cc -municode -o loaded.exe loaded.c
printf 'home = C:\\Python311\r\ninclude-system-site-packages = false\r\nversion = 3.11.4\r\n' >"$venv/pyvenv.cfg"
printf "__version__ = '2.4.0+cu121'\ndebug = False\ncuda = '12.1'\nhip = None\n" >"$site/torch/version.py"
: >"$site/torch/__init__.py"
python3 - "$site" "$TD_SRC/tests" <<'PY'
import sys
sys.path.insert(0, sys.argv[2])
from pkgmeta import dist_info
dist_info(sys.argv[1], "torch", "2.4.0+cu121", [],
          ["torch/__init__.py", "torch/version.py", "torch/lib/torch_cuda.dll", "torch/lib/cudnn64_9.dll"])
PY
cd - >/dev/null
wl='C:\venv\Lib\site-packages\torch\lib'
wine "$tmp/src/loaded.exe" "$wl\\torch_cuda.dll" | tr -d '\r' >"$tmp/import.txt"
wine "$tmp/src/loaded.exe" "$wl\\cudnn64_8.dll" "$wl\\cudnn64_9.dll" "$wl\\torch_cuda.dll" |
    tr -d '\r' >"$tmp/glob.txt"
rc=0
wine "$exe" check --python 'C:\venv\Scripts\python.exe' --no-gpu --format json | tr -d '\r' \
    >"$tmp/check.json" || rc=$?
python3 - "$tmp" "$rc" <<'PY'
import json, sys
tmp, rc = sys.argv[1], int(sys.argv[2])
fails = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    cond or fails.append(what)
def loaded(name):
    rows = dict(l.split(" ", 1) for l in open(f"{tmp}/{name}").read().split("\n") if l.startswith("cudnn"))
    return {k: v.lower() for k, v in rows.items()}
imp, glob = loaded("import.txt"), loaded("glob.txt")
want9 = r"c:\venv\lib\site-packages\torch\lib\cudnn64_9.dll"
check(imp.get("cudnn64_9.dll") == want9 and imp.get("cudnn64_8.dll") == "-",
      f"Wine maps cudnn64_9.dll for torch_cuda.dll's import, not the leftover: {imp}")
check(glob.get("cudnn64_8.dll", "-") != "-" and glob.get("cudnn64_9.dll") == want9,
      f"loading every DLL of torch\\lib loads both: {glob}")
check(rc in (0, 1), f"check exit status {rc}")
doc = json.load(open(f"{tmp}/check.json"))
strays = [f for f in doc["findings"] if f["kind"] == "stray_file"]
check(len(strays) == 1, f"one stray_file: {[f['library'] for f in strays]}")
f = strays[0] if strays else {}
d, lib = f.get("detail") or "", (f.get("library") or "").lower()
print(d)
check(lib.replace("/", "\\").endswith(r"torch\lib\cudnn64_8.dll"), f"names the leftover: {lib}")
check("cudnn64_9.dll" in d and "torch 2.4.0+cu121" in d, "names the listed copy and its owner")
check("the import maps" in d and d.lower().replace("/", "\\").count(r"torch\lib\cudnn64_9.dll") >= 2,
      "names the copy the closure maps")
check("loaded too" in d and "every library in its folder" in d, "the leftover is loaded by torch's glob")
fix = f.get("fix") or ""
check(fix.startswith("del ") and fix.lower().endswith(r"torch\lib\cudnn64_8.dll") and "/" not in fix,
      f"fix in cmd/PowerShell form: {fix}")
sys.exit(1 if fails else 0)
PY
