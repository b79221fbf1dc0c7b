#!/usr/bin/env bash
# explain and deps agree: for the same broken fixture (tests/fixtures/explain.sh)
# the first finding of `explain` on the message the load prints has the kind,
# library and needed_by of deps' first error finding on the file, and ranks that
# cause first with the deps command that confirms it.
set -euo pipefail
fx=$TD_FIXTURES/explain
if [ ! -d "$fx/win" ] || [ ! -d "$fx/linux" ]; then
    echo "skipped: fixtures not built ($fx)"; exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { set +e; "$@" >"$tmp/out" 2>"$tmp/err"; echo $? >"$tmp/rc"; set -e; }

# Windows: fbgemm.dll imports the absent libomp140.x86_64.dll
run "$TD_BIN" deps --format json --root "$fx/win" "$fx/win/venv/Lib/site-packages/torch/lib/fbgemm.dll"
cp "$tmp/out" "$tmp/win_deps.json"
run "$TD_BIN" explain --format json --root "$fx/win" \
    'OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\venv\Lib\site-packages\torch\lib\fbgemm.dll" or one of its dependencies.'
cp "$tmp/out" "$tmp/win_explain.json"

# Linux: libfoo.so needs the absent libbar.so.1
run "$TD_BIN" deps --format json "$fx/linux/pkg/libfoo.so"
cp "$tmp/out" "$tmp/linux_deps.json"
run "$TD_BIN" explain --format json "ImportError: libbar.so.1: cannot open shared object file: No such file or directory (needed by $fx/linux/pkg/libfoo.so)
  File \"$fx/linux/pkg/__init__.py\", line 1"
cp "$tmp/out" "$tmp/linux_explain.json"

# undefined symbol: libuse.so takes the older libsym.so.1
run "$TD_BIN" deps --format json "$fx/sym/app/libuse.so"
cp "$tmp/out" "$tmp/sym_deps.json"
run "$TD_BIN" explain --format json "ImportError: $fx/sym/app/libuse.so: undefined symbol: sym_new"
cp "$tmp/out" "$tmp/sym_explain.json"

/usr/bin/python3 - "$tmp" <<'P'
import json, os, sys
t = sys.argv[1]
bad = 0
def first_error(d):
    return next((f for f in d["findings"] if f["severity"] == "error"), None)
def base(p):
    return None if p is None else p.replace("\\", "/").rsplit("/", 1)[-1]
for case in ("win", "linux", "sym"):
    deps = json.load(open(os.path.join(t, case + "_deps.json")))
    ex = json.load(open(os.path.join(t, case + "_explain.json")))
    a, b = first_error(deps), (ex["findings"] or [None])[0]
    if not a or not b:
        print(f"{case}: no finding (deps {a}, explain {b})"); bad += 1; continue
    for k in ("kind", "library", "needed_by"):
        if base(a.get(k)) != base(b.get(k)):
            print(f"{case}: {k}: deps {a.get(k)!r} explain {b.get(k)!r}"); bad += 1
    cs = b.get("causes", [])
    if not cs or not cs[0]["confirm"].startswith("torchdoctor deps") or cs[0]["kind"] != a["kind"]:
        print(f"{case}: first cause {cs[:1]}"); bad += 1
print(f"explain/deps: {bad} disagreements")
sys.exit(1 if bad else 0)
P
