#!/usr/bin/env bash
# The option table of every command (src/cmd/args.c), end to end: each value
# issue 12 found accepted is refused with exit 2 and a message naming the
# option and what it accepts; --profile auto equals no --profile; check
# colours a terminal (a pty from script(1)) and nothing else.
set -u # no pipefail: a report with an error finding exits 1 into grep
td=$TD_BIN
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

# refuses "MESSAGE" ARGS...: exit 2 and MESSAGE (a fixed string) on stderr.
refuses() {
    local want=$1
    shift
    local err rc
    err=$("$td" "$@" 2>&1 >/dev/null)
    rc=$?
    [ "$rc" -eq 2 ] || fail "'$*' exited $rc, not 2"
    grep -qF -- "$want" <<<"$err" || fail "'$*': wanted '$want', got '$err'"
}

refuses "torchdoctor check: --color must be one of auto, always, never (got 'bogus')" \
    check --color bogus
refuses "torchdoctor deps: --color must be one of auto, always, never (got 'bogus')" \
    deps --color bogus /bin/sh
refuses "torchdoctor check: --timeout must be a whole number from 1 to 3600000 (got 'abc')" \
    check --timeout abc
refuses "torchdoctor check: --timeout must be a whole number" check --timeout 50x
refuses "torchdoctor check: --live-timeout must be a number from 0.1 to 86400 (got '-3')" \
    check --live-timeout -3
refuses "torchdoctor deps: --cpu-level must be a whole number from 1 to 4 (got '9')" \
    deps --cpu-level 9 /bin/sh
refuses "torchdoctor deps: --profile must be one of auto, exe, dlopen, python-extension, torch-import (got 'bogus')" \
    deps --profile bogus /bin/sh
refuses "torchdoctor deps: --platform must be one of auto, linux, windows, macos (got 'solaris')" \
    deps --platform solaris /bin/sh
refuses "torchdoctor check: --python must be an existing file (got '/nonexistent')" \
    check --python /nonexistent
refuses "torchdoctor check: --root must be an existing directory (got '/nonexistent')" \
    check --root /nonexistent
refuses "torchdoctor deps: --root must be an existing directory (got '/nonexistent')" \
    deps --root /nonexistent /bin/sh
refuses "torchdoctor explain: --root must be an existing directory" explain --root /nonexistent x
refuses "torchdoctor check: --format must be one of text, json, jsonl, markdown, html (got 'x')" \
    check --format x
refuses "torchdoctor deps: --format must be one of text, json, markdown, html, dot (got 'svg')" \
    deps --format=svg /bin/sh
refuses "torchdoctor inspect: --format must be one of text, json (got 'markdown')" \
    inspect --format markdown /bin/sh
refuses "torchdoctor trace: --format must be one of text, json, markdown (got 'dot')" \
    trace --format dot -- true
refuses "torchdoctor compat: --os must be one of linux, windows (got 'macos')" compat --os macos
refuses "torchdoctor compat: --cuda must be X.Y, cuXYZ or cpu (got 'twelve')" compat --cuda twelve
refuses "torchdoctor check: --workload must be one of list, flux-lora" check --workload nope
refuses "torchdoctor deps: --env must be NAME=VALUE (got 'PATH')" deps --env PATH /bin/sh
refuses "torchdoctor check: --format needs a value" check --format
refuses "torchdoctor check: unknown option '--bogus'" check --bogus
refuses "torchdoctor check: unknown option '-x'" check -x
refuses "torchdoctor check: --no-gpu takes no value" check --no-gpu=yes
refuses "torchdoctor check: unexpected argument 'stray'" check stray
refuses "torchdoctor compat: unexpected argument 'stray'" compat stray
refuses "torchdoctor deps: missing FILE..." deps
refuses "torchdoctor inspect: missing FILE..." inspect
refuses "torchdoctor trace: missing [--] COMMAND" trace --quiet

# --help goes to stdout with exit 0 and names every option of the table.
out=$("$td" deps --help) || fail "deps --help exited $?"
for o in --platform --profile --search-dir --root --env --python --cpu-level --no-symbols \
    --format --color --help; do
    grep -qF -- "$o" <<<"$out" || fail "deps --help lacks $o"
done
# An option after "--" is an operand; trace's options end at its command.
"$td" inspect --format json -- /bin/sh >/dev/null || fail "inspect -- FILE exited $?"

# --profile auto is the default, not a profile of its own (issue 12).
torch_c=$(ls /usr/lib/python3/dist-packages/torch/_C.cpython-*.so 2>/dev/null | head -1)
if [ -n "$torch_c" ]; then
    plain=$("$td" deps --no-symbols --format json "$torch_c")
    auto=$("$td" deps --profile auto --no-symbols --format json "$torch_c")
    [ "$plain" = "$auto" ] || fail "deps --profile auto differs from no --profile on $torch_c"
    "$td" deps --profile auto --no-symbols "$torch_c" | grep "profile torch-import" >/dev/null ||
        fail "deps --profile auto on torch's _C did not pick torch-import"
else
    echo "skipped: --profile auto on torch's _C (Debian's python3-torch is not installed)"
fi

# Colour: check renders into memory, but decides from the real stdout.
esc=$'\033['
check_args=(check --python /usr/bin/python3 --no-gpu)
if ! command -v script >/dev/null; then
    echo "skipped: colour on a terminal (script from util-linux is not installed)"
elif [ ! -x /usr/bin/python3 ]; then
    echo "skipped: colour on a terminal (no /usr/bin/python3 to check)"
else
    on_tty() { script -qec "$*" /dev/null; }
    q="$td ${check_args[*]}"
    on_tty "$q" | grep -F "$esc" >/dev/null || fail "check on a terminal is not coloured"
    on_tty "$q --color never" | grep -F "$esc" >/dev/null && fail "check --color never on a terminal is coloured"
    on_tty "NO_COLOR=1 $q" | grep -F "$esc" >/dev/null && fail "check with NO_COLOR on a terminal is coloured"
    on_tty "NO_COLOR=1 $q --color always" | grep -F "$esc" >/dev/null ||
        fail "check --color always with NO_COLOR is not coloured"
    tmp=$(mktemp -d)
    on_tty "$q -o $tmp/report.txt" >/dev/null
    grep -qF "$esc" "$tmp/report.txt" && fail "check -o FILE from a terminal wrote colour"
    rm -rf "$tmp"
    on_tty "$td deps /bin/sh" | grep -F "$esc" >/dev/null || fail "deps on a terminal is not coloured"
    "$td" "${check_args[@]}" | grep -F "$esc" >/dev/null && fail "check into a pipe is coloured"
    "$td" "${check_args[@]}" --color always | grep -F "$esc" >/dev/null ||
        fail "check --color always into a pipe is not coloured"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"
