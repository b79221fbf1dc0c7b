# Shared by tests/faults/*.test.sh: run one command against a hostile input
# and hold it to the contract (DESIGN.md): the exit status asked for, a
# message that says what was wrong, no hang (10 s, killed after: a failure),
# no crash (a signal: a failure), and nothing written but -o: every case
# runs in an empty working folder with HOME and TMPDIR empty folders too,
# and those must still be empty afterwards.
set -uo pipefail
: "${TD_BIN:?}" "${TD_FIXTURES:?}" "${TD_SRC:?}"
fails=0
cases=0
work=$(mktemp -d)
chmod 755 "$work"
trap 'chmod -R u+rwx "$work" 2>/dev/null; rm -rf "$work"' EXIT
mkdir -p "$work/cwd" "$work/home" "$work/tmp"
chmod 777 "$work/cwd" "$work/home" "$work/tmp"

fail() {
    echo "FAIL: $*"
    fails=$((fails + 1))
}

# expect NAME STATUSES PATTERN [--as-nobody] -- COMMAND...
#   STATUSES: the exit statuses accepted ("2", "0|1"); PATTERN: an ERE that
#   stdout or stderr must match ("" for none). Output is in $work/out, $work/err.
expect() {
    local name=$1 want=$2 pattern=$3
    shift 3
    local as=()
    if [ "${1:-}" = --as-nobody ]; then
        as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
        shift
    fi
    [ "$1" = -- ] && shift
    cases=$((cases + 1))
    (cd "$work/cwd" && HOME=$work/home TMPDIR=$work/tmp timeout -s KILL 10 "${as[@]}" "$@") \
        >"$work/out" 2>"$work/err" </dev/null
    local rc=$?
    check_run "$name" "$rc" "$want" "$pattern"
}

# check_run NAME RC STATUSES PATTERN: the checks of expect, for a command
# the caller ran itself (with a ulimit, without stdout, ...).
check_run() {
    local name=$1 rc=$2 want=$3 pattern=$4
    if [ "$rc" -eq 137 ] || [ "$rc" -eq 124 ]; then
        fail "$name: no answer within 10 s (killed)"
    elif [ "$rc" -ge 128 ]; then
        fail "$name: crashed (exit $rc, signal $((rc - 128)))"
        tail -5 "$work/err"
    elif ! [[ "$rc" =~ ^($want)$ ]]; then
        fail "$name: exit status $rc, want $want"
        tail -5 "$work/err"
    elif [ -n "$pattern" ] && ! grep -Eq -- "$pattern" "$work/out" "$work/err"; then
        fail "$name: no message matching /$pattern/"
        tail -5 "$work/err"
    else
        echo "ok: $name (exit $rc)"
    fi
    local left
    left=$(find "$work/cwd" "$work/home" "$work/tmp" -mindepth 1 -print -quit 2>/dev/null)
    if [ -n "$left" ]; then
        fail "$name: wrote $left"
        find "$work/cwd" "$work/home" "$work/tmp" -mindepth 1 -delete 2>/dev/null
    fi
}

# A copy of the clean pip torch layout (tests/fixtures/torch_layouts.sh) to
# break: sets $root, and $site, its site-packages.
pip_root() {
    root=$work/root-$1
    cp -a "$TD_FIXTURES/torch_layouts/pip" "$root"
    site=$root/usr/local/lib/python3.11/dist-packages
}

finish() {
    echo "$cases cases, $fails failed"
    [ "$fails" -eq 0 ]
}
