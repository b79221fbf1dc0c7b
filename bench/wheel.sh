#!/usr/bin/env bash
# torchdoctor wheel on a 2.5 GB wheel, on one core: wall, user and system
# time and the peak RSS (/usr/bin/time -v), for the stored wheel (members
# read in place) and the same wheel deflated (members inflated as they
# stream). Builds both in a temporary folder (about 2.6 GB of disk).
# Usage: bench/wheel.sh [build/torchdoctor]
set -euo pipefail
td=$(realpath "${1:-build/torchdoctor}")
src=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for method in stored deflated; do
    wheel=$(TD_SRC=$src /usr/bin/python3 - "$tmp/$method" "$method" <<'P'
import os, sys, zipfile
sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests", "cmd"))
sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import wheel_big
os.makedirs(sys.argv[1])
method = zipfile.ZIP_STORED if sys.argv[2] == "stored" else zipfile.ZIP_DEFLATED
print(wheel_big.build_wheel(sys.argv[1], so_size=1300 << 20, data_size=1200 << 20, method=method))
P
)
    size=$(stat -c %s "$wheel")
    /usr/bin/time -f "%e %U %S %M" -o "$tmp/t" taskset -c 0 "$td" wheel --format json "$wheel" >/dev/null || true
    read -r wall user sys rss < <(tail -1 "$tmp/t")
    echo "$method: 2.5 GB of members in a $((size / 1000000)) MB wheel: wall ${wall}s user ${user}s sys ${sys}s peak RSS $((rss / 1024)) MB"
    rm -rf "${tmp:?}/$method"
done
