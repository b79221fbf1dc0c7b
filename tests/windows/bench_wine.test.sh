#!/usr/bin/env bash
# torchdoctor.exe bench under Wine: the Windows build measures the CPU
# (the same cpuid-chosen GEMM kernel) and memory, validates against the
# schema, and says that it does not measure GPUs yet rather than
# pretending to (docs/bench.md). No figure is asserted beyond > 0.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
schema=$TD_SRC/schema/report.schema.json
tmp=$(mktemp -d)
export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
[ -f "$exe" ] || { echo "skipped: $exe was not built"; exit 0; }
command -v wine >/dev/null || { echo "skipped: wine is not installed"; exit 0; }
wine wineboot -i >/dev/null 2>&1
wine "$exe" bench --quick --format json 2>/dev/null | tr -d '\r' >"$tmp/bench.json"
/usr/bin/python3 - "$schema" "$tmp/bench.json" <<'P'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
schema.pop("$id", None)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
assert doc["platform"] == "windows" and doc["command"] == "bench", doc
b = doc["bench"]
assert b["cpu"]["gemm_fp32_1core"]["value"] > 0 and b["cpu"]["gemm_fp32_all"]["value"] > 0, b["cpu"]
assert all(b["memory"][k]["value"] > 0 for k in ("read", "copy", "triad")), b["memory"]
assert b["gpus"] == [] and "not measured" in b["gpu_status"], b["gpu_status"]
print("bench under Wine: %s GEMM %.1f GFLOP/s on one core, triad %.1f GB/s; GPU: %s" % (
    b["cpu"]["isa"], b["cpu"]["gemm_fp32_1core"]["value"], b["memory"]["triad"]["value"],
    b["gpu_status"]))
P
