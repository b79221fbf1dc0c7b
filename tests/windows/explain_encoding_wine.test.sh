#!/usr/bin/env bash
# explain - in torchdoctor.exe under Wine on text saved in the console's
# code page: the cases of tests/cmd/explain_encoding.test.sh, each run in
# the Wine locale whose ANSI code page is that text's (zh_CN: 936, ja_JP:
# 932, ru_RU: 1251; C: 1252, and UTF-8/UTF-16 whatever the locale), so the
# exe converts from the code page Windows gives it (GetConsoleCP, GetACP
# without a console) and matches the localised catalogue rows.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
. "$(dirname "$0")/wine_prefix.sh"
fail=0
here=$(dirname "$0")
for c in zh:zh_CN.UTF-8 ja:ja_JP.UTF-8 ru:ru_RU.UTF-8 'utf16 utf8 fr:C'; do
    TD_CASES=${c%%:*} TD_EXE="env LANG=${c#*:} LC_ALL=${c#*:} wine $exe" \
        bash "$here/../cmd/explain_encoding.test.sh" || fail=1
done
exit $fail
