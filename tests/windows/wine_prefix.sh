# Sourced by the Wine tests of tests/windows/ (not a test itself): a
# temporary folder $tmp holding one fresh WINEPREFIX (wineboot -i; Wine's
# start-up is the slow part, so a test makes one and reuses it), both
# removed, with the prefix's wineserver, when the test exits; fail=0 and
# check WHAT COMMAND... (tests/check.sh);
# winpath PATH, a host path as Wine's Z: drive spells it.
tmp=$(mktemp -d)
export WINEPREFIX=$tmp/prefix WINEDEBUG=-all
trap 'wineserver -k >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
. "$(dirname "${BASH_SOURCE[0]}")/wine_boot.sh"
wine_boot
. "$(dirname "${BASH_SOURCE[0]}")/../check.sh"
winpath() { printf 'Z:%s' "$1" | tr / '\\'; }
