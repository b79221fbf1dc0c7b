#!/usr/bin/env bash
# snapshot --restore-script on this machine's Debian Python packages (trial
# 2): every Debian-owned distribution is named with the package to
# reinstall, dpkg as the oracle: `dpkg -L PKG` lists that distribution's
# metadata, and a `dpkg -S PATH` the script suggests does name a package.
# No line says "apt-get install --reinstall" with no package.
set -euo pipefail
command -v dpkg >/dev/null && [ -d /usr/lib/python3/dist-packages ] ||
    { echo "skipped: no dpkg or no Debian Python packages here"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$TD_BIN" snapshot --no-gpu --python /usr/bin/python3 -o "$tmp/s.json" \
    --restore-script "$tmp/restore.sh" >/dev/null 2>&1 || true
[ -s "$tmp/restore.sh" ] || { echo "FAIL: no restore script written"; exit 1; }
/usr/bin/python3 - "$tmp/restore.sh" <<'P'
import re, subprocess, sys
lines = [l for l in open(sys.argv[1]) if "a Debian package" in l]
if not lines:
    print("skipped: no Debian-owned distribution in the snapshot")
    sys.exit(0)
fails = 0
def check(cond, what):
    global fails
    print(("ok: " if cond else "FAIL: ") + what)
    fails += not cond
named = 0
for l in lines:
    m = re.search(r"#\s+(\S+) (\S+), a Debian package \((.*)\)$", l.rstrip())
    check(m is not None, f"line shape: {l.strip()}")
    if not m:
        continue
    name, how = m.group(1), m.group(3)
    check(not how.endswith("--reinstall"), f"{name}: a package is named ({how})")
    pkg = re.fullmatch(r"apt-get install --reinstall (\S+)", how)
    if pkg:
        named += 1
        files = subprocess.run(["dpkg", "-L", pkg.group(1)], capture_output=True, text=True).stdout
        norm = re.sub(r"[-_.]+", "_", name).lower()
        meta = [f for f in files.split("\n") if re.search(r"\.(dist|egg)-info$", f) and
                re.sub(r"[-_.]+", "_", f.rsplit("/", 1)[-1]).lower().startswith(norm + "_")]
        check(bool(meta), f"{name}: dpkg -L {pkg.group(1)} lists its metadata {meta[:1]}")
    else:
        path = re.search(r"`dpkg -S (\S+)`", how)
        out = subprocess.run(["dpkg", "-S", path.group(1)], capture_output=True, text=True) \
            if path else None
        check(out is not None and out.returncode == 0 and ":" in out.stdout,
              f"{name}: dpkg -S names its package ({how[:80]})")
check(named > 0, f"{named} of {len(lines)} named with their package")
sys.exit(1 if fails else 0)
P
