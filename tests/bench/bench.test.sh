#!/usr/bin/env bash
# torchdoctor bench end to end (--quick): this machine's CPU, memory, disk
# and Debian's python3-torch for real, the GPU through the stand-in driver
# (tests/fixtures/fake_cuda) whose figures are known. The JSON report
# validates against schema/report.schema.json and is checked field by
# field; text and markdown render; bad usage is exit 2. No timings are
# asserted: what this machine measures is only required to be positive.
set -euo pipefail
schema=$TD_SRC/schema/report.schema.json
fake=$TD_FIXTURES/fake_cuda/lib
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

LD_LIBRARY_PATH=$fake TD_FAKE_NVML_DRIVER=550.54.14 \
    "$TD_BIN" bench --quick --iterations 3 --format json >"$tmp/bench.json"
torch=0
/usr/bin/python3 -c 'import torch' 2>/dev/null && torch=1
# Which libblas.so.3 Debian's alternative gives (blas/ is the netlib reference).
blas=$(readlink -f /usr/lib/x86_64-linux-gnu/libblas.so.3 2>/dev/null || true)

/usr/bin/python3 - "$schema" "$tmp/bench.json" "$torch" "$blas" <<'P'
import json, os, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
schema.pop("$id", None)
doc = json.load(open(sys.argv[2]))
have_torch = sys.argv[3] == "1"
netlib = "/blas/libblas.so" in sys.argv[4]
jsonschema.Draft202012Validator(schema).validate(doc)
assert doc["command"] == "bench", doc["command"]
b = doc["bench"]
cpu = b["cpu"]
for k in ("gemm_fp32_1core", "gemm_fp32_all"):
    assert cpu[k]["value"] > 0 and cpu[k]["unit"] == "GFLOP/s", cpu[k]
assert cpu["threads"] >= 1 and cpu["isa"] in ("scalar", "sse", "avx2+fma", "avx512f"), cpu
kinds = [(f["kind"], f["detail"]) for f in doc["findings"]]
if cpu["hypervisor"]:
    # In a VM /proc/cpuinfo's MHz is the host's TSC rate: never a peak's clock.
    assert not cpu["frequency_source"].startswith("/proc/cpuinfo"), cpu
if cpu["frequency_mhz"] is None:
    # A peak that cannot be known gives no expected value and no verdict.
    assert cpu["gemm_fp32_1core"]["expected"] is None and cpu["gemm_fp32_all"]["ratio"] is None
    assert not any(d.startswith(("FP32 GEMM", "memory")) for _, d in kinds), kinds
    print("cpu: no frequency here, so no expected value and no verdict:", cpu["frequency_source"])
else:
    print("cpu: expected", cpu["gemm_fp32_1core"]["expected"], "from", cpu["frequency_source"])
for k in ("read", "copy", "triad"):
    assert b["memory"][k]["value"] > 0 and b["memory"][k]["unit"] == "GB/s", b["memory"]
assert b["memory"]["array_bytes"] >= 64 << 20
gpu = b["gpus"][0]
assert gpu["name"] == "NVIDIA GeForce RTX 4090" and gpu["error"] is None, gpu
assert gpu["h2d_pinned"]["value"] == 26.0 and gpu["h2d_pinned"]["ratio"] == 0.825, gpu["h2d_pinned"]
assert gpu["d2d"]["expected"] == 1008.0 and abs(gpu["fp32_fma"]["value"] - 80000) < 1, gpu
assert gpu["h2d_pageable"]["expected"] is None and gpu["h2d_pageable"]["ratio"] is None
assert gpu["pcie"] == {"generation": 4, "width": 16, "max_generation": 4, "max_width": 16}, gpu
assert gpu["clocks_mhz"] == {"sm": 2520, "mem": 10501} and gpu["temperature_c"] == 61, gpu
assert gpu["stability"]["iterations"] == 3 and gpu["stability"]["errors"] == 0, gpu
assert not any(k == "gpu_error" for k, _ in kinds), kinds
if not have_torch:
    print("skipped: the torch part (/usr/bin/python3 has no torch)")
    sys.exit(0)
