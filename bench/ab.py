#!/usr/bin/python3
"""Paired A/B timing on a noisy machine: runs A and B alternately (the
order swapped every pair), each under `perf stat -e task-clock,duration_time`
with stdout to /dev/null, and prints the medians and the median of the
per-pair ratios A/B (above 1: B is faster) for CPU time and wall time.
  bench/ab.py N 'COMMAND A' 'COMMAND B'
With more than two commands, each round runs all of them in a rotating
order (reversed every other round), and each gets a line with its medians
and the median of the per-round ratios of the first command to it.
  bench/ab.py N 'nm -D F' 'main inspect ...' 'new inspect ...'"""
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


def rounds(n, cmds):
    """Each command's (cpu, wall) of every round; the order rotates by one
    each round and is reversed every other round (for two: swapped)."""
    for cmd in cmds:  # warm-up
        one(cmd), one(cmd)
    runs = [[] for _ in cmds]
    for i in range(n):
        order = list(range(len(cmds)))
        order = order[i % len(cmds):] + order[:i % len(cmds)] if len(cmds) > 2 else order
        if i % 2:
            order.reverse()
        for k in order:
            runs[k].append(one(cmds[k]))
    return runs


def main():
    n, cmds = int(sys.argv[1]), [shlex.split(c) for c in sys.argv[2:]]
    runs = rounds(n, cmds)
    med = statistics.median
    if len(cmds) == 2:
        ra, rb = runs
        for k, name in ((0, "cpu (task-clock)"), (1, "wall")):
            ratios = [x[k] / y[k] for x, y in zip(ra, rb)]
            print(f"{name:17} A {med(x[k] for x in ra):8.2f} ms  B {med(y[k] for y in rb):8.2f} ms  "
                  f"median A/B {med(ratios):.3f}  (pairs {n})")
        return
    for c, r in zip(sys.argv[2:], runs):
        cpu, wall = (med(x[k] for x in r) for k in (0, 1))
        first = [med(a[k] / b[k] for a, b in zip(runs[0], r)) for k in (0, 1)]
        print(f"cpu {cpu:8.2f} ms  wall {wall:8.2f} ms  first/this cpu {first[0]:6.3f} "
              f"wall {first[1]:6.3f}  {c}  (rounds {n})")


main()
