# Sourced by shell tests (not a test itself): fail=0 and
# check WHAT COMMAND... (prints "ok: WHAT" or "FAIL: WHAT" and sets fail=1);
# the test ends with `exit $fail`.
fail=0
check() { # WHAT, then a command that must succeed
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
