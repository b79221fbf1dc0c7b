#!/usr/bin/env bash
# PATH directories that are one directory (/bin -> usr/bin, as Debian 12
# merges /usr) are listed once, and directories that only look alike are
# not taken for one: each interpreter is reported once, every one found.
# The ground truth: the interpreters a shell finds on that PATH, with
# their real paths (readlink -f), listed here with find.
set -uo pipefail
. "$TD_SRC/tests/check.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
r=$t/root
mkdir -p "$r/usr/bin" "$r/usr/lib/python3.11" "$r/opt/a/bin" "$r/opt/b/bin" "$r/opt/b/lib/python3.12"
ln -s usr/bin "$r/bin"
cp /bin/true "$r/usr/bin/python3.11"
ln -s python3.11 "$r/usr/bin/python3"
cp /bin/true "$r/opt/b/bin/python3.12"          # a second directory with a python
cp -a "$r/opt/b/bin/python3.12" "$r/opt/a/bin/" # same name and size, another file
mkdir -p "$r/opt/a/lib/python3.12"
path=/bin:/usr/bin:/opt/a/bin:/opt/b/bin
truth=$(for d in ${path//:/ }; do find "$r$d/" -maxdepth 1 -name 'python3*' -exec readlink -f {} \; ; done |
    sed "s|^$r||" | sort -u | tr '\n' ' ')
PATH=$path:$PATH "$TD_BIN" check --root "$r" --no-gpu --format json >"$t/out.json"
got=$(casekit_py -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(p["real"] for p in d["pythons"])) + " ")' "$t/out.json")
check "the interpreters on PATH, each once ($got; a shell finds $truth)" test "$got" = "$truth"
n=$(casekit_py -c '
import json, sys
print(len(json.load(open(sys.argv[1]))["pythons"]))' "$t/out.json")
check "three interpreters, not four ($n)" test "$n" = 3
exit $fail
