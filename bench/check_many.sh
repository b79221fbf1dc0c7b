#!/usr/bin/env bash
# Default check (no --verify) on a site-packages of 3,000 distributions: a
# torch (its real 2.1.2 Requires-Dist) among 3,000 small pip-installed
# distributions, 300 of which require torch (each one's METADATA is read
# for its pins). Prints the median wall time (hyperfine) and peak memory.
#   bench/check_many.sh [TORCHDOCTOR] [COUNT]
set -uo pipefail
td=${1:-build/torchdoctor}
count=${2:-3000}
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp)
trap 'rm -rf "$tmp" "$tmp.d"' EXIT
. "$(dirname "$0")/lib.sh"
/usr/bin/python3 - "$src/tests" "$tmp.d" "$count" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import cudalayout
from pkgmeta import TORCH_212_REQUIRES, dist_info
py, site = cudalayout.venv(sys.argv[2])
os.makedirs(os.path.join(site, "torch"))
with open(os.path.join(site, "torch", "version.py"), "w") as f:
    f.write("__version__ = '2.1.2+cu121'\ncuda = '12.1'\nhip = None\n")
dist_info(site, "torch", "2.1.2+cu121", TORCH_212_REQUIRES, ["torch/version.py"])
for i in range(int(sys.argv[3])):
    name = f"package-{i:04d}"
    os.makedirs(os.path.join(site, name.replace("-", "_")))
    rel = f"{name.replace('-', '_')}/__init__.py"
    with open(os.path.join(site, rel), "w") as f:
        f.write(f"# {name}\n")
    reqs = ["numpy>=1.24", "torch>=2.0 ; python_version >= '3.8'"] if i % 10 == 0 else ["requests"]
    dist_info(site, name, f"1.{i}.0", reqs, [rel])
PY
measure "check, $count distributions (default)" many "$td" check --no-gpu --format json \
    --python "$tmp.d/bin/python3"
