#!/usr/bin/env bash
# How check finds the interpreter (trial 2), with the shell as the oracle:
# `--python python3` is the interpreter `python3` runs (its sys.executable), and
# a venv named by VIRTUAL_ENV that holds only bin/python3 is found.
set -euo pipefail
command -v python3 >/dev/null || { echo "skipped: no python3 on PATH"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { if [ "$1" = "$2" ]; then echo "ok: $3"; else echo "FAIL: $3: got '$1', want '$2'"; fail=1; fi; }
first_python() { # FIELD: that field of the first interpreter check reports
    /usr/bin/python3 -c 'import json, sys; print(json.load(sys.stdin)["pythons"][0][sys.argv[1]])' "$1"
}

rc=0
out=$("$TD_BIN" check --python python3 --no-gpu --format json) || rc=$?
want=$(python3 -c 'import os, sys; print(os.path.realpath(sys.executable))')
[ "$rc" != 2 ] && ok "$(echo "$out" | first_python real)" "$want" "--python python3 is PATH's" ||
    { echo "FAIL: --python python3 refused (exit $rc)"; fail=1; }
rc=0
"$TD_BIN" check --python no-such-python-td --no-gpu >/dev/null 2>"$tmp/err" || rc=$?
ok "$rc" 2 "a name on no PATH directory: exit 2"
grep -q "not on PATH" "$tmp/err" && echo "ok: says it is not on PATH" || { echo "FAIL: $(cat "$tmp/err")"; fail=1; }

# A venv with bin/python3 only (no bin/python), active through VIRTUAL_ENV.
real=$(command -v python3)
mkdir -p "$tmp/venv/bin"
ln -s "$real" "$tmp/venv/bin/python3"
printf 'home = %s\ninclude-system-site-packages = false\n' "$(dirname "$real")" >"$tmp/venv/pyvenv.cfg"
out=$(VIRTUAL_ENV=$tmp/venv "$TD_BIN" check --no-gpu --format json) || true
ok "$(echo "$out" | first_python found_by)" VIRTUAL_ENV "a python3-only venv is found by VIRTUAL_ENV"
ok "$(echo "$out" | first_python exe)" "$tmp/venv/bin/python3" "its interpreter is bin/python3"
exit $fail
