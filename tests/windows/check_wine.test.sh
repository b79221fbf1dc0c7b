#!/usr/bin/env bash
# torchdoctor.exe check under Wine, on the venv of
# tests/fixtures/windows_check.sh copied onto Wine's C:\ (no --root: the
# live system). The torch closure is Windows' torch-import plan: the
# missing libomp140.x86_64.dll is named as fbgemm.dll's, asmjit.dll is
# found only through PATH and said so, torch_cpu.dll loads; Wine's own
# loader (LoadLibraryExW 0x1100, fixture loadlib.exe) gives the same
# verdicts (126 for fbgemm.dll, 0 for torch_cpu.dll and c10.dll). The
# system facts are Wine's real ones: ProductName and CurrentBuildNumber as
# `reg query` reads them, System32's runtime DLL versions as the Linux
# build's inspect reads the same files. The JSON validates against
# the report schema. One WINEPREFIX; four wine invocations.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_check
. "$(dirname "$0")/wine_prefix.sh"
cp -r "$fx/drive/venv" "$fx/drive/tools" "$WINEPREFIX/drive_c/"

rc=0
WINEPATH='C:\tools' wine "$exe" check --python 'C:\venv\Scripts\python.exe' \
    --no-gpu --format json | tr -d '\r' >"$tmp/check.json" || rc=$?
check "check exit status $rc" [ $rc == 1 ]
lib='C:\venv\Lib\site-packages\torch\lib'
wine "$fx/loadlib.exe" "$lib\\fbgemm.dll" "$lib\\torch_cpu.dll" "$lib\\c10.dll" | tr -d '\r' \
    >"$tmp/wine-loader.txt"
wine reg query 'HKLM\Software\Microsoft\Windows NT\CurrentVersion' | tr -d '\r' >"$tmp/reg.txt"
# The version resources of the same System32 files, as the Linux build reads them.
sys32=$WINEPREFIX/drive_c/windows/system32
"$TD_BIN" inspect --format json "$sys32/vcruntime140.dll" "$sys32/vcruntime140_1.dll" \
    "$sys32/msvcp140.dll" >"$tmp/sys32.json" || true

casekit_py - "$tmp/check.json" "$tmp/wine-loader.txt" "$tmp/reg.txt" \
    "${TD_SRC:?}/schema/report.schema.json" "$tmp/sys32.json" <<'P' || fail=1
import json, re, sys
import casekit
from casekit import check, check_schema, failures as bad
casekit.show_ok = True
d = json.load(open(sys.argv[1]))
loader = dict(l.rsplit(" ", 1) for l in open(sys.argv[2]).read().split("\n") if l)
reg = {}
for l in open(sys.argv[3]):
    m = re.match(r"\s+(\S+)\s+REG_\w+\s+(.*)$", l.rstrip("\n"))
    if m:
        reg[m.group(1)] = m.group(2)
check_schema(d)
lib = "C:\\venv\\Lib\\site-packages\\torch\\lib\\"
got = sorted((f["severity"], f["kind"], f["library"], f["needed_by"]) for f in d["findings"]
             if f["kind"] in ("missing_library", "found_only_via_path"))
want = sorted([("error", "missing_library", "libomp140.x86_64.dll", lib + "fbgemm.dll"),
               ("warning", "found_only_via_path", "C:\\tools\\asmjit.dll", lib + "fbgemm.dll")])
check(got == want, f"closure findings {got}")
libs = {l["name"].lower(): l for l in d["deps"]["libraries"]}
check(libs["c10.dll"]["status"] in ("root", "found"), f"c10.dll {libs['c10.dll']['status']}")
check(libs["libomp140.x86_64.dll"]["status"] == "missing", "libomp140 missing in deps")
# Wine's loader: the same verdicts with the same files.
check(loader.get(lib + "fbgemm.dll") == "126", f"Wine: fbgemm.dll {loader}")
check(loader.get(lib + "torch_cpu.dll") == "0", f"Wine: torch_cpu.dll {loader}")
check(loader.get(lib + "c10.dll") == "0", f"Wine: c10.dll {loader}")
py = d["pythons"]
check(len(py) == 1 and py[0]["version"] == "3.11.4" and py[0]["kind"] == "venv"
      and py[0]["site_dirs"] == ["C:/venv", "C:/venv/Lib/site-packages"], f"pythons {py}")
# site.py getsitepackages on Windows: PREFIX itself, then PREFIX\Lib\site-packages.
check([e["path"] for e in py[0]["sys_path"] if e["reason"] == "site"] ==
      ["C:/venv", "C:/venv/Lib/site-packages"], f"sys_path {py[0]['sys_path']}")
t = d["torch"]
check(len(t) == 1 and t[0]["version"] == "2.4.0+cpu" and t[0]["variant"] == "cpu", f"torch {t}")
s, w = d["system"], d["windows"]
check(s["os"] == "windows" and d["platform"] == "windows", "os windows")
check(w["product"] == reg.get("ProductName") and s["distro"].startswith(reg["ProductName"]),
      f"ProductName {w['product']!r}, registry {reg.get('ProductName')!r}")
check(str(w["build"]) == reg.get("CurrentBuildNumber"),
      f"build {w['build']}, registry {reg.get('CurrentBuildNumber')!r}")
check(s["kernel"] == f"{w['major']}.{w['minor']}.{w['build']}", f"kernel {s['kernel']}")
check(w["system32"].lower() == "c:\\windows\\system32", f"system32 {w['system32']}")
check(s["ram_total"] > 0 and s["disk_free"] > 0, "RAM and disk")
names = [x["name"] for x in w["runtime_dlls"]]
check(names == ["vcruntime140.dll", "vcruntime140_1.dll", "msvcp140.dll"], f"runtime dlls {names}")
linux = {f["path"].rsplit("/", 1)[1]: (f.get("pe", {}).get("version_info") or {}).get("file_version")
         for f in json.load(open(sys.argv[5]))["files"]}
ours = {x["name"]: x["version"] for x in w["runtime_dlls"]}
check(ours == linux, f"runtime DLL versions {ours}, Linux inspect {linux}")
sys.exit(1 if bad else 0)
P
exit $fail
