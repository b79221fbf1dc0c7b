#!/usr/bin/env bash
# torchdoctor.exe check --live, the GPU probe and the fix scripts under Wine,
# on the layout of tests/fixtures/windows_replay.sh copied onto a fresh
# prefix's C:\. The live replay (a child torchdoctor.exe, `__replay`) must
# give each torch\lib DLL the code Wine's own loader gives it (the
# fixture's loadlib.exe): 1114 for initcaller.dll, blamed on the
# initialiser of initfail.dll it imports, and for initfail.dll itself; 193
# for the i686 x86.dll; 126 for asmjit_user.dll, loaded by torch's PATH
# retry. Wine resolves a missing import to a stub instead of failing with
# 127, so noexport.dll loads here; its missing c10_gone stays the static
# model's finding. PATH: a folder that does not exist and a repeated one.
# The GPU probe (a `__gpu` child) loads the stand-in nvcuda.dll/nvml.dll
# from PATH: exact driver, CUDA version and GPUs; a crashing one is
# CRASHED and check still finishes. -o fix.bat / fix.ps1: the content, and
# fix.bat /dry-run run by Wine's cmd prints the commands it would run; fix.ps1
# starts with a UTF-8 BOM.
# One WINEPREFIX; eight wine invocations.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_replay
. "$(dirname "$0")/wine_prefix.sh"
cp -r "$fx/drive/rvenv" "$fx/drive/tools" "$fx/gpu" "$WINEPREFIX/drive_c/"
cd "$tmp"
py='C:\rvenv\Scripts\python.exe'
path='C:\tools;C:\nope;C:\tools'

rc=0
WINEPATH=$path wine "$exe" check --python "$py" --no-gpu --live --format json | tr -d '\r' \
    >live.json || rc=$?
check "check --live exit status $rc" [ $rc == 1 ]
WINEPATH=$path wine "$exe" check --python "$py" --no-gpu --live -o 'C:\fix.bat' 2>/dev/null || true
WINEPATH=$path wine "$exe" check --python "$py" --no-gpu --live -o 'C:\fix.ps1' 2>/dev/null || true
tr -d '\r' <"$WINEPREFIX/drive_c/fix.bat" >fix.bat
tr -d '\r' <"$WINEPREFIX/drive_c/fix.ps1" >fix.ps1
wine cmd /c 'C:\fix.bat' /dry-run 2>/dev/null | tr -d '\r' >dry-run.txt || true
lib='C:\rvenv\Lib\site-packages\torch\lib'
wine "$fx/loadlib.exe" "$lib\\asmjit_user.dll" "$lib\\c10.dll" "$lib\\initcaller.dll" \
    "$lib\\initfail.dll" "$lib\\noexport.dll" "$lib\\x86.dll" | tr -d '\r' >wine-loader.txt
TD_FAKE_CUDA_VERSION=12080 TD_FAKE_NVML_DRIVER=572.16 \
    TD_FAKE_GPUS='NVIDIA GeForce RTX 5090:12.0:34359738368;NVIDIA A100-SXM4-80GB:8.0:85899345920' \
    WINEPATH='C:\gpu' wine "$exe" check --python "$py" --format json | tr -d '\r' >gpu.json || true
rc=0
# Wine starts winedbg for the crashing child before the crash is reported,
# which takes seconds on a busy machine: a generous timeout, so the test sees
# the crash rather than the (equally handled) timeout.
TD_FAKE_CUDA_MODE=crash WINEPATH='C:\gpu' wine "$exe" check --python "$py" --timeout 60000 \
    --format json 2>/dev/null | tr -d '\r' >crash.json || rc=$?
check "check with a crashing driver finishes (exit $rc)" [ $rc != 2 ] && [ -s crash.json ]

casekit_py - "${TD_SRC:?}/schema/report.schema.json" <<'P' || fail=1
import json, sys
import casekit
from casekit import check, check_schema, failures as bad
casekit.show_ok = True
lib = "C:\\rvenv\\Lib\\site-packages\\torch\\lib\\"
docs = {n: json.load(open(n)) for n in ("live.json", "gpu.json", "crash.json")}
for n, d in docs.items():
    check_schema(d, f"{n} schema")
d = docs["live.json"]
loads = {l["file"]: l for l in d["replay"]["loads"]}
check(d["replay"]["done"] and d["replay"]["detail"] is None, "replay finished")
check([l["file"] for l in d["replay"]["loads"]][:3] ==
      ["vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll"], "VC++ runtime probes first")
names = [f.rsplit("\\", 1)[1] for f in loads if f.startswith(lib)]
check(names == ["asmjit_user.dll", "c10.dll", "initcaller.dll", "initfail.dll", "noexport.dll",
                "x86.dll"], f"glob order {names}")
want = {"asmjit_user.dll": (126, 0, None), "c10.dll": (0, None, None),
        "initcaller.dll": (1114, None, "initfail.dll"), "initfail.dll": (1114, None, "."),
        "noexport.dll": (0, None, None), "x86.dll": (193, None, None)}
