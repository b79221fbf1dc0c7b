#!/usr/bin/env bash
# Every JSON report validates against the contract's schema
# (schema/report.schema.json, the project's own, versioned by schema_version), and
# carries the values the fixtures were built with.
set -euo pipefail
schema=$TD_SRC/schema/report.schema.json
[ -f "$schema" ] || { echo "schema not found at $schema"; exit 1; }
fx=$TD_FIXTURES/cmd
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$TD_BIN" inspect --format json --symbols "$fx/libgolden.so" "$fx/golden.dll" \
    "$fx/libgolden.dylib" "$fx/golden_fat.dylib" \
    "$fx/golden-1.0-cp311-cp311-linux_x86_64.whl" >"$tmp/ok.json"
printf 'not a binary' >"$tmp/text.bin"
head -c 100 "$fx/libgolden.so" >"$tmp/trunc.so"
set +e
"$TD_BIN" inspect --format json "$tmp/text.bin" "$tmp/trunc.so" /nonexistent >"$tmp/bad.json" 2>/dev/null
rc=$?
set -e
[ $rc -eq 2 ] || { echo "unreadable input must exit 2, got $rc"; exit 1; }

/usr/bin/python3 - "$schema" "$tmp/ok.json" "$tmp/bad.json" <<'P'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
# The contract's $id is relative; without it, "#/$defs/..." resolves in place.
schema.pop("$id", None)
validator = jsonschema.Draft202012Validator(schema)
ok = json.load(open(sys.argv[2]))
bad = json.load(open(sys.argv[3]))
for doc in (ok, bad):
    validator.validate(doc)
f = {x["path"].rsplit("/", 1)[-1]: x for x in ok["files"]}
elf, pe, mo, fat, whl = (f["libgolden.so"], f["golden.dll"], f["libgolden.dylib"],
                         f["golden_fat.dylib"], f["golden-1.0-cp311-cp311-linux_x86_64.whl"])
assert ok["findings"] == [], ok["findings"]
assert elf["name"] == "libgolden.so.1" and elf["rpath"] == ["$ORIGIN/lib", "/opt/golden"], elf
assert [d["name"] for d in elf["dependencies"]] == ["libgoldendep.so", "libc.so.6"], elf
vs = {(s["name"], s.get("version")) for s in elf["symbol_list"] if s["defined"]}
assert ("golden_v1", "GOLDEN_1.0") in vs and ("golden_v2", "GOLDEN_2.0") in vs, vs
assert pe["arch"] == "x64" and pe["pe"]["version_info"]["file_version"] == "1.2.3.4", pe
assert pe["pe"]["version_info"]["strings"]["CompanyName"] == "torchdoctor tests"
exports = {s["name"]: s for s in pe["symbol_list"] if s["defined"]}
assert exports["golden_named"]["ordinal"] == 1, exports
assert exports["(by ordinal only)"]["ordinal"] == 2, exports
assert mo["arch"] == "arm64" and mo["name"] == "@rpath/libgolden.dylib", mo
assert mo["rpath"] == ["@loader_path/../lib"] and mo["macho"]["min_os"] == "11.0.0", mo
assert fat["format"] == "macho-universal" and [s["arch"] for s in fat["slices"]] == ["x86_64", "arm64"]
assert whl["wheel"]["name"] == "golden" and whl["wheel"]["platform_tag"] == "linux_x86_64"
native = {n["path"].rsplit("!", 1)[1]: n for n in whl["native"]}
assert native["golden/libgolden.so"]["name"] == "libgolden.so.1"
assert native["golden/golden.dll"]["format"] == "pe"
kinds = sorted((x["kind"], x["library"].rsplit("/", 1)[-1]) for x in bad["findings"])
assert kinds == [("not_a_library", "text.bin"), ("unreadable_file", "nonexistent"),
                 ("unreadable_file", "trunc.so")], kinds
assert all(x["severity"] == "error" for x in bad["findings"])
print("schema: 2 reports valid;", len(ok["files"]), "files checked field by field")
P
