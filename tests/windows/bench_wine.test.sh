#!/usr/bin/env bash
# torchdoctor.exe bench under Wine: the Windows build measures the CPU
# (the same cpuid-chosen GEMM kernel) and memory, and the GPU through the
# stand-in nvcuda.dll / nvml.dll (tests/fixtures/windows_replay.sh) in its
# `__gpu` child, whose figures are known; a driver that faults in
# cuLaunchKernel ends only the child (0xC0000005), and the report says in
# which step. Both reports validate against the schema. Host figures are
# asserted only to be > 0.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
gpu=$TD_FIXTURES/windows_replay/gpu
schema=$TD_SRC/schema/report.schema.json
[ -f "$exe" ] || { echo "skipped: $exe was not built"; exit 0; }
command -v wine >/dev/null || { echo "skipped: wine is not installed"; exit 0; }
. "$(dirname "$0")/wine_prefix.sh"
cp -r "$gpu" "$WINEPREFIX/drive_c/gpu"
export TD_FAKE_NVML_DRIVER=572.16 WINEPATH='C:\gpu'
wine "$exe" bench --quick --iterations 3 --format json 2>/dev/null | tr -d '\r' >"$tmp/bench.json"
TD_FAKE_CUDA_MODE=launch_crash wine "$exe" bench --quick --format json 2>/dev/null |
    tr -d '\r' >"$tmp/crash.json" || true
/usr/bin/python3 - "$schema" "$tmp/bench.json" "$tmp/crash.json" <<'P'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
schema.pop("$id", None)
doc = json.load(open(sys.argv[2]))
crash = json.load(open(sys.argv[3]))
for d in (doc, crash):
    jsonschema.Draft202012Validator(schema).validate(d)
assert doc["platform"] == "windows" and doc["command"] == "bench", doc
b = doc["bench"]
assert b["cpu"]["gemm_fp32_1core"]["value"] > 0 and b["cpu"]["gemm_fp32_all"]["value"] > 0, b["cpu"]
assert all(b["memory"][k]["value"] > 0 for k in ("read", "copy", "triad")), b["memory"]
g = b["gpus"][0]
assert b["gpu_status"] is None and g["name"] == "NVIDIA GeForce RTX 4090" and g["error"] is None, b
assert g["h2d_pinned"]["value"] == 26.0 and g["d2d"]["value"] == 900.0, g
assert abs(g["fp32_fma"]["value"] - 80000) < 1 and g["fp32_fma"]["expected"] == 82600.0, g
assert g["stability"] == {"iterations": 3, "errors": 0, "drift": 0.0}, g
assert g["pcie"]["width"] == 16 and g["xid_errors"] is None, g
c = crash["bench"]
assert "0xC0000005" in c["gpu_status"], c["gpu_status"]
assert c["gpus"][0]["error"].endswith("during fp32_fma"), c["gpus"][0]
assert c["gpus"][0]["h2d_pinned"]["value"] == 26.0  # what came before the fault is kept
assert [f["kind"] for f in crash["findings"]] == ["gpu_error"], crash["findings"]
print("bench under Wine: %s GEMM %.1f GFLOP/s on one core; GPU %s as the stand-in says; "
      "a fault in cuLaunchKernel: %s" % (b["cpu"]["isa"], b["cpu"]["gemm_fp32_1core"]["value"],
                                         g["name"], c["gpus"][0]["error"]))
P
