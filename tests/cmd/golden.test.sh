#!/usr/bin/env bash
# Golden-output tests of the text report: wording and layout regressions show
# up as diffs. Paths under the fixture folder are written as FIXTURES/.
# TD_UPDATE_GOLDEN=1 rewrites the expected files instead of comparing.
set -uo pipefail
fx=$TD_FIXTURES/cmd
golden=$TD_SRC/tests/cmd/golden
status=0

check() { # name, then the inspect arguments
    local name=$1
    shift
    local got
    got=$("$TD_BIN" inspect --color never "$@" 2>&1 | sed "s|$TD_FIXTURES/|FIXTURES/|g")
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

check elf "$fx/libgolden.so"
check elf_symbols --symbols "$fx/libgolden.so"
check pe "$fx/golden.dll"
check pe_symbols --symbols "$fx/golden.dll"
check macho "$fx/libgolden.dylib"
check macho_fat --symbols "$fx/golden_fat.dylib"
check wheel "$fx/golden-1.0-cp311-cp311-linux_x86_64.whl"
exit $status
