#!/usr/bin/env bash
# The first meeting with a real GPU (issue 26): on a machine with an NVIDIA
# GPU and no network, build torchdoctor, run check, bench and inspect, and
# hold every GPU fact against nvidia-smi and every bench GPU figure against
# the GPU's published peak (data/gpu_peaks.tsv). Prints one table; exits 1
# on any disagreement, 2 when it cannot run, 0 otherwise. On a machine
# without a GPU it says which checks it skipped and why, and exits 0.
#   bench/device-check.sh [--no-build] [TORCHDOCTOR]
# Needs: bash, python3, cmake + a C compiler (unless --no-build or a built
# binary is given), nvidia-smi. Takes about a minute (bench --quick, and bench --workload at reduced shapes).
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=1
[ "${1:-}" = "--no-build" ] && { build=0; shift; }
td=${1:-}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

if [ -z "$td" ]; then
    td=$src/build-device/torchdoctor
    if [ "$build" = 1 ]; then
        command -v cmake >/dev/null || { echo "device-check: cmake is not installed" >&2; exit 2; }
        gen=$(command -v ninja >/dev/null && echo "-G Ninja")
        # shellcheck disable=SC2086
        cmake -S "$src" -B "$src/build-device" $gen -DTD_TESTS=OFF >/dev/null &&
            cmake --build "$src/build-device" -j "$(nproc)" >"$out/build.log" 2>&1 ||
            { tail -20 "$out/build.log" >&2; echo "device-check: the build failed" >&2; exit 2; }
    fi
fi
[ -x "$td" ] || { echo "device-check: no torchdoctor at $td" >&2; exit 2; }

smi=$(command -v nvidia-smi || true)
"$td" check --no-symbols --format json >"$out/check.json" 2>"$out/check.err"
if [ -n "$smi" ]; then
    "$smi" --query-gpu=index,name,driver_version,compute_cap,memory.total,clocks.max.sm,clocks.max.mem,pcie.link.gen.max,pcie.link.width.max \
        --format=csv,noheader,nounits >"$out/smi.csv" 2>"$out/smi.err" || true
    "$td" bench --quick --format json >"$out/bench.json" 2>"$out/bench.err" || true
    "$td" check --no-symbols --verbose >"$out/check.txt" 2>&1 || true
    # issue 30: the workload step through the discovered torch, on the GPU
    # (not beside a stand-in driver, which no torch can use: the tests' case)
    if [ -z "${TD_FAKE_GPUS:-}" ]; then
        "$td" bench --workload sdxl-lora --hidden 640 --tokens 1024 --rounds 5 --timeout 120 \
            --format json >"$out/workload.json" 2>"$out/workload.err" || true
    else
        echo "a stand-in driver (TD_FAKE_GPUS): no torch can use it" >"$out/workload.err"
    fi
fi

/usr/bin/env python3 - "$out" "$src/data/gpu_peaks.tsv" "$smi" <<'PY'
import csv, json, os, sys

out, peaks_file, smi = sys.argv[1], sys.argv[2], sys.argv[3]
rows, bad = [], 0


def row(what, ours, ref, verdict):
    global bad
    bad += verdict == "DISAGREE"
    rows.append((what, str(ours), str(ref), verdict))


def load(name):
    try:
        return json.load(open(os.path.join(out, name)))
    except (OSError, ValueError):
        return None


check = load("check.json")
checks = ["GPU name", "driver version", "compute capability", "memory", "CUDA libraries' code",
          "FP32 FMA vs peak", "device copy vs memory peak", "PCIe link", "SM clock"]
if check is None:
    print("device-check: torchdoctor check gave no JSON:", open(os.path.join(out, "check.err")).read()[-500:])
    sys.exit(2)
if not smi:
    drv = check.get("driver", {})
    print(f"no nvidia-smi on this machine (torchdoctor's driver probe: {drv.get('status')}"
          f"{': ' + drv['detail'] if drv.get('detail') else ''}): every GPU check skipped")
    for c in checks:
        print(f"  skipped: {c} (no NVIDIA GPU and driver to compare with)")
    sys.exit(0)

smi_rows = list(csv.reader(open(os.path.join(out, "smi.csv")), skipinitialspace=True))
gpus = check.get("gpus") or []
if not smi_rows:
    print("device-check: nvidia-smi answered nothing:", open(os.path.join(out, "smi.err")).read()[-500:])
    sys.exit(2)
peaks = {}
for line in open(peaks_file):
    if line.startswith("#") or line.startswith("name\t"):
        continue
    f = line.rstrip("\n").split("\t")
    peaks[f[0].lower()] = {"fp32_tflops": float(f[3]), "mem_gbs": float(f[4]), "pcie": (f[5], f[6])}


def peak_of(name):
    n = name.lower().removeprefix("nvidia ")
    hits = [k for k in peaks if k in n]
    return peaks[max(hits, key=len)] if hits else None


def num(s):
    try:
        return float(s)
    except ValueError:
        return None


