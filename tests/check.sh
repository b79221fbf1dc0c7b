# Sourced by shell tests (not a test itself): fail=0 and
# check WHAT COMMAND... (prints "ok: WHAT" or "FAIL: WHAT" and sets fail=1);
# the test ends with `exit $fail`.
fail=0
check() { # WHAT, then a command that must succeed
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
# casekit_py ARGS...: /usr/bin/python3 with tests/casekit.py importable
# (for a test's here-document checks; PYTHONPATH for that process only).
casekit_py() { PYTHONPATH=${TD_SRC:?}/tests /usr/bin/python3 "$@"; }
