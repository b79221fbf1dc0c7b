#!/usr/bin/env bash
# `torchdoctor deps` on the Windows fixture root (tests/fixtures/windows_loader.sh):
# every "exe" case of cases.tsv gives exactly the outcome its windows column
# names (the same cases run under Wine in windows_wine.test.sh).
set -euo pipefail
fx=$TD_FIXTURES/windows_loader
exec /usr/bin/python3 - "$fx" <<'P'
import json, os, subprocess, sys
fx = sys.argv[1]
root = os.path.join(fx, "root")
bad = ran = 0
for line in open(os.path.join(fx, "cases.tsv")).read().splitlines()[1:]:
    case, run, windows, _wine = line.split("\t")
    kind, *rest = run.split()
    if kind != "exe":
        continue
    ran += 1
    exe = os.path.join(root, rest[0])
    p = subprocess.run([os.environ["TD_BIN"], "deps", "--root", root, "--format", "json", exe],
                       capture_output=True, text=True)
    doc = json.loads(p.stdout)
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    base = lambda s: (s or "").replace("\\", "/").rsplit("/", 1)[-1].lower()
    want = windows.split(":")
    if want[0] == "ok":
        ok = not errors and p.returncode == 0
    elif want[0] == "missing":
        ok = any(f["kind"] == "missing_library" and base(f["library"]) == want[1]
                 and base(f["needed_by"]) == want[2] for f in errors)
    elif want[0] == "badformat":
        ok = any(f["kind"] in ("wrong_architecture", "not_a_library") and base(f["library"]) == want[1]
                 for f in errors)
    elif want[0] == "noentry":
        dll, sym = want[1].split("!")
        ok = any(f["kind"] == "missing_symbol" and base(f["library"]) == dll and f["symbol"] == sym
                 for f in errors)
    elif want[0] == "noordinal":
        dll, ordinal = want[1].split("#")
        ok = any(f["kind"] == "missing_ordinal" and base(f["library"]) == dll and
                 f["symbol"] == "#" + ordinal for f in errors)
    elif want[0] == "badfwd":
        dll, sym = want[1].split("!")
        ok = any(f["kind"] == "bad_forwarder" and base(f["library"]) == dll and f["symbol"] == sym
                 for f in errors)
    else:
        ok = False
    if not ok or (want[0] != "ok" and p.returncode != 1):
        bad += 1
        print(f"{case}: expected {windows}, got rc {p.returncode} {[(f['kind'], f['library'], f['symbol']) for f in errors]}")
# A DLL only on PATH: python-extension does not search PATH (error), torch's
# fallback finds it there (warning); both name the folder.
def run_deps(*args):
    p = subprocess.run([os.environ["TD_BIN"], "deps", "--root", root, "--format", "json", *args],
                       capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout)
for profile, sev, rc_want in (("python-extension", "error", 1), ("torch-import", "warning", 0)):
    ran += 1
    rc, doc = run_deps("--profile", profile, "--env", "PATH=C:\\pathdir",
                       os.path.join(root, "plug", "pplug.dll"))
    f = [x for x in doc["findings"] if x["kind"] == "found_only_via_path"]
    ok = (rc == rc_want and len(f) == 1 and f[0]["severity"] == sev and
          base(f[0]["library"]) == "pdep.dll" and base(f[0]["needed_by"]) == "pplug.dll")
    if not ok:
        bad += 1
        print(f"found_only_via_path/{profile}: rc {rc}, {f}")
print(f"windows deps: {ran} cases, {bad} disagree with Windows")
sys.exit(1 if bad or ran < 10 else 0)
P
