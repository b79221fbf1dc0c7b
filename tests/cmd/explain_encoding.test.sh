#!/usr/bin/env bash
# explain - on text saved in a Windows code page (base/text.c): a Chinese
# WinError 126 saved as GBK, a Japanese WinError 127 as Shift-JIS (the
# catalogue's Japanese row), a Russian WinError 126 as CP1251 match their
# localised catalogue rows and say which encoding was read
# ("input_encoding": cp936, cp932, cp1251); so do UTF-16 with a BOM, plain
# UTF-8, and a French line in CP1252. Every JSON validates against the
# report schema. With TD_EXE set (tests/windows/explain_encoding_wine.test.sh)
# the cases named in TD_CASES run through that command instead.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'P'
import sys
tmp = sys.argv[1]
cases = [
    ("zh", "gbk", 'OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\\Users\\用户\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'),
    ("ja", "cp932", 'OSError: [WinError 127] 指定されたプロシージャが見つかりません。 Error loading "C:\\Python310\\lib\\site-packages\\torch\\lib\\cublas64_11.dll" or one of its dependencies.\n'),
    ("ru", "cp1251", 'OSError: [WinError 126] Не найден указанный модуль. Error loading "C:\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'),
    ("utf16", "utf-16", 'OSError: [WinError 126] 找不到指定的模块。 Error loading "C:\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'),
    ("utf8", "utf-8", 'OSError: [WinError 126] Не найден указанный модуль. Error loading "C:\\Python312\\Lib\\site-packages\\torch\\lib\\fbgemm.dll" or one of its dependencies.\n'),
    ("fr", "cp1252", 'OSError: [WinError 126] Le module spécifié est introuvable. Error loading "C:\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll"\n'),
]
for name, codec, text in cases:
    open(f"{tmp}/{name}.txt", "wb").write(text.encode(codec))
P
run() { # NAME: explain's JSON for the saved text
    if [ -n "${TD_EXE:-}" ]; then
        $TD_EXE explain --format json - <"$tmp/$1.txt" | tr -d '\r'
    else
        "${TD_BIN:?}" explain --format json - <"$tmp/$1.txt"
    fi
}
fail=0
for c in zh:cp936:win126-fbgemm-zh ja:cp932:win127-cublas-ja ru:cp1251:win126-fbgemm-ru \
    utf16:utf-16le:win126-fbgemm-zh utf8:utf-8:win126-fbgemm-ru fr:cp1252:-; do
    IFS=: read -r name enc id <<<"$c"
    [ -z "${TD_CASES:-}" ] || [[ " $TD_CASES " == *" $name "* ]] || continue
    run "$name" >"$tmp/$name.json" || true
    /usr/bin/python3 - "$tmp/$name.json" "$enc" "$id" "${TD_SRC:?}/schema/report.schema.json" \
        <<'P' || fail=1
import json, sys
import jsonschema
path, enc, want, schema_path = sys.argv[1:5]
d = json.load(open(path, encoding="utf-8"))
schema = json.load(open(schema_path))
schema.pop("$id", None)
jsonschema.validate(d, schema)
x = d["explain"]
ok = x["input_encoding"] == enc and (want == "-" or x["id"] == want)
print(("ok: " if ok else "FAIL: ") + f"{path.rsplit('/', 1)[1]}: read as {x['input_encoding']}"
      f" (want {enc}), row {x['id']} (want {want})")
sys.exit(not ok)
P
done
exit $fail
