#!/usr/bin/env bash
# torchdoctor.exe needs only what every Windows has: the Linux build's
# `deps --platform windows` on the x64 exe, over a C:\ whose System32 holds
# Wine's DLLs, must resolve everything with no finding at all, and the
# direct imports of the x64 and x86 exes must all be system DLLs or UCRT
# API sets (so libgcc, winpthreads and zlib are linked in, not needed).
set -euo pipefail
fx=${TD_FIXTURES:?}/windows_exe
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../check.sh"
root=$tmp/root
mkdir -p "$root/Windows/System32"
for f in /usr/lib/x86_64-linux-gnu/wine/x86_64-windows/*.dll; do
    ln -s "$f" "$root/Windows/System32/$(basename "$f")"
done
rc=0
"$TD_BIN" deps --platform windows --root "$root" --format json "$fx/win64/torchdoctor.exe" \
    >"$tmp/deps.json" || rc=$?
"$TD_BIN" inspect --format json "$fx/win64/torchdoctor.exe" "$fx/win32/torchdoctor.exe" \
    >"$tmp/inspect.json"
casekit_py - "$tmp/deps.json" "$tmp/inspect.json" "$rc" <<'P'
import json, sys
from casekit import check, failures as bad
deps = json.load(open(sys.argv[1]))
inspect = json.load(open(sys.argv[2]))
rc = int(sys.argv[3])
# Every Windows since 7 has these (the UCRT API sets: Windows 10, or 7+ with KB2999226).
system = {"kernel32.dll", "msvcrt.dll", "advapi32.dll", "user32.dll", "shell32.dll",
          "ole32.dll", "ntdll.dll", "bcrypt.dll", "ws2_32.dll", "version.dll"}
check(rc == 0, f"deps exit status {rc}, want 0")
check(deps["findings"] == [], f"deps findings {deps['findings']}")
status = {l["name"].lower(): l["status"] for l in deps["libraries"]}
check(all(s in ("root", "found") for s in status.values()), f"deps libraries {status}")
for forbidden in ("libwinpthread-1.dll", "zlib1.dll", "libgcc_s_seh-1.dll", "libgcc_s_dw2-1.dll",
                  "libstdc++-6.dll"):
    check(forbidden not in status, f"needs {forbidden}")
files = inspect["files"]
check([f["arch"] for f in files] == ["x64", "x86"], f"inspect arches {[f['arch'] for f in files]}")
for f in files:
    imports = [d["name"].lower() for d in f["dependencies"]]
    check("kernel32.dll" in imports, f"{f['path']}: imports {imports}")
    odd = [n for n in imports if n not in system and not n.startswith("api-ms-win-crt-")]
    check(odd == [], f"{f['path']}: non-system imports {odd}")
print(f"torchdoctor.exe dependencies: {len(bad)} failures")
sys.exit(1 if bad else 0)
P
