#!/usr/bin/env bash
# fix.bat on non-ASCII paths, run by Wine's cmd. tests/fixtures/
# windows_unicode.sh's Python311 under C:\users\用户张三 (Wine in zh_CN,
# OEM code page 936) and C:\users\Пользователь (ru_RU, OEM 866), its
# python.exe replaced by tests/fixtures/windows_argv.sh's stand-in (it
# writes the command line and argv it got, as UTF-8) and its torch's RECORD
# saying c10.dll has 7 bytes: torchdoctor.exe check -o C:\fix.bat, in that
# locale, writes a corrupted_file fix, "C:\users\NAME\Python311\python.exe"
# -m pip install --force-reinstall --no-deps torch==2.4.0+cpu, as a command
# in the OEM code page behind "chcp CP"; Wine's cmd runs the script and the
# stand-in must get exactly those arguments. Wine 8's cmd decodes every
# line of a batch file in GetOEMCP() and ignores chcp (facts:
# docs/windows-check.md, "Non-ASCII paths"), so the UTF-8 form written where
# the characters have no OEM form (Wine in en_US, OEM 437) is checked for
# its bytes, and run only where this Wine's cmd honours chcp (else
# skipped). fix.ps1 is not run: PowerShell is not in Debian (skipped).
# One WINEPREFIX; two or three wine invocations per case.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_unicode
stand_in=$TD_FIXTURES/windows_argv/python.exe
. "$(dirname "$0")/wine_prefix.sh"
locales=$(locale -a 2>/dev/null || true) # not piped into grep -q, which would cut it off (pipefail)
have_locale() { grep -qix "${1/UTF-8/utf8}" <<<"$locales"; }

# A user NAME's Python311 with the stand-in and a torch whose RECORD is wrong.
install() { # NAME
    local py=$WINEPREFIX/drive_c/users/$1/Python311
    mkdir -p "$py/.."
    cp -r "$fx/user/Python311" "$py/.."
    cp "$stand_in" "$py/python.exe"
    local di=$py/Lib/site-packages/torch-2.4.0+cpu.dist-info
    mkdir -p "$di"
    printf 'Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0+cpu\n' >"$di/METADATA"
    echo pip >"$di/INSTALLER"
    printf '%s\n' torch/__init__.py,, torch/version.py,, torch/lib/fbgemm.dll,, \
        torch/lib/c10.dll,,7 torch-2.4.0+cpu.dist-info/RECORD,, >"$di/RECORD"
}

# fix.bat's bytes, decoded in ENC: an ASCII header, then "chcp CP" before
# any other byte, the command, and the code page put back at the end.
script_ok() { # FILE ENC CP NAME
    /usr/bin/python3 - "$@" <<'P'
import sys
path, enc, cp, name = sys.argv[1:]
raw = open(path, "rb").read()
first = next(i for i, b in enumerate(raw) if b >= 0x80)
chcp = raw.find(b"\nchcp %s >nul\r\n" % cp.encode())
text = raw.decode(enc).replace("\r\n", "\n")
cmd = ('\n%%TD_RUN%% "C:\\users\\%s\\Python311\\python.exe" -m pip install '
       '--force-reinstall --no-deps torch==2.4.0+cpu\n' % name)
ok = (raw.startswith(b"@echo off\r\n") and 0 < chcp < first and cmd in text and
      text.endswith(":td_end\nif defined TD_CP chcp %TD_CP% >nul\nexit /b %TD_RC%\n"))
if not ok:
    print(text)
sys.exit(not ok)
P
}

# What the stand-in recorded: the command line cmd built, then argv.
argv_ok() { # FILE NAME
    local py="C:\\users\\$2\\Python311\\python.exe"
    local want
    want=$(printf '%s\n' "\"$py\" -m pip install --force-reinstall --no-deps torch==2.4.0+cpu" \
        "$py" -m pip install --force-reinstall --no-deps torch==2.4.0+cpu)
    [ -f "$1" ] && [ "$(cat "$1")" == "$want" ] && return 0
    echo "expected: $want"
    echo "got:      $(cat "$1" 2>/dev/null || echo '(the stand-in did not run)')"
    return 1
}

n=0
for case in 用户张三:zh_CN.UTF-8:gbk:936 Пользователь:ru_RU.UTF-8:cp866:866 \
    用户张三:en_US.UTF-8:utf-8:65001; do
    IFS=: read -r name loc enc cp <<<"$case"
    n=$((n + 1))
    if ! have_locale "$loc"; then
        echo "skipped: $loc is not installed (Debian's locales-all)"
        continue
    fi
    [ -d "$WINEPREFIX/drive_c/users/$name/Python311" ] || install "$name"
    py="C:\\users\\$name\\Python311\\python.exe"
    rc=0
    LC_ALL=$loc wine "$exe" check --no-gpu --python "$py" -o "C:\\fix$n.bat" \
        >/dev/null 2>&1 || rc=$?
    bat=$WINEPREFIX/drive_c/fix$n.bat
    check "$name, $loc: check exit status $rc" [ $rc == 1 ]
    check "$name, $loc: fix$n.bat in code page $cp behind chcp $cp" \
        script_ok "$bat" "$enc" "$cp" "$name"
    rc=0
    LC_ALL=$loc TD_ARGV_LOG="C:\\argv$n.txt" wine cmd /c "C:\\fix$n.bat" \
        >"$tmp/cmd$n.out" 2>&1 || rc=$?
    log=$WINEPREFIX/drive_c/argv$n.txt
    if [ $cp == 65001 ] && [ ! -f "$log" ]; then
        echo "skipped: running the UTF-8 fix$n.bat (this Wine's cmd ignores chcp 65001)"
        continue
    fi
    check "$name, $loc: Wine's cmd ran fix$n.bat (exit status $rc)" [ $rc == 0 ]
    check "$name, $loc: the stand-in python.exe got the exact arguments" argv_ok "$log" "$name"
    [ $rc == 0 ] || cat "$tmp/cmd$n.out"
done
echo "skipped: fix.ps1 is not run (no PowerShell in Debian)"
exit $fail
