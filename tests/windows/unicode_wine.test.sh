#!/usr/bin/env bash
# torchdoctor.exe under Wine on user folders named outside any ANSI code
# page (Chinese, Cyrillic, an emoji: tests/fixtures/windows_unicode.sh's
# Python311 copied into each): deps --root names the missing
# vcruntime140_1.dll and writes valid UTF-8 JSON equal to the Linux build's
# (but "platform" and the Z:\ spelling of paths); check on Wine's own C:\
# (its vcruntime140_1.dll removed from the prefix) names the same missing
# DLL, needed by fbgemm.dll under C:\users\用户张三, in schema-valid UTF-8.
# One WINEPREFIX; four wine invocations.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_unicode
. "$(dirname "$0")/wine_prefix.sh"
# FILE is valid UTF-8 JSON, names vcruntime140_1.dll missing for fbgemm.dll
# under a folder called NAME, and (given OTHER) equals OTHER but for the
# platform and the spelling of paths.
verdict() { # FILE NAME [OTHER]
    /usr/bin/python3 - "$@" "${TD_SRC:?}/schema/report.schema.json" <<'P'
import json, sys
import jsonschema
path, name = sys.argv[1], sys.argv[2]
other = sys.argv[3] if len(sys.argv) > 4 else None
schema = json.load(open(sys.argv[-1]))
schema.pop("$id", None)
def load(p):
    d = json.loads(open(p, "rb").read().decode("utf-8").replace("\r", "")  # strict UTF-8
                   .replace("Z:\\\\", "/").replace("\\\\", "/"))
    d.pop("platform")
    return d
d = load(path)
jsonschema.validate(json.load(open(path, encoding="utf-8")), schema)
miss = [f for f in d["findings"] if f["kind"] == "missing_library" and
        f["library"] == "vcruntime140_1.dll" and f["needed_by"].endswith(
        "/" + name + "/Python311/Lib/site-packages/torch/lib/fbgemm.dll")]
ok = len(miss) == 1
if not ok:
    print("findings:", d["findings"])
if other:
    o = load(other)
    if o != d:
        ok = False
        for x, y in zip(json.dumps(o, indent=1, ensure_ascii=False).splitlines(),
                        json.dumps(d, indent=1, ensure_ascii=False).splitlines()):
            if x != y:
                print("linux:", x, "\nwine: ", y)
                break
sys.exit(not ok)
P
}

# 1. deps --root on a fake C:\ whose user folder has each name.
n=0
for name in 用户张三 Пользователь '😀 user'; do
    n=$((n + 1))
    root=$tmp/root$n
    mkdir -p "$root/Windows" "$root/Users/$name"
    cp -r "$fx/System32" "$root/Windows/"
    cp -r "$fx/user/Python311" "$root/Users/$name/"
    dll=$root/Users/$name/Python311/Lib/site-packages/torch/lib/fbgemm.dll
    rc_linux=0 rc=0
    "$TD_BIN" deps --format json --root "$root" "$dll" >"$tmp/linux$n.json" || rc_linux=$?
    wine "$exe" deps --format json --root "$(winpath "$root")" "$(winpath "$dll")" \
        >"$tmp/wine$n.json" 2>"$tmp/wine$n.err" || rc=$?
    check "deps in '$name': exit status $rc, Linux $rc_linux" [ $rc == 1 -a $rc_linux == 1 ]
    check "deps in '$name': vcruntime140_1.dll missing, UTF-8 JSON equal to Linux's" \
        verdict "$tmp/wine$n.json" "$name" "$tmp/linux$n.json"
    [ -s "$tmp/wine$n.err" ] && cat "$tmp/wine$n.err"
done

# 2. check on Wine's live C:\ (no --root), the interpreter under C:\users\用户张三.
name=用户张三
mkdir -p "$WINEPREFIX/drive_c/users/$name"
cp -r "$fx/user/Python311" "$WINEPREFIX/drive_c/users/$name/"
rm -f "$WINEPREFIX/drive_c/windows/system32/vcruntime140_1.dll"
rc=0
wine "$exe" check --no-gpu --format json --python "C:\\users\\$name\\Python311\\python.exe" \
    >"$tmp/check.json" || rc=$?
check "check in '$name': exit status $rc" [ $rc == 1 ]
check "check in '$name': vcruntime140_1.dll missing, schema-valid UTF-8 JSON" \
    verdict "$tmp/check.json" "$name"
exit $fail
