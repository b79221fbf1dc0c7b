# Sourced by the Wine tests of tests/windows/ (not a test itself): a
# temporary folder $tmp holding one fresh WINEPREFIX (wineboot -i; Wine's
# start-up is the slow part, so a test makes one and reuses it), both
# removed, with the prefix's wineserver, when the test exits; fail=0 and
# check WHAT COMMAND... (tests/check.sh);
# winpath PATH, a host path as Wine's Z: drive spells it.
tmp=$(mktemp -d)
export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
# Wine's own start-up failed once in a fresh clone's suite (session 14:
# sh_wine ended in 0.6 s with no output, beside two other Wine tests
# starting their prefixes; it passed when run again): say so with Wine's
# words instead of ending silently, and give the prefix one more start
# before failing.
if ! boot=$(wine wineboot -i 2>&1); then
    printf 'note: wineboot -i failed, once more: %s\n' "$(printf '%s' "$boot" | tail -3)"
    wineserver -k >/dev/null 2>&1 || true
    wine wineboot -i >/dev/null 2>&1 || {
        echo "FAIL: Wine could not start a prefix (wineboot -i failed twice)"
        exit 1
    }
fi
. "$(dirname "${BASH_SOURCE[0]}")/../check.sh"
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
