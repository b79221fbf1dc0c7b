#!/usr/bin/env bash
# CPU time of `torchdoctor explain --format json` on hostile texts (docs/explain.md
# "Long texts"): one line of LENGTH characters without a blank (default
# 10,000) of identifier characters, dots, digits, dashes, slashes, ".1",
# ".so", a dotted module path and a deep path; ten identifier lines (100 KB);
# and an identifier line before and after real errors (a one-line ERE's
# needle, an undefined symbol, whose ERE may span lines); that undefined
# symbol wrapped after its colon at the end of the identifier line; and
# short paths ("/a ", LENGTH*8 bytes of them) around a missing library, whose
# directories the requirer scan reads. User+system CPU
# seconds of each, from /usr/bin/time, each run under a 300 s timeout.
#   bench/explain_hostile.sh [TORCHDOCTOR] [LENGTH]
set -euo pipefail
td=${1:-build/torchdoctor}
length=${2:-10000}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" "$length" <<'P'
import random, sys
tmp, L = sys.argv[1], int(sys.argv[2])
rnd = random.Random(1)
ident = "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") for _ in range(L))
lines = {
    "ident": ident, "dots": "." * L, "digits": "9" * L, "dashes": "-" * L, "slashes": "/" * L,
    "dotone": ".1" * (L // 2), "dotso": ".so" * (L // 3),
    "dotted": ".".join("mod%d" % i for i in range(L // 6)),
    "path": "/" + "/".join("dir%d" % i for i in range(L // 6)),
}
for k, v in lines.items():
    open(f"{tmp}/{k}.txt", "w").write(v + "\n")
open(f"{tmp}/ident-x10.txt", "w").write("".join(ident[i:] + ident[:i] + "\n" for i in range(10)))
errors = {
    "linux": "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory\n",
    "undef": "ImportError: /opt/venv/lib/libtorch_cuda.so: undefined symbol: cudaGraphInstantiateWithFlags\n",
}
for k, e in errors.items():
    open(f"{tmp}/ident-then-{k}.txt", "w").write(ident + "\n" + e)
    open(f"{tmp}/{k}-then-ident.txt", "w").write(e + ident + "\n")
open(f"{tmp}/ident-wrapped-undef.txt", "w").write(
    ident + " ImportError: /opt/venv/lib/libtorch_cuda.so:\n    undefined symbol: cudaGraphInstantiateWithFlags\n")
half = "/a " * (L * 4 // 3) + "\n"
open(f"{tmp}/short-paths.txt", "w").write(
    half + "OSError: libfoozz.so.1: cannot open shared object file: No such file or directory\n" + half)
P
for f in "$tmp"/*.txt; do
    /usr/bin/time -f "%U %S" -o "$tmp/time" timeout 300 "$td" explain --format json "$f" >/dev/null 2>&1 || true
    printf '%-22s %s s\n' "$(basename "$f" .txt)" "$(tail -n 1 "$tmp/time" | awk '{printf "%.2f", $1 + $2}')"
done
