#!/usr/bin/env bash
# Empty files against their manifest digest: an empty file is checked
# without reading it (the digest of no bytes), so a file truncated to zero
# bytes is caught by the default check even with its install-time mtime,
# and an intact empty __init__.py is not reported. Debian's md5sums (MD5)
# and a wheel's RECORD (SHA-256, where the size alone already tells). The
# ground truth: `md5sum -c` and hashlib over the same files.
set -uo pipefail
. "$TD_SRC/tests/check.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT

# A Debian python3-torch under a root: torch/__init__.py and
# torch/nn/__init__.py empty as shipped, torch/functional.py emptied after.
r=$t/deb
site=$r/usr/lib/python3/dist-packages
info=$r/var/lib/dpkg/info
mkdir -p "$r/usr/bin" "$r/usr/lib/python3.11" "$site/torch/nn" "$info"
cp /bin/true "$r/usr/bin/python3.11"
ln -s python3.11 "$r/usr/bin/python3"
printf "__version__ = '1.13.0a0'\ncuda = None\n" >"$site/torch/version.py"
printf 'def norm(x):\n    return x\n' >"$site/torch/functional.py"
: >"$site/torch/__init__.py"
: >"$site/torch/nn/__init__.py"
files="usr/lib/python3/dist-packages/torch/__init__.py usr/lib/python3/dist-packages/torch/nn/__init__.py usr/lib/python3/dist-packages/torch/version.py usr/lib/python3/dist-packages/torch/functional.py"
{ printf "/.\n/usr/lib/python3/dist-packages/torch\n/usr/lib/python3/dist-packages/torch/nn\n"; for f in $files; do echo "/$f"; done; } >"$info/python3-torch.list"
(cd "$r" && md5sum $files) >"$info/python3-torch.md5sums"
touch -d '2023-03-14 17:21:37' "$info/python3-torch.md5sums" "$site"/torch/*.py "$site"/torch/nn/*.py

run() { "$TD_BIN" check --root "$r" --python /usr/bin/python3 --no-gpu --format json >"$t/out.json" || true; }
corrupted() { casekit_py -c '
import json, sys
d = json.load(open(sys.argv[1]))
print(" ".join(sorted(f["library"] for f in d["findings"] if f["kind"] == "corrupted_file")))' "$t/out.json"; }
run
check "the install is read as Debian's" grep -q '"installer": "debian"' "$t/out.json"
check "intact empty files are not reported" test -z "$(corrupted)"
# functional.py keeps its name and mtime but loses its bytes, as a full disk leaves it.
: >"$site/torch/functional.py"
touch -d '2023-03-14 17:21:37' "$site/torch/functional.py"
truth=$(cd "$r" && md5sum -c --quiet "$info/python3-torch.md5sums" 2>/dev/null | sed -n 's/: FAILED$//p')
check "md5sum -c says functional.py alone differs" test "$truth" = usr/lib/python3/dist-packages/torch/functional.py
run
got=$(corrupted)
check "the emptied file is reported by default ($got)" test "$got" = /usr/lib/python3/dist-packages/torch/functional.py
check "its detail says it is empty" grep -q 'empty, md5sums lists content' "$t/out.json"
exit $fail
