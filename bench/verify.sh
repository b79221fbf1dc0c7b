#!/usr/bin/env bash
# check --verify (SHA-256 of every RECORD row of torch and the NVIDIA CUDA 13
# wheels, laid out from /usr/local/cuda as pip does: tests/cudalayout.py)
# side by side with sha256sum and openssl over the same files, in one run:
# best of 3 wall times, and check pinned to one core (taskset) against
# openssl, which uses the SHA extensions where the CPU has them.
#   bench/verify.sh [TORCHDOCTOR]
set -uo pipefail
td=$(realpath "${1:-build/torchdoctor}")
src=$(cd "$(dirname "$0")/.." && pwd)
[ -d /usr/local/cuda/dist-info ] || { echo "skipped: /usr/local/cuda holds no NVIDIA wheels"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$src/tests" "$tmp/v" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import cudalayout
py, site = cudalayout.venv(sys.argv[2])
cudalayout.lay_out(site)
cudalayout.torch_install(site)
PY
py=$tmp/v/bin/python3
site=$tmp/v/lib/python3.11/site-packages
(cd "$site" && find nvidia torch -type f | sort) >"$tmp/files"
bytes=$(cd "$site" && xargs -d '\n' stat -c %s <"$tmp/files" | awk '{s += $1} END {printf "%d", s}')
cat "$(head -1 "$tmp/files" | sed "s|^|$site/|")" >/dev/null
(cd "$site" && xargs -d '\n' cat <"$tmp/files" >/dev/null) # page cache warm for everyone

best() { # best of 3 wall times of COMMAND, in seconds
    local b=999999 t0 t1 t
    for _ in 1 2 3; do
        t0=$(date +%s.%N)
        "$@" >/dev/null 2>&1
        t1=$(date +%s.%N)
        t=$(echo "$t1 - $t0" | bc -l)
        [ "$(echo "$t < $b" | bc -l)" = 1 ] && b=$t
    done
    echo "$b"
}
row() { printf '%-46s %8.3f s %8.0f MB/s\n' "$1" "$2" "$(echo "$bytes / $2 / 1000000" | bc -l)"; }
printf '%s files, %.0f MB (%s)\n' "$(wc -l <"$tmp/files")" "$(echo "$bytes / 1000000" | bc -l)" \
    "$(grep -qw sha_ni /proc/cpuinfo && echo 'CPU with SHA extensions' || echo 'no SHA extensions')"
t_td=$(best "$td" check --verify --no-gpu --python "$py" --format json)
t_td1=$(best taskset -c 0 "$td" check --verify --no-gpu --python "$py" --format json)
t_ssl=$(cd "$site" && best xargs -d '\n' -a "$tmp/files" openssl dgst -sha256)
t_sum=$(cd "$site" && best xargs -d '\n' -a "$tmp/files" sha256sum)
t_def=$(best "$td" check --no-gpu --python "$py" --format json)
row "torchdoctor check --verify (all cores)" "$t_td"
row "torchdoctor check --verify (one core)" "$t_td1"
row "openssl dgst -sha256 (one core)" "$t_ssl"
row "sha256sum (one core)" "$t_sum"
printf '%-46s %8.3f s\n' "torchdoctor check (default, no --verify)" "$t_def"
printf 'one core: check/openssl time ratio %.2f; all cores: openssl/check %.2fx, sha256sum/check %.2fx\n' \
    "$(echo "$t_td1 / $t_ssl" | bc -l)" "$(echo "$t_ssl / $t_td" | bc -l)" "$(echo "$t_sum / $t_td" | bc -l)"
