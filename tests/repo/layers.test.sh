#!/usr/bin/env bash
# The house kept true (issue 32, docs/architecture.md "Layers"): no source
# file includes a header of a layer above its own, no folder of src/ holds
# more than 30 .c files of its own, and no two object files of the built
# static libraries depend on each other through a chain (each undefined
# symbol resolved by nm to the object that defines it). The checks first
# prove on planted cases that they catch what they are for.
set -u
cd "${TD_SRC:?}" || exit 1
pass=0 fail=0
check() { # NAME, command...
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then
        pass=$((pass + 1))
        case $out in skipped*) echo "$name: $out" ;; esac
    else
        fail=$((fail + 1))
        echo "FAIL: $name"
        echo "$out"
    fi
}
command -v nm >/dev/null || { echo "skipped: no nm (binutils) to read the objects' symbols"; exit 0; }
check "the checks catch planted faults" python3 tests/repo/layers.py self-test
check "includes point down the layers" python3 tests/repo/layers.py includes .
check "no dependency cycle between object files" python3 tests/repo/layers.py cycles "${TD_BUILD:?}"
echo "$pass passed, $fail failed"
[ $fail = 0 ]
