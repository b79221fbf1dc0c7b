#!/usr/bin/env bash
# torchdoctor explain --each FILE...: many saved messages in one run, each
# answered as if it were given alone. The answers come in the order given and
# each is the whole document `explain --format json FILE` prints for the file
# alone -- also after a text whose named file is on this machine
# (tests/fixtures/explain.sh: its dependency graph must not carry over to the
# next text); the status is the worst of the texts'; --format text puts each
# answer after `==> FILE <==`; --format jsonl alone is the json document on
# one line. A file that cannot be read, is blank or is a binary, no file,
# and a format other than text and jsonl are refused with status 2 and
# nothing on standard output. Every document validates against the schema.
set -euo pipefail
fx=$TD_FIXTURES/explain
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'Traceback (most recent call last):\n  File "%s/linux/pkg/__init__.py", line 1, in <module>\n    lib = ctypes.CDLL("libfoo.so")\nImportError: libbar.so.1: cannot open shared object file: No such file or directory\n' "$fx" >"$tmp/1-local.txt"
printf 'ImportError: DLL load failed while importing _C: Die angegebene Prozedur wurde nicht gefunden.\n' >"$tmp/2-de.txt"
printf 'ImportError: libcudnn.so.9: cannot open shared object file: No such file or directory\n' >"$tmp/3-linux.txt"
printf 'nothing went wrong today\n' >"$tmp/4-none.txt"
printf ' \n\t\n' >"$tmp/blank.txt"

status() { set +e; "$@" >"$tmp/out" 2>"$tmp/err"; echo $?; set -e; }
for f in 1-local 2-de 3-linux 4-none; do
    rc=$(status "$TD_BIN" explain --format json "$tmp/$f.txt")
    cp "$tmp/out" "$tmp/$f.json"; echo "$rc" >"$tmp/$f.rc"
done
rc=$(status "$TD_BIN" explain --each --format jsonl "$tmp/1-local.txt" "$tmp/2-de.txt" "$tmp/3-linux.txt" "$tmp/4-none.txt")
cp "$tmp/out" "$tmp/each.jsonl"; echo "$rc" >"$tmp/each.rc"
rc=$(status "$TD_BIN" explain --each --format jsonl "$tmp/4-none.txt" "$tmp/4-none.txt")
cp "$tmp/out" "$tmp/none2.jsonl"; echo "$rc" >"$tmp/none2.rc"
rc=$(status "$TD_BIN" explain --each --format text --color never "$tmp/2-de.txt" "$tmp/4-none.txt")
cp "$tmp/out" "$tmp/each.txt"; echo "$rc" >"$tmp/eachtext.rc"
rc=$(status "$TD_BIN" explain --format jsonl "$tmp/3-linux.txt")
cp "$tmp/out" "$tmp/one.jsonl"; echo "$rc" >"$tmp/one.rc"
: >"$tmp/refused"
for args in "--format json $tmp/2-de.txt" "--format html $tmp/2-de.txt" "--format markdown $tmp/2-de.txt" \
    "$tmp/2-de.txt $TD_BIN" "$tmp/2-de.txt $tmp/blank.txt" "$tmp/2-de.txt $tmp/missing.txt" \
    "$tmp/2-de.txt $tmp" ""; do
    # shellcheck disable=SC2086 # the arguments are split on purpose
    rc=$(status "$TD_BIN" explain --each $args)
    printf '%s\t%s\t%s\n' "$rc" "$(wc -c <"$tmp/out")" "$(head -c 200 "$tmp/err" | tr '\n' ' ')" >>"$tmp/refused"
done

/usr/bin/python3 - "$tmp" "$TD_SRC" <<'P'
import json, os, sys
t, src = sys.argv[1], sys.argv[2]
import jsonschema
schema = json.load(open(os.path.join(src, "schema/report.schema.json")))
schema.pop("$id", None)
check_doc = jsonschema.Draft202012Validator(schema)
bad = []
def check(ok, what):
    if not ok:
        bad.append(what); print("FAIL:", what)
def read(name):
    return open(os.path.join(t, name), encoding="utf-8").read()

names = ["1-local", "2-de", "3-linux", "4-none"]
alone = {n: json.loads(read(n + ".json")) for n in names}
rcs = {n: int(read(n + ".rc")) for n in names}
check(rcs == {"1-local": 1, "2-de": 1, "3-linux": 1, "4-none": 0}, f"alone: exits {rcs}")
check(alone["1-local"]["explain"]["on_this_machine"] is not None, "the fixture's file is not analysed")
lines = read("each.jsonl").splitlines()
check(len(lines) == 4, f"--each: {len(lines)} lines for 4 files")
for n, line in zip(names, lines):
    d = json.loads(line)
    check_doc.validate(d)
    check(d == alone[n], f"--each: {n}'s answer is not the one it gets alone")
check(int(read("each.rc")) == 1, f"--each: exit {read('each.rc')}, one text holds an error")
none2 = read("none2.jsonl").splitlines()
check(int(read("none2.rc")) == 0 and [json.loads(l) for l in none2] == [alone["4-none"]] * 2,
      f"--each of two texts with no error: exit {read('none2.rc')}")
text = read("each.txt")
first, second = f"==> {t}/2-de.txt <==\n", f"\n==> {t}/4-none.txt <==\n"
check(text.startswith(first) and second in text and text.index(second) > len(first)
      and "win-dllload-c-procedure" in text[:text.index(second)], "--each --format text: " + text[:300])
check(int(read("eachtext.rc")) == 1, "--each --format text: exit")
one = read("one.jsonl")
check(one.count("\n") == 1 and json.loads(one) == alone["3-linux"] and int(read("one.rc")) == 1,
      "--format jsonl is not the json document on one line")
refused = [l.split("\t") for l in read("refused").splitlines()]
check(len(refused) == 8, f"{len(refused)} refusals run")
for rc, out, err in refused:
    check(rc == "2" and out == "0" and err.startswith("torchdoctor explain: "),
          f"--each refusal: exit {rc}, {out} bytes out, {err!r}")
print(f"explain --each: {len(bad)} failures")
sys.exit(1 if bad else 0)
P
