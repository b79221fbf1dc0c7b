#!/usr/bin/env bash
# Runs one build's ctest suite with a temporary folder of its own, and fails
# when a test leaves anything in it. A test that leaks its folder leaks it
# on every run: one Wine prefix is about 700 MB, and a CI run once stopped on
# a full disk after the suite had been run a few dozen times on one machine.
#   scripts/run-tests.sh BUILD JOBS [CTEST ARGUMENTS...]   (e.g. -R sh_slurm)
# Exit status: ctest's when it failed; 1 when only files were left behind.
set -uo pipefail
build=${1:?usage: run-tests.sh BUILD JOBS}
jobs=${2:?usage: run-tests.sh BUILD JOBS}
shift 2
# Short and under /tmp whatever TMPDIR says: tests put sockets (Slurm,
# munge) below it, and a socket's path has a 108-byte limit.
tmp=$(mktemp -d /tmp/td-tests.XXXXXX) || {
    echo "run-tests: cannot make a temporary folder under /tmp" >&2
    exit 2
}
# Open to every user, as /tmp is: some tests run cases as `nobody`.
chmod 1777 "$tmp"
rc=0
TMPDIR=$tmp ctest --test-dir "$build" -j "$jobs" --output-on-failure "$@" || rc=$?
# Wine keeps its server folder (wine-XXXXXX/server-*/lock) under TMPDIR
# while a wineserver lives and does not remove it: that one is Wine's.
left=$(find "$tmp" -mindepth 1 -maxdepth 1 ! -name 'wine-*' -printf '%f\n' | sort)
if [ -n "$left" ]; then
    echo "run-tests: tests left these behind in their temporary folder ($tmp):" >&2
    while IFS= read -r name; do
        du -sh "$tmp/$name" >&2
    done <<<"$left"
    [ "$rc" -ne 0 ] || rc=1
fi
rm -rf "$tmp"
exit "$rc"
