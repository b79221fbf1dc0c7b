#!/usr/bin/env bash
# Ground truth for the Windows loader model: every case of
# $TD_FIXTURES/windows_loader/cases.tsv runs under Wine 8 (one fresh
# WINEPREFIX for the whole run) and its outcome must be the "wine" column
# ("same": the "windows" column, which test_loader_windows checks the model
# against). Outcomes are read from Wine's loader messages:
#   err:module:import_dll Library X (which is needed by Y) not found -> missing:X:Y
#   err:module:import_dll Loading library X (...) failed (error c000007b / c000012f) -> badformat:X
#   a stack overflow -> crash; exit status 0 -> ok.
# Where Wine and Windows differ is docs/wine-vs-windows.md.
set -uo pipefail
fx=${TD_FIXTURES:?}/windows_loader
if ! command -v wine >/dev/null; then
    echo "wine is not installed: 'make test' installs it (scripts/install-deps.sh test)"
    exit 1
fi
R=$fx/root
WINEPREFIX=$(mktemp -d)
export WINEPREFIX WINEDEBUG=+loaddll,+module
trap 'wineserver -k >/dev/null 2>&1; rm -rf "$WINEPREFIX"' EXIT
. "$(dirname "$0")/../windows/wine_boot.sh"
wine_boot

winpath() { printf 'Z:%s' "$R/$1" | tr / '\\'; }
lower() { tr '[:upper:]' '[:lower:]'; }

outcome() { # LOG RC
    local log=$1 rc=$2 line
    line=$(grep -a -m1 -E 'err:module:import_dll (Library .* not found|Loading library .* failed)' "$log")
    if [[ $line =~ Library\ ([^ ]+)\ \(which\ is\ needed\ by\ L\"(.*)\"\)\ not\ found ]]; then
        local by=${BASH_REMATCH[2]##*\\}
        echo "missing:$(lower <<<"${BASH_REMATCH[1]}"):$(lower <<<"$by")"
    elif [[ $line =~ Loading\ library\ ([^ ]+)\ .*failed\ \(error\ (c000007b|c000012f)\) ]]; then
        echo "badformat:$(lower <<<"${BASH_REMATCH[1]}")"
    elif grep -aq "stack overflow" "$log"; then
        echo crash
    elif [[ $rc == 0 ]]; then
        echo ok
    else
        echo "failed(rc=$rc)"
    fi
}

fail=0
log=$(mktemp)
cd "$R/app"
while IFS=$'\t' read -r name run windows wine_expect; do
    [[ $name == case ]] && continue
    [[ $wine_expect == same ]] && wine_expect=$windows
    read -ra words <<<"$run"
    args=()
    if [[ ${words[0]} == exe ]]; then
        args=("$(winpath "${words[1]}")")
    else
        args=("$(winpath app/loader.exe)")
        for ((i = 1; i < ${#words[@]}; i += 2)); do
            op=${words[i]} val=${words[i + 1]}
            [[ $op == -f ]] || val=$(winpath "$val")
            args+=("$op" "$val")
        done
    fi
    timeout 60 wine "${args[@]}" >"$log" 2>&1
    rc=$?
    got=$(outcome "$log" $rc)
    if [[ $got == "$wine_expect" ]]; then
        echo "ok   $name: $got"
    else
        echo "FAIL $name: wine gave $got, expected $wine_expect"
        grep -aE "err:module|warn:module:load_dll|^error|^loaded" "$log" | head -10
        fail=1
    fi
done <"$fx/cases.tsv"
rm -f "$log"
exit $fail
