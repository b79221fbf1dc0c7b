#!/usr/bin/env bash
# No fix anywhere in the program says "install the package that ships X"
# (issue #13): a missing library's fix names the wheel, package, runtime or
# driver (docs/deps.md). The code and the data tables are the only places a
# fix's words come from, so the phrase must not be in either.
set -u
cd "${TD_SRC:?}" || exit 1
hits=$(grep -rniI "package that ships" src data)
if [ -n "$hits" ]; then
    echo "FAIL: a fix that sends the user to find the package:"
    echo "$hits"
    echo "0 passed, 1 failed"
    exit 1
fi
echo "1 passed, 0 failed"
