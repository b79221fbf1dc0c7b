#!/usr/bin/env bash
# How long `torchdoctor explain --format json` takes on every text of the
# corpora (tests/cmd/explain_*.json): each text is explained REPEAT times
# (default 5) as its own process, the fastest run kept (the others measure
# the shared machine, not explain), and the slowest text, the median and the
# share under the 20 ms budget are printed. Wall time of the whole process:
# start-up, the catalogue's EREs compiled, the text read and answered.
#   bench/explain.sh [TORCHDOCTOR] [REPEAT]
set -euo pipefail
td=${1:-build/torchdoctor}
repeat=${2:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
exec /usr/bin/python3 - "$td" "$repeat" "$here" <<'P'
import glob, json, os, statistics, subprocess, sys, time
td, repeat, root = sys.argv[1], int(sys.argv[2]), sys.argv[3]
texts = []
for path in sorted(glob.glob(os.path.join(root, "tests/cmd/explain_*.json"))):
    texts += [(os.path.basename(path), c["url"], c["text"]) for c in json.load(open(path, encoding="utf-8"))]
times = []
for name, url, text in texts:
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        subprocess.run([td, "explain", "--format", "json", "-"], input=text.encode(), capture_output=True)
        dt = time.perf_counter() - t0
        best = dt if best is None or dt < best else best
    times.append((best, name, url, len(text)))
times.sort()
ms = [t[0] * 1000 for t in times]
print(f"explain: {len(times)} texts, fastest of {repeat} runs each")
print(f"  median {statistics.median(ms):.1f} ms, 90th percentile {ms[int(len(ms) * 0.9)]:.1f} ms, slowest {ms[-1]:.1f} ms")
print(f"  under 20 ms: {sum(m < 20 for m in ms)}/{len(ms)}")
for t, name, url, n in times[-3:]:
    print(f"  {t * 1000:.1f} ms  {n} bytes  {name} {url}")
P