bench = load("bench.json") or {}
bgpus = (bench.get("bench") or {}).get("gpus") or []
drv = check.get("driver", {})
for r in smi_rows:
    idx, name, driver, cc, mem_mib, sm_max, mem_max, gen, width = (r + [""] * 9)[:9]
    g = next((x for x in gpus if str(x.get("index")) == idx), None)
    tag = f"GPU {idx}"
    if g is None:
        row(f"{tag} seen by torchdoctor", "absent", name, "DISAGREE")
        continue
    row(f"{tag} name", g["name"], name, "agree" if g["name"] == name else "DISAGREE")
    row(f"{tag} driver version", drv.get("driver_version"), driver,
        "agree" if drv.get("driver_version") == driver else "DISAGREE")
    row(f"{tag} compute capability", g.get("compute_capability"), cc,
        "agree" if g.get("compute_capability") == cc else "DISAGREE")
    ours = (g.get("memory") or 0) / 2**20
    ref = num(mem_mib) or 0
    row(f"{tag} memory (MiB)", round(ours), mem_mib,
        "agree" if ref and abs(ours - ref) <= 0.02 * ref else "DISAGREE")
    # The CUDA libraries torch loads: a library judged without code for
    # this GPU would fail here; the verdict must not be no_code on a GPU
    # that runs them (nvidia-smi lists it, so the driver serves it).
    for t in check.get("torch") or []:
        for lib in t.get("gpu_code") or []:
            v = [x for x in lib["verdicts"] if str(x["gpu"]) == idx]
            if v:
                verdict = v[0]["verdict"]
                row(f"{tag} {os.path.basename(lib['library'])}", verdict,
                    f"{len(lib['archs'])} archs, {lib['containers']} containers",
                    "agree" if verdict in ("native", "ptx_jit") else "check")
    p = peak_of(name)
    b = next((x for x in bgpus if str(x.get("index")) == idx), None)
    if b is None or b.get("error"):
        row(f"{tag} bench", (b or {}).get("error") or "no GPU figures", "", "DISAGREE")
        continue
    fma = (b.get("fp32_fma") or {}).get("value")
    if p and fma:
        ratio = fma / (p["fp32_tflops"] * 1000)
        row(f"{tag} FP32 FMA GFLOP/s", round(fma), f"peak {p['fp32_tflops'] * 1000:.0f}",
            "DISAGREE" if ratio > 1.1 else "agree" if ratio >= 0.5 else f"low ({ratio:.2f})")
    d2d = (b.get("d2d") or {}).get("value")
    if p and d2d:
        ratio = d2d / p["mem_gbs"]
        row(f"{tag} device copy GB/s", round(d2d), f"peak {p['mem_gbs']:.0f}",
            "DISAGREE" if ratio > 1.1 else "agree" if ratio >= 0.4 else f"low ({ratio:.2f})")
    pcie = b.get("pcie") or {}
    if pcie.get("max_generation"):
        ours = f"gen {pcie.get('max_generation')} x{pcie.get('max_width')}"
        row(f"{tag} PCIe link (max)", ours, f"gen {gen} x{width}",
            "agree" if (str(pcie.get("max_generation")), str(pcie.get("max_width"))) == (gen, width) else "DISAGREE")
    clocks = b.get("clocks_mhz") or {}
    if clocks.get("sm") and num(sm_max):
        row(f"{tag} SM clock MHz (now / max)", clocks["sm"], sm_max,
            "agree" if clocks["sm"] <= num(sm_max) * 1.01 else "DISAGREE")
    if not p:
        row(f"{tag} published peaks", "none in data/gpu_peaks.tsv", name, "skipped")

# bench --workload: the same code path as on CPU, with the allocator's peak
wl = (load("workload.json") or {}).get("bench_workload")
if smi and not wl:
    err = open(os.path.join(out, "workload.err"), errors="replace").read().strip().splitlines()
    row("bench --workload on the GPU", "no run", (err or ["no output"])[-1][:60], "skipped")
elif wl and wl.get("device") != "cuda":
    row("bench --workload on the GPU", f"ran on {wl.get('device')}", "torch here has no CUDA", "skipped")
elif wl:
    row("bench --workload device", wl.get("device"), "cuda", "agree")
    row("bench --workload rounds", wl.get("rounds"), 5, "agree" if wl.get("rounds") == 5 else "DISAGREE")
    peak, total = wl.get("peak_bytes") or 0, wl.get("device_bytes") or 0
    row("bench --workload peak (allocator)", f"{peak / 1e9:.2f} GB ({wl.get('peak_source')})",
        f"0 < peak <= {total / 1e9:.1f} GB", "agree" if 0 < peak <= total else "DISAGREE")
    med = (wl.get("step") or {}).get("median_s")
    row("bench --workload s/step", med, "> 0", "agree" if med and med > 0 else "DISAGREE")

width = max(len(r[0]) for r in rows)
print(f"{'check':<{width}}  {'torchdoctor':<28}  {'reference':<28}  result")
for r in rows:
    print(f"{r[0]:<{width}}  {r[1]:<28.28}  {r[2]:<28.28}  {r[3]}")
print(f"{len(rows)} checks, {bad} disagreements")
sys.exit(1 if bad else 0)
PY