for name, w in want.items():
    l = loads[lib + name]
    got = (l["error"], l["path_retry"], l["init_failed"])
    check(got == w, f"replay {name} {got}")
wine = dict(l.rsplit(" ", 1) for l in open("wine-loader.txt").read().split("\n") if l)
for name, w in want.items():
    check(wine.get(lib + name) == str(w[0]), f"Wine's loader agrees on {name}: {wine.get(lib + name)}")
F = [(f["severity"], f["kind"], f["library"], f["needed_by"], f["symbol"]) for f in d["findings"]]
def has(sev, kind, library, needed_by=None, symbol=None):
    hits = [f for f in F if f[:3] == (sev, kind, library) and
            (needed_by is None or f[3] == needed_by) and f[4] == symbol]
    check(len(hits) == 1, f"finding {sev} {kind} {library} {needed_by} {symbol}: {len(hits)}")
has("error", "init_failure", "initfail.dll", lib + "initcaller.dll")
check(sum(1 for f in F if f[1] == "init_failure" and "initfail" in f[2]) == 1, "1114 named once")
has("error", "wrong_architecture", lib + "x86.dll")
has("error", "missing_symbol", lib + "c10.dll", lib + "noexport.dll", "c10_gone")
has("warning", "found_only_via_path", "C:\\tools\\asmjit.dll", lib + "asmjit_user.dll")
has("warning", "env_var_invalid", "C:\\nope", "PATH")
has("info", "env_var_invalid", "C:\\tools", "PATH")
first = [f for f in d["findings"] if "raises on this DLL first" in f["detail"]]
check(len(first) == 1 and first[0]["library"] == "initfail.dll", "the DLL import torch fails on")

g = docs["gpu.json"]
drv = g["driver"]
check(drv["status"] == "ok" and drv["driver_version"] == "572.16"
      and drv["cuda_driver_version"] == 12080, f"driver {drv}")
check(drv["libcuda"].lower() == "c:\\gpu\\nvcuda.dll", f"nvcuda.dll found at {drv['libcuda']}")
gp = [(x["name"], x["compute_capability"], x["memory"], x["pci_bus"]) for x in g["gpus"]]
check(gp == [("NVIDIA GeForce RTX 5090", "12.0", 34359738368, "0000:01:00.0"),
             ("NVIDIA A100-SXM4-80GB", "8.0", 85899345920, "0000:02:00.0")], f"gpus {gp}")
c = docs["crash.json"]["driver"]
check(c["status"] == "crashed" and "STATUS_ACCESS_VIOLATION (0xC0000005)" in c["detail"],
      f"crash {c['status']}: {c['detail']}")

bat = open("fix.bat").read().split("\n")
ps1 = open("fix.ps1", encoding="utf-8-sig").read().split("\n")  # it starts with a BOM
check(open("fix.ps1", "rb").read(3) == b"\xef\xbb\xbf", "ps1 starts with a UTF-8 BOM (PowerShell 5.1)")
dry = [l for l in open("dry-run.txt").read().split("\n") if l]
check(bat[0] == "@echo off" and 'if /i "%~1"=="/dry-run" set TD_RUN=echo' in bat, "bat header")
cmds = [l[len("%TD_RUN% "):] for l in bat if l.startswith("%TD_RUN% ")]
check(len(cmds) >= 1 and all(l.startswith("rem ") or l.startswith("%TD_RUN% ") or
      l.startswith("if ") or l.startswith("set ") or l.startswith("exit /b ") or
      l in ("", "@echo off", ":td_end") for l in bat),
      f"bat: only rem, commands, set/if/exit ({len(cmds)} commands)")
check(dry == cmds, f"fix.bat /dry-run prints its {len(cmds)} commands: {dry}")
# In the order of their findings: the static model names the 193 of x86.dll
# (a root of another machine) before the replay's 1114.
want = ["pip install --force-reinstall --no-cache-dir torch", "winget install Microsoft.VCRedist.2015+.x64"]
# a failure shows the script's findings: the replay's own words say why it
# gave nothing (a CI run once wrote this script without the replay's 1114)
why = "" if sorted(cmds) == want else "; the script's findings: " + " | ".join(
    l for l in bat if l.startswith("rem ") and ("error" in l or "warning" in l))
check(sorted(cmds) == want, f"the commands {cmds}{why}")
check("rem error init_failure: WinError 1114 loading initcaller.dll" in "\n".join(bat),
      "bat names the 1114")
check(ps1[2] == "$ErrorActionPreference = 'Stop'", "ps1 header")
pcmds = [l for l in ps1 if l and not l.startswith("#") and not l.startswith("$")]
check(pcmds == cmds, f"ps1 commands equal the bat's {pcmds}")
check('# In your own code, before import torch: os.add_dll_directory(r"C:\\tools")' in ps1,
      "os.add_dll_directory note")
sys.exit(1 if bad else 0)
P
exit $fail
