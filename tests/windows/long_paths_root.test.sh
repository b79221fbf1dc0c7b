#!/usr/bin/env bash
# Long paths under --root, from Linux: tests/fixtures/windows_unicode.sh's
# fake C:\ (Windows\System32) with its Python311 under
# Users\deep\<eight long folders>\, so that the deepest file's path, C:\
# counted, is over 300 characters. The Linux build reads no registry, so
# `check --root` must report LongPathsEnabled as unknown (JSON
# windows.long_paths_enabled null) and path_too_long as a warning naming
# that file, with the reg add / New-ItemProperty fix and the shorter-folder
# alternative. Controls: the same Python311 under a short folder gives no
# path_too_long; a --root without Windows\System32 is no Windows tree (no
# windows section). The value read from a registry (0, 1) is
# long_paths_wine.test.sh's, under Wine.
set -euo pipefail
fx=${TD_FIXTURES:?}/windows_unicode
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../check.sh"
deep=Users/deep
for i in 1 2 3 4 5 6 7 8; do deep="$deep/a_rather_long_folder_name_number_$i"; done
tree() { # ROOT FOLDER [system32]
    mkdir -p "$1/$2"
    cp -r "$fx/user/Python311" "$1/$2/"
    if [ "${3:-}" ]; then mkdir -p "$1/Windows" && cp -r "$fx/System32" "$1/Windows/"; fi
}
tree "$tmp/deep" "$deep" system32
tree "$tmp/short" Users/u system32
tree "$tmp/nowin" "$deep"
verdict() { # FILE WANT(warning|none|no-windows)
    casekit_py - "$1" "$2" <<'P'
import json, sys
from casekit import kinds, validate
d = json.load(open(sys.argv[1], encoding="utf-8"))
want = sys.argv[2]
validate(d)
long = kinds(d, "path_too_long")
torch = [t["dir"] for t in d["torch"]]
if want == "no-windows":
    ok = "windows" not in d and not long
elif want == "none":
    ok = d["windows"]["long_paths_enabled"] is None and not long
else:
    f = long[0] if len(long) == 1 else {}
    ok = (d["windows"]["long_paths_enabled"] is None and len(long) == 1 and
          f["severity"] == "warning" and len(f["library"]) > 300 and
          f["library"].startswith("C:\\Users\\deep\\a_rather_long_folder_name_number_1\\") and
          f["library"].endswith("\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll") and
          "LongPathsEnabled was not read (--root" in f["detail"] and
          "reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\" /v LongPathsEnabled "
          "/t REG_DWORD /d 1 /f" in f["fix"] and "New-ItemProperty" in f["fix"] and
          "shorter" in f["fix"])
ok = ok and len(torch) == 1  # the torch was found, so its paths were walked
if not ok:
    print("windows:", d.get("windows"), "torch:", torch)
    print("findings:", [(f["severity"], f["kind"], f["library"]) for f in d["findings"]])
sys.exit(not ok)
P
}
for case in deep:"$deep":warning short:Users/u:none nowin:"$deep":no-windows; do
    IFS=: read -r name folder want <<<"$case"
    rc=0
    "$TD_BIN" check --no-gpu --format json --root "$tmp/$name" \
        --python "/$folder/Python311/python.exe" >"$tmp/$name.json" || rc=$?
    check "$name: check --root exit status $rc" [ $rc == 0 ]
    check "$name: $want" verdict "$tmp/$name.json" "$want"
done
exit $fail
