#!/usr/bin/env python3
"""Writes N nodes' check and bench reports as JSON Lines, made from one real
check report (and optionally one real bench report) with controlled
differences, for the fleet test and bench/fleet.sh.

  fleet_gen.py CHECK.json [--bench BENCH.json] -n N -o OUT.jsonl
               [--old-driver HOST] [--missing-gpu HOST] [--slow HOST]

Every node gets driver 550.54.15, 8 x H100, torch 2.3.1+cu121, NCCL 2.20.5;
hosts are gpu0001..gpuNNNN. The planted hosts differ in exactly one thing.
The bench figures spread by +-2% (a fixed seed); a slow node is 30% down."""
import argparse
import json
import random

GPU = "NVIDIA H100 80GB HBM3"


def gpus_text(count):
    return json.dumps([{"index": i, "name": GPU, "memory": 85520809984, "uuid": "GPU-%d" % i}
                       for i in range(count)], separators=(",", ":"))


def check_template(path):
    with open(path) as f:
        d = json.loads(f.read().strip().splitlines()[0]) if path.endswith(".jsonl") else json.load(f)
    d["host"] = "@@HOST@@"
    d["system"]["hostname"] = "@@HOST@@"
    d["system"]["kernel"] = "5.15.0-105-generic"
    d["system"]["glibc"] = "2.35"
    d["driver"]["driver_version"] = "@@DRIVER@@"
    d["gpus"] = "@@GPUS@@"
    torch = d.get("torch") or [{}]
    torch[0].update({"version": "2.3.1+cu121", "variant": "cuda", "cuda": "12.1", "imported": True})
    d["torch"] = torch[:1]
    d["distributed"] = {"nccl": {"version": "2.20.5"}}
    text = json.dumps(d, separators=(",", ":"))
    return text.replace('"@@GPUS@@"', "@@GPUS@@")


def figure(value, unit):
    return {"value": round(value, 3), "unit": unit, "expected": None, "ratio": None,
            "source": "fleet_gen.py"}


def bench_template(path):
    if path:
        with open(path) as f:
            d = json.loads(f.read().strip().splitlines()[0])
    else:
        d = {"tool": "torchdoctor", "version": "0.1.0", "schema_version": 1, "command": "bench",
             "platform": "linux", "findings": [], "bench": {}}
    d["host"] = "@@HOST@@"
    d["bench"]["gpus"] = "@@BENCHGPUS@@"
    return json.dumps(d, separators=(",", ":")).replace('"@@BENCHGPUS@@"', "@@BENCHGPUS@@")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("check")
    ap.add_argument("--bench")
    ap.add_argument("-n", type=int, default=1000)
    ap.add_argument("-o", required=True)
    ap.add_argument("--old-driver", default="")
    ap.add_argument("--missing-gpu", default="")
    ap.add_argument("--slow", default="")
    a = ap.parse_args()
    rnd = random.Random(27)
    check, bench = check_template(a.check), bench_template(a.bench)
    full, seven = gpus_text(8), gpus_text(7)
    with open(a.o, "w") as out:
        for i in range(1, a.n + 1):
            host = "gpu%04d" % i
            driver = "535.104.05" if host == a.old_driver else "550.54.15"
            out.write(check.replace("@@HOST@@", host).replace("@@DRIVER@@", driver)
                      .replace("@@GPUS@@", seven if host == a.missing_gpu else full) + "\n")
            scale = 0.7 if host == a.slow else 1.0
            gpus = [{"index": g, "name": GPU,
                     "fp32_fma": figure(50000 * scale * rnd.uniform(0.98, 1.02), "GFLOP/s"),
                     "h2d_pinned": figure(25 * rnd.uniform(0.98, 1.02), "GB/s")}
                    for g in range(7 if host == a.missing_gpu else 8)]
            out.write(bench.replace("@@HOST@@", host)
                      .replace("@@BENCHGPUS@@", json.dumps(gpus, separators=(",", ":"))) + "\n")


main()
