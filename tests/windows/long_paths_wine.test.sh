#!/usr/bin/env bash
# Long paths under Wine: tests/fixtures/windows_unicode.sh's Python311 put
# under C:\users\deep\ so that its deepest file's path is over 300
# characters. With HKLM\...\FileSystem LongPathsEnabled written as 0 into
# the prefix's registry (wine reg add), check reports path_too_long (an
# error naming that file, with the reg add / New-ItemProperty fix and the
# shorter-folder alternative) and still names the missing
# vcruntime140_1.dll, which it can only do by reading those long paths
# (\\?\ form; Wine does not enforce MAX_PATH, so this shows the registry is
# read and long paths work, not Windows' limit); with 1, no path_too_long.
# deps on the deep fbgemm.dll names the missing DLL too. (An unknown value,
# under --root, is long_paths_root.test.sh's and tests/probe/
# test_probe_long_paths.c's.) One WINEPREFIX (wine_prefix.sh).
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_unicode
. "$(dirname "$0")/wine_prefix.sh"
deep=deep
for i in 1 2 3 4 5 6 7 8; do deep="$deep/a_rather_long_folder_name_number_$i"; done
mkdir -p "$WINEPREFIX/drive_c/users/$deep"
cp -r "$fx/user/Python311" "$WINEPREFIX/drive_c/users/$deep/"
rm -f "$WINEPREFIX/drive_c/windows/system32/vcruntime140_1.dll"
py="C:\\users\\$(printf '%s' "$deep" | tr / '\\')\\Python311\\python.exe"
key='HKLM\SYSTEM\CurrentControlSet\Control\FileSystem'
verdict() { # FILE WANT(error|none|warning)
    casekit_py - "$1" "$2" <<'P'
import json, sys
from casekit import kinds, validate
d = json.load(open(sys.argv[1], encoding="utf-8"))
want = sys.argv[2]
validate(d)
long = kinds(d, "path_too_long")
miss = [f for f in d["findings"] if f["kind"] == "missing_library" and
        f["library"] == "vcruntime140_1.dll"]
deepest = max((len(f["library"]) for f in long), default=0)
if want == "none":
    ok = not long
else:
    ok = (len(long) == 1 and long[0]["severity"] == want and deepest > 300 and
          "reg add \"HKLM\\SYSTEM\\CurrentControlSet\\Control\\FileSystem\" /v LongPathsEnabled "
          "/t REG_DWORD /d 1 /f" in long[0]["fix"] and "New-ItemProperty" in long[0]["fix"] and
          "shorter" in long[0]["fix"])
ok = ok and len(miss) == 1
if not ok:
    print("findings:", [(f["severity"], f["kind"], f["library"]) for f in d["findings"]])
sys.exit(not ok)
P
}
for value in 0 1; do
    wine reg add "$key" /v LongPathsEnabled /t REG_DWORD /d $value /f >/dev/null 2>&1
    rc=0
    wine "$exe" check --no-gpu --format json --python "$py" >"$tmp/check$value.json" || rc=$?
    want=$([ $value == 0 ] && echo error || echo none)
    check "LongPathsEnabled $value: check exit status $rc" [ $rc == 1 ]
    check "LongPathsEnabled $value: path_too_long $want, vcruntime140_1.dll missing" \
        verdict "$tmp/check$value.json" $want
    check "LongPathsEnabled $value: reported as read" \
        grep -q "\"long_paths_enabled\": $([ $value == 1 ] && echo true || echo false)" \
        "$tmp/check$value.json"
done

# deps on the DLL at the deep path.
rc=0
wine "$exe" deps --format json "${py%python.exe}Lib\\site-packages\\torch\\lib\\fbgemm.dll" \
    >"$tmp/deps.json" || rc=$?
check "deps on a path over 300 characters: exit status $rc, vcruntime140_1.dll missing" \
    grep -q '"library": "vcruntime140_1.dll"' "$tmp/deps.json"
exit $fail
