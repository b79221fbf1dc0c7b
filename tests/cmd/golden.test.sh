#!/usr/bin/env bash
# Golden-output tests of the text report: wording and layout regressions show
# up as diffs. Paths under the fixture folder are written as FIXTURES/.
# TD_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing.
set -uo pipefail
fx=$TD_FIXTURES/cmd
golden=$TD_SRC/tests/cmd/golden
status=0

compare() { # name, the output
    local name=$1 got=$2
    if [ "${TD_UPDATE_GOLDEN:-}" = 1 ]; then
        printf '%s\n' "$got" >"$golden/$name.txt"
        return
    fi
    if ! diff -u "$golden/$name.txt" <(printf '%s\n' "$got"); then
        echo "golden $name: output differs (above)"
        status=1
    else
        echo "golden $name: ok"
    fi
}

check() { # name, then the command and its arguments
    local name=$1
    shift
    compare "$name" "$(cd "$TD_FIXTURES" && "$TD_BIN" "$@" 2>&1 | sed "s|$TD_FIXTURES/|FIXTURES/|g")"
}

check elf inspect --color never "$fx/libgolden.so"
check elf_symbols inspect --color never --symbols "$fx/libgolden.so"
# JSON symbol rows are written by inspect itself, not through the view: the
# lines of "symbol_list", byte for byte.
compare elf_symbol_rows "$("$TD_BIN" inspect --format json --symbols "$fx/libgolden.so" |
    sed -n '/"symbol_list": \[/,/^ *\]/p')"
check pe inspect --color never "$fx/golden.dll"
check pe_symbols inspect --color never --symbols "$fx/golden.dll"
check macho inspect --color never "$fx/libgolden.dylib"
check macho_fat inspect --color never --symbols "$fx/golden_fat.dylib"
check wheel inspect --color never "$fx/golden-1.0-cp311-cp311-linux_x86_64.whl"
# deps: a missing library with every place tried, then the same resolved
# through LD_LIBRARY_PATH, as text, markdown and dot (relative paths).
unset LD_LIBRARY_PATH
check deps_missing deps --color never cmd/libgolden.so
check deps_markdown deps --format markdown cmd/libgolden.so
check deps_dot deps --format dot cmd/libgolden.so
check deps_found deps --color never --env LD_LIBRARY_PATH=cmd cmd/libgolden.so
exit $status
