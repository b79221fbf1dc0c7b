#!/usr/bin/env bash
# The three ways deps reads a library must agree on Debian's real torch _C
# closure (288 libraries): headers read in pieces with pread (--no-symbols,
# as check does), the same plus the symbol tables read in pieces by the
# binder (the default), and the whole file parsed from one mapping
# (inspect, which opens every file whole): same libraries, same paths,
# sonames and needers. The binder's count of distinct references (name and
# version of every undefined, non-weak dynamic symbol of the closure) must
# be the one binutils' nm gives for the same files.
set -euo pipefail
exec /usr/bin/python3 - <<'PY'
import glob, json, os, subprocess, sys
td = os.environ["TD_BIN"]
c = glob.glob("/usr/lib/python3/dist-packages/torch/_C.cpython-*.so")
if not c:
    print("python3-torch is not installed: skipped")
    sys.exit(0)

def deps(*args):
    p = subprocess.run([td, "deps", "--format", "json", *args, c[0]], capture_output=True,
                       text=True)
    assert p.returncode in (0, 1), p.stderr
    return json.loads(p.stdout)

def view(doc):
    return [(l["name"], l["path"], l.get("soname"), l["status"], l.get("found_via"),
             tuple(l.get("needed_by") or [])) for l in doc["libraries"]]

full, bare = deps(), deps("--no-symbols")
failures = []
if view(full) != view(bare):
    failures.append("--no-symbols and symbol binding see different closures")
if len(full["libraries"]) < 200:
    failures.append(f"only {len(full['libraries'])} libraries")
paths = [l["path"] for l in full["libraries"] if l["path"]]
nm = subprocess.run(["nm", "-D", "--undefined-only", *paths], capture_output=True, text=True,
                    check=True).stdout
# "U name@VERSION" for undefined, non-weak ("w"/"v" are weak).
want = {line.split()[1] for line in nm.splitlines() if line.split()[:1] == ["U"]}
if full["symbols"]["distinct_references"] != len(want):
    failures.append(f"{full['symbols']['distinct_references']} distinct references, "
                    f"nm -D lists {len(want)}")
errors = [f for f in full["findings"] if f["severity"] == "error"]
if errors:
    failures.append(f"{len(errors)} error findings: {errors[:2]}")
# inspect parses each file whole: its soname and needs must be the ones
# deps read in pieces.
libs = [l for l in bare["libraries"] if l["path"] and l["status"] != "root"][:60]
p = subprocess.run([td, "inspect", "--format", "json", *[l["path"] for l in libs]],
                   capture_output=True, text=True)
assert p.returncode in (0, 1), p.stderr
files = json.loads(p.stdout)["files"]
for l, f in zip(libs, files):
    if f.get("name") != l.get("soname"):
        failures.append(f"{l['path']}: soname {l.get('soname')} in pieces, {f.get('name')} whole")
for f in failures:
    print("FAIL:", f)
print(f"{len(full['libraries'])} libraries read three ways, {len(libs)} compared with inspect")
sys.exit(1 if failures else 0)
PY
