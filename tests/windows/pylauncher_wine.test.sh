#!/usr/bin/env bash
# PEP 514 discovery under Wine: interpreters registered for the py launcher
# (HKCU\Software\Python\PythonCore\3.11 with InstallPath and ExecutablePath;
# HKLM's 32-bit view, Wow6432Node\...\3.9-32, with only InstallPath,
# SysVersion and Version) over fake installs (python.exe is any small PE),
# found by `torchdoctor.exe check` with neither --python nor PATH: each
# with found_by "py launcher (registry)", the version the registry gives,
# the user site %APPDATA%\Python\Python311\site-packages first in
# site_dirs (it exists for 3.11 only), and the torch under C:\py311. One
# WINEPREFIX; four wine invocations.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_check
. "$(dirname "$0")/wine_prefix.sh"
c=$WINEPREFIX/drive_c
cat >"$c/py.reg" <<'R'
Windows Registry Editor Version 5.00

[HKEY_CURRENT_USER\Software\Python\PythonCore\3.11\InstallPath]
@="C:\\py311\\"
"ExecutablePath"="C:\\py311\\python.exe"

[HKEY_LOCAL_MACHINE\Software\Wow6432Node\Python\PythonCore\3.9-32]
"SysVersion"="3.9"
"Version"="3.9.13"

[HKEY_LOCAL_MACHINE\Software\Wow6432Node\Python\PythonCore\3.9-32\InstallPath]
@="C:\\py39-32"
R
wine reg import 'C:\py.reg' >/dev/null 2>&1
mkdir -p "$c/py311/Lib/site-packages/torch" "$c/py39-32/Lib/site-packages"
cp "$fx/loadlib.exe" "$c/py311/python.exe"
cp "$fx/loadlib.exe" "$c/py39-32/python.exe"
cp "$fx/drive/venv/Lib/site-packages/torch/version.py" "$c/py311/Lib/site-packages/torch/"
appdata=$(wine cmd /c 'echo %APPDATA%' | tr -d '\r')
case $appdata in
[Cc]:\\*) ;;
*) echo "FAIL: APPDATA $appdata"; exit 1 ;;
esac
user=${appdata:3}
mkdir -p "$c/${user//\\//}/Python/Python311/site-packages"

rc=0
wine "$exe" check --no-gpu --format json | tr -d '\r' >"$tmp/check.json" || rc=$?
casekit_py - "$tmp/check.json" "$rc" "C:/${user//\\//}" \
    "${TD_SRC:?}/schema/report.schema.json" <<'P'
import json, sys
import casekit
from casekit import check, check_schema, failures as bad
casekit.show_ok = True
d = json.load(open(sys.argv[1]))
rc, appdata = int(sys.argv[2]), sys.argv[3]
check(rc == 0, f"exit status {rc}")
check_schema(d)
got = [(p["exe"], p["version"], p["found_by"], p["kind"], p["prefix"], p["site_dirs"])
       for p in d["pythons"]]
want = [("C:/py311/python.exe", "3.11", "py launcher (registry)", "other", "C:/py311",
         [appdata + "/Python/Python311/site-packages", "C:/py311", "C:/py311/Lib/site-packages"]),
        ("C:/py39-32/python.exe", "3.9.13", "py launcher (registry)", "other", "C:/py39-32",
         ["C:/py39-32", "C:/py39-32/Lib/site-packages"])]
check(got == want, f"pythons {got}")
t = [(x["version"], x["python"], x["dir"]) for x in d["torch"]]
check(t == [("2.4.0+cpu", "C:/py311/python.exe", "C:/py311/Lib/site-packages/torch")],
      f"torch {t}")
sys.exit(1 if bad else 0)
P
