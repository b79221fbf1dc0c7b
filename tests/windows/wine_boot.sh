# Sourced by every test that starts a Wine prefix (not a test itself):
# wine_boot starts $WINEPREFIX with `wineboot -i`. Wine's own start-up has
# failed now and then in a fresh clone's suite, beside other Wine tests
# starting their prefixes (session 14: sh_wine ended in 0.6 s with no
# output; session 22: sh_env_shadow_windows in 3.2 s, its `set -e` ending
# it silently); each passed when run again. So wine_boot says so with
# Wine's words instead of ending silently, gives the prefix one more start,
# and fails with a message (exit 1) only when both fail.
wine_boot() {
    local boot
    if ! boot=$(WINEDEBUG=-all wine wineboot -i 2>&1); then
        printf 'note: wineboot -i failed, once more: %s\n' "$(printf '%s' "$boot" | tail -3)"
        wineserver -k >/dev/null 2>&1 || true
        WINEDEBUG=-all wine wineboot -i >/dev/null 2>&1 || {
            echo "FAIL: Wine could not start a prefix (wineboot -i failed twice)"
            exit 1
        }
    fi
}

# Under `set -e` a failing command ends the test with no word; name it, so a
# failure that does not repeat still says where it happened.
if [[ $- == *e* ]]; then
    trap 'echo "FAIL: ${BASH_SOURCE[0]}:$LINENO: \"$BASH_COMMAND\" ended with status $?" >&2' ERR
fi