imp, t, disk = b["import"], b["torch"], b["disk"]
assert imp["seconds"] > 0 and imp["libraries"] > 50 and imp["slowest"], imp
assert t["matmul_fp32"]["value"] > 0 and t["matmul_fp32"]["expected"] > 0, t
assert disk["path"] and disk["read"]["value"] > 0 and disk["method"], disk
print("import torch: %.2f s, %d libraries; matmul %.2f GFLOP/s; BLAS %s (%s)" %
      (imp["seconds"], imp["libraries"], t["matmul_fp32"]["value"], t["blas"], t["blas_kind"]))
if netlib:
    assert t["blas"] == sys.argv[4] and t["blas_kind"] == "netlib reference", t
    f = [f for f in doc["findings"] if f["kind"] == "performance_below_expected"
         and f["library"] == t["blas"]]
    # The verdict is the figures' (below half of bench's own GEMM): netlib
    # is near that line where the GEMM itself is slow (a sanitizer build),
    # so the finding is asserted to follow the ratio, not the clock.
    m = t["matmul_fp32"]
    if m["value"] < 0.5 * m["expected"]:
        assert len(f) == 1, doc["findings"]
        assert "netlib reference" in f[0]["detail"] and "libopenblas0-pthread" in f[0]["fix"], f
        print("netlib BLAS named, with its replacement")
    else:
        assert not f, f
        print("skipped: the netlib BLAS finding (its matmul reached %.2f of bench's GEMM here)"
              % (m["value"] / m["expected"]))
else:
    print("skipped: the netlib BLAS finding (libblas.so.3 is %s here)" % sys.argv[4])
P

# Text and markdown, without torch and without a GPU (an interpreter that is not one).
printf '#!/bin/sh\nexit 1\n' >"$tmp/python3"
chmod +x "$tmp/python3"
# The text run has a terminal for stderr (script(1)): the progress line goes there.
if command -v script >/dev/null; then
    script -qec "'$TD_BIN' bench --quick --no-gpu --python '$tmp/python3' --color never >'$tmp/bench.txt'" \
        /dev/null >"$tmp/progress.txt"
    grep -qF "[1] CPU: FP32 GEMM on 1 thread ..." "$tmp/progress.txt" ||
        { echo "no progress line on a terminal"; cat -v "$tmp/progress.txt"; exit 1; }
    if grep -qF "[1] CPU" "$tmp/bench.txt"; then echo "progress went to stdout"; exit 1; fi
else
    echo "skipped: the progress line (no script(1) for a terminal)"
    "$TD_BIN" bench --quick --no-gpu --python "$tmp/python3" --color never >"$tmp/bench.txt"
fi
for want in "FP32 GEMM, 1 core" "memory triad" "GPU: skipped (--no-gpu)" "bench took"; do
    grep -qF "$want" "$tmp/bench.txt" || { echo "text lacks '$want'"; cat "$tmp/bench.txt"; exit 1; }
done
"$TD_BIN" bench --quick --no-gpu --python "$tmp/python3" --format markdown >"$tmp/bench.md"
grep -qF "| figure | measured | expected | ratio | expected from |" "$tmp/bench.md"
grep -qF "| FP32 GEMM, every core |" "$tmp/bench.md"

# Bad usage is exit 2 with a message naming the option.
# usage WORDS ARGS...: bench ARGS must exit 2 saying WORDS.
usage() {
    local words=$1
    shift
    set +e
    "$TD_BIN" bench "$@" >/dev/null 2>"$tmp/err"
    local rc=$?
    set -e
    [ $rc -eq 2 ] || { echo "bench $*: exit $rc, want 2"; exit 1; }
    grep -q -- "$words" "$tmp/err" || { echo "bench $*: message lacks '$words'"; cat "$tmp/err"; exit 1; }
}
usage "--format must be" --format xml
usage "--iterations must be" --iterations 0
usage "--python must be an existing file" --python /nonexistent/python
usage "'--frobnicate'" --frobnicate
# grep without -q reads the whole help: -q stops at the match and the writer,
# still writing, would die of SIGPIPE (a race that pipefail turns into a failure)
"$TD_BIN" bench --help | grep -- "--iterations N" >/dev/null
echo "bench: JSON valid and checked, text and markdown render, usage errors exit 2"
