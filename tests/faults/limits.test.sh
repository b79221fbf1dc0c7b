#!/usr/bin/env bash
# A hostile environment: 32 descriptors, 256 MiB of address space, no
# /proc, stdout closed or full, -o on a full disk. Each is answered with a
# report or a clear error (exit 2), never a crash or a hang, and -o leaves
# either the whole report or the old file, never part of one.
source "$TD_SRC/tests/faults/faultkit.sh"
td=$TD_BIN
pip_root limits
prog=$work/prog
cp /bin/ls "$prog"

# limited NAME STATUSES PATTERN LIMIT -- COMMAND...: COMMAND under `ulimit LIMIT`.
limited() {
    local name=$1 want=$2 pattern=$3 limit=$4
    shift 5
    expect "$name" "$want" "$pattern" -- bash -c "ulimit $limit && exec \"\$@\"" limited "$@"
}
# A sanitizer's shadow memory is terabytes of address space, and it reads
# /proc/self/maps to start: those two cases are the plain build's.
sanitized=false
[ "${TD_SANITIZE:-OFF}" = ON ] && sanitized=true
limits=("-n 32" "-v 262144")
if $sanitized; then
    limits=("-n 32")
    echo "skipped: ulimit -v 262144 under a sanitizer (its shadow memory alone is past the limit)"
fi
for l in "${limits[@]}"; do
    limited "check under ulimit $l" "0|1|2" "" "$l" -- "$td" check --root "$root" --no-gpu --verify --format json
    limited "deps under ulimit $l" "0|1|2" "" "$l" -- "$td" deps --format json "$prog"
    limited "inspect --symbols under ulimit $l" "0|2" "" "$l" -- "$td" inspect --symbols "$prog"
    limited "snapshot under ulimit $l" "0|1|2" "" "$l" -- "$td" snapshot --root "$root" --no-gpu
done
limited "check under ulimit -n 8" "0|1|2" "" "-n 8" -- "$td" check --root "$root" --no-gpu --format json

# No /proc: a private mount namespace with an empty tmpfs over it.
if $sanitized; then
    echo "skipped: /proc not mounted under a sanitizer (it reads /proc/self/maps to start)"
elif unshare -m true 2>/dev/null; then
    for c in "check --no-gpu --format json" "deps --format json $prog" "snapshot --no-gpu"; do
        expect "$c without /proc" "0|1" "" -- unshare -m sh -c "mount -t tmpfs none /proc && exec $td $c"
    done
else
    echo "skipped: /proc not mounted (unshare -m is refused here)"
fi

# stdout closed, stdout full, -o on a full device: exit 2 and a message.
cases=$((cases + 1))
(cd "$work/cwd" && timeout -s KILL 10 "$td" inspect "$prog" >&- 2>"$work/err")
check_run "inspect with stdout closed" $? 2 "cannot write the report to standard output"
cases=$((cases + 1))
(cd "$work/cwd" && timeout -s KILL 10 "$td" check --root "$root" --no-gpu >/dev/full 2>"$work/err")
check_run "check with stdout full" $? 2 "cannot write the report to standard output: No space left on device"
expect "check -o /dev/full" 2 "/dev/full: cannot write: No space left on device" -- \
    "$td" check --root "$root" --no-gpu -o /dev/full
expect "snapshot -o /dev/full" 2 "/dev/full: cannot write: No space left on device" -- \
    "$td" snapshot --root "$root" --no-gpu -o /dev/full

# -o on a disk that fills up (RLIMIT_FSIZE of 1 KiB: writes past it fail
# with EFBIG): the old report stays whole, no temporary file is left.
mkdir "$work/out-dir"
for c in check snapshot; do
    fmt=()
    [ $c = check ] && fmt=(--format json) # the text report may fit in 1 KiB
    echo "the old report" >"$work/out-dir/$c.json"
    expect "$c -o on a full disk" 2 "$c\.json: cannot write: File too large" -- \
        bash -c "trap '' XFSZ; ulimit -f 1 && exec \"\$@\"" full "$td" "$c" --root "$root" --no-gpu \
        "${fmt[@]}" -o "$work/out-dir/$c.json"
    [ "$(cat "$work/out-dir/$c.json")" = "the old report" ] || fail "$c -o on a full disk: the old report was changed"
done
left=$(find "$work/out-dir" -name '*.td-*')
[ -z "$left" ] || fail "a temporary file was left behind: $left"
expect "check -o writes the whole report" "0|1" "" -- "$td" check --root "$root" --no-gpu --format json -o "$work/out-dir/check.json"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$work/out-dir/check.json" || fail "check -o: not the whole report"
finish
