#!/usr/bin/env bash
# A catalogue row's version condition judged by this machine: the same
# WinError 126 on fbgemm.dll, under a --root whose torch/version.py says 2.5.1,
# ranks win126-fbgemm-libomp (torch 2.4.0 only) after the general causes and
# marks it contradicted; with 2.4.0 it ranks first without "If your torch is".
set -euo pipefail
fx=$TD_FIXTURES/explain/win
if [ ! -d "$fx" ]; then echo "skipped: fixtures not built ($fx)"; exit 0; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
msg='OSError: [WinError 126] The specified module could not be found. Error loading "C:\venv\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.'
for v in 2.5.1 2.4.0; do
    cp -rL "$fx" "$tmp/win$v"
    printf "__version__ = '%s+cpu'\ngit_version = 'x'\n" "$v" >"$tmp/win$v/venv/Lib/site-packages/torch/version.py"
    set +e
    "$TD_BIN" explain --format json --root "$tmp/win$v" "$msg" >"$tmp/$v.json"
    set -e
done
/usr/bin/python3 - "$tmp" <<'P'
import json, os, sys
t = sys.argv[1]
bad = 0
def causes(v):
    d = json.load(open(os.path.join(t, v + ".json")))
    return d["explain"]["fields"]["torch_version"], d["findings"][0].get("causes", [])
ver, cs = causes("2.5.1")
ids = [c.get("id") for c in cs]
if ver != "2.5.1+cpu" or "win126-fbgemm-libomp" not in ids:
    print("2.5.1:", ver, ids); bad += 1
else:
    c = cs[ids.index("win126-fbgemm-libomp")]
    if not c["contradicted"] or ids.index("win126-fbgemm-libomp") != len(ids) - 1 or "this machine shows torch 2.5.1" not in c["detail"]:
        print("2.5.1: not ranked last as contradicted:", c); bad += 1
ver, cs = causes("2.4.0")
ids = [c.get("id") for c in cs]
# the graph's own finding is first; the catalogue's row comes right after it
if "win126-fbgemm-libomp" not in ids or ids.index("win126-fbgemm-libomp") != 1 or cs[1]["contradicted"] or "If your torch" in cs[1]["detail"]:
    print("2.4.0:", ids, cs[1:2]); bad += 1
print(f"explain version conditions: {bad} failures")
sys.exit(1 if bad else 0)
P
