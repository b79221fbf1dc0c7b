#!/usr/bin/python3
"""Paired A/B timing on a noisy machine: runs A and B alternately (the
order swapped every pair), each under `perf stat -e task-clock,duration_time`
with stdout to /dev/null, and prints the medians and the median of the
per-pair ratios A/B (above 1: B is faster) for CPU time and wall time.
  bench/ab.py N 'COMMAND A' 'COMMAND B'"""
import shlex
import statistics
import subprocess
import sys


def one(cmd):
    p = subprocess.run(["perf", "stat", "-x,", "-e", "task-clock,duration_time", "--", *cmd],
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    vals = {}
    for line in p.stderr.splitlines():
        f = line.split(",")
        if len(f) > 2 and f[2] in ("task-clock", "duration_time"):
            vals[f[2]] = float(f[0])
    return vals["task-clock"], vals["duration_time"] / 1e6  # ms, ms


def main():
    n, a, b = int(sys.argv[1]), shlex.split(sys.argv[2]), shlex.split(sys.argv[3])
    for cmd in (a, b):  # warm-up
        one(cmd), one(cmd)
    ra, rb = [], []
    for i in range(n):
        if i % 2:
            y, x = one(b), one(a)
        else:
            x, y = one(a), one(b)
        ra.append(x), rb.append(y)
    med = statistics.median
    for k, name in ((0, "cpu (task-clock)"), (1, "wall")):
        ratios = [x[k] / y[k] for x, y in zip(ra, rb)]
        print(f"{name:17} A {med(x[k] for x in ra):8.2f} ms  B {med(y[k] for y in rb):8.2f} ms  "
              f"median A/B {med(ratios):.3f}  (pairs {n})")


main()
