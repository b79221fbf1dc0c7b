#!/usr/bin/env bash
# deps with the torch-import profile on a Windows torch layout (fixture):
# torch\lib\*.dll are loaded in glob order with os.add_dll_directory dirs,
# fbgemm.dll needs libomp140.x86_64.dll (absent: the torch 2.4.0 failure,
# pytorch/pytorch#131662), asmjit.dll is found only through PATH (torch's
# fallback after error 126), and the profile is picked from the layout.
set -euo pipefail
root=${TD_FIXTURES:?}/windows_torch/root # tests/fixtures/windows_torch.sh
lib=$root/venv/Lib/site-packages/torch/lib

out=$("$TD_BIN" deps --root "$root" --env 'PATH=C:\tools' --format json "$lib/fbgemm.dll" || true)
/usr/bin/python3 - "$out" <<'P'
import json, sys
d = json.loads(sys.argv[1])
bad = []
def check(cond, what):
    if not cond:
        bad.append(what); print("FAIL:", what)
check(d["profile"] == "torch-import", f"profile {d['profile']}")
roots = [l["path"].replace("\\", "/").rsplit("/", 1)[-1] for l in d["libraries"] if l["status"] == "root"]
check(roots == ["c10.dll", "fbgemm.dll"], f"roots (glob order) {roots}")
miss = [f for f in d["findings"] if f["kind"] == "missing_library" and f["severity"] == "error"]
check(len(miss) == 1 and miss[0]["library"] == "libomp140.x86_64.dll" and
      miss[0]["needed_by"].endswith("fbgemm.dll"), f"missing {miss}")
lib = [l for l in d["libraries"] if l["name"] == "libomp140.x86_64.dll"][0]
rules = [s["rule"] for s in lib["searched"]]
check("add_dll_directory" in rules and "DLL load dir" in rules and "PATH" in rules,
      f"libomp140 searched: {rules}")
via = [f for f in d["findings"] if f["kind"] == "found_only_via_path"]
check(len(via) == 1 and via[0]["library"].lower().endswith("asmjit.dll"), f"asmjit {via}")
aj = [l for l in d["libraries"] if l["name"] == "asmjit.dll"][0]
check(aj["found_via"] == "PATH", f"asmjit found_via {aj['found_via']}")
print(f"torch-import on a Windows layout: {len(bad)} failures")
sys.exit(1 if bad else 0)
P
