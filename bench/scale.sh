#!/usr/bin/env bash
# Growth with the size of what is read (issue 31): check --verify on a
# torch of 1k/10k/100k files (every one a RECORD row, hashed) and on 5,000
# distributions; deps on a closure of 10/100/1,000 libraries (a binary
# tree of DT_NEEDED, linked here); inspect --symbols --format json of a
# library of 10k/100k/1M symbols. Prints a markdown table: the best wall
# time of 3 runs, the peak RSS, and both per item, whose flatness is the
# claim (a script, not a timed test; the machine is shared).
#   bench/scale.sh [TORCHDOCTOR] [FIXTURES]
set -uo pipefail
td=$(realpath "${1:-build/torchdoctor}")
fx=$(realpath "${2:-build/fixtures}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# row WHAT N COMMAND...: best of 3 wall times, largest peak RSS.
row() {
    local what=$1 n=$2 best=999999 rss=0 t m
    shift 2
    for _ in 1 2 3; do
        /usr/bin/time -o "$work/time" -f '%e %M' "$@" >/dev/null 2>&1
        read -r t m <"$work/time"
        best=$(python3 -c "print(min($best, $t))")
        [ "$m" -gt "$rss" ] && rss=$m
    done
    python3 -c "
n, t, m = $n, $best, $rss
print(f'| $what | {n:,} | {t*1000:.0f} ms | {m/1024:.1f} MiB | {t*1e6/n:.1f} us | {m/n:.2f} KiB |')"
}

echo "| command | items | wall (best of 3) | peak RSS | wall per item | RSS per item |"
echo "|---|---:|---:|---:|---:|---:|"
for n in 1000 10000 100000; do
    r=$work/files-$n
    cp -a "$fx/torch_layouts/pip" "$r"
    python3 - "$r/usr/local/lib/python3.11/dist-packages" "$n" <<'P'
import base64, glob, hashlib, os, sys
site, n = sys.argv[1], int(sys.argv[2])
rows = []
for i in range(n):
    rel = f"torch/gen/d{i // 1000:03d}/f{i:06d}.py"
    data = f"x = {i}\n".encode()
    os.makedirs(os.path.dirname(os.path.join(site, rel)), exist_ok=True)
    open(os.path.join(site, rel), "wb").write(data)
    d = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    rows.append(f"{rel},sha256={d},{len(data)}\n")
open(glob.glob(os.path.join(site, "torch-*.dist-info/RECORD"))[0], "a").writelines(rows)
P
    row "check --verify, files in torch" "$n" "$td" check --root "$r" --no-gpu --verify --format json
done
r=$work/dists
cp -a "$fx/torch_layouts/pip" "$r"
python3 - "$r/usr/local/lib/python3.11/dist-packages" 5000 <<'P'
import os, sys
site, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    d = os.path.join(site, f"package_{i:05d}-1.0.dist-info")
    os.makedirs(d)
    open(os.path.join(d, "METADATA"), "w").write(f"Metadata-Version: 2.1\nName: package-{i:05d}\nVersion: 1.0\nRequires-Dist: requests\n")
    open(os.path.join(d, "INSTALLER"), "w").write("pip\n")
    open(os.path.join(d, "RECORD"), "w").write(f"package_{i:05d}-1.0.dist-info/METADATA,,\n")
P
row "check, distributions" 5000 "$td" check --root "$r" --no-gpu --format json

# A closure of N libraries: lib I needs libs 2I+1 and 2I+2 (those < N).
echo 'int f(void) { return 1; }' >"$work/f.c"
gcc -c -fPIC -O1 -o "$work/f.o" "$work/f.c"
for n in 10 100 1000; do
    d=$work/closure-$n
    mkdir -p "$d"
    for ((i = n - 1; i >= 0; i--)); do
        needs=()
        for c in $((2 * i + 1)) $((2 * i + 2)); do
            [ "$c" -lt "$n" ] && needs+=("-l$c")
        done
        gcc -shared -o "$d/lib$i.so" -Wl,-soname,lib$i.so "$work/f.o" -L"$d" -Wl,--no-as-needed "${needs[@]}"
    done
    row "deps, libraries in the closure" "$n" "$td" deps --search-dir "$d" --format json "$d/lib0.so"
done

# A library of N defined symbols (assembled, not compiled: seconds for 1M).
for n in 10000 100000 1000000; do
    python3 -c "
import sys
n = int(sys.argv[1])
w = sys.stdout.write
w('.text\n')
for i in range(n):
    w(f'.globl td_sym_{i:07d}\n.type td_sym_{i:07d},@function\ntd_sym_{i:07d}: ret\n')
" "$n" >"$work/syms.s"
    gcc -shared -nostdlib -o "$work/libsyms$n.so" "$work/syms.s"
    row "inspect --symbols --format json" "$n" "$td" inspect --symbols --format json "$work/libsyms$n.so"
done
