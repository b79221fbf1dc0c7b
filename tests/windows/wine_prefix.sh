# Sourced by the Wine tests of tests/windows/ (not a test itself): a
# temporary folder $tmp holding one fresh WINEPREFIX (wineboot -i; Wine's
# start-up is the slow part, so a test makes one and reuses it), both
# removed, with the prefix's wineserver, when the test exits; fail=0 and
# check WHAT COMMAND... (prints "ok: WHAT" or "FAIL: WHAT" and sets fail=1);
# winpath PATH, a host path as Wine's Z: drive spells it.
tmp=$(mktemp -d)
export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
wine wineboot -i >/dev/null 2>&1
fail=0
check() { # WHAT, then a command that must succeed
    local what=$1
    shift
    if "$@"; then echo "ok: $what"; else echo "FAIL: $what"; fail=1; fi
}
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
