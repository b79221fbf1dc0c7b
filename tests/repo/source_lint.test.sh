#!/usr/bin/env bash
# The repository must be self-contained: nothing its build, tests, scripts
# or benchmarks read may lie outside it (a user's clone has no sibling
# folders). Fails on any path that climbs out of the source tree:
# $TD_SRC/.., ${PROJECT_SOURCE_DIR}/.., os.path.join(SRC, "..", ...), or
# the steering folder beside the clone. System material (/usr/local/cuda,
# Debian's torch) is fine.
set -u
cd "${TD_SRC:?}" || exit 1
files=$(git ls-files -- tests scripts bench cmake fuzz CMakeLists.txt Makefile .ci 2>/dev/null ||
    find tests scripts bench cmake fuzz CMakeLists.txt Makefile .ci -type f)
[ -n "$files" ] || { echo "no files to lint"; exit 1; }
# Patterns that leave the tree. The sibling folder's name is assembled so
# that this file does not itself contain the paths it looks for.
sib=sha
sib=${sib}red
patterns=(
    '(TD_SRC|SRC|PROJECT_SOURCE_DIR|CMAKE_SOURCE_DIR|CMAKE_CURRENT_SOURCE_DIR)[}:?]*/\.\.(/|$|["'"'"' ])'
    '(TD_SRC|SRC)["'"'"' \])]*, *["'"'"']\.\.["'"'"']'
    "\\.\\./$sib"
    "/$sib/contract"
)
fail=0
for p in "${patterns[@]}"; do
    hits=$(printf '%s\n' "$files" | grep -v '^tests/repo/source_lint.test.sh$' |
        xargs grep -nE -- "$p" 2>/dev/null)
    if [ -n "$hits" ]; then
        echo "FAIL: a path out of the repository ($p):"
        echo "$hits"
        fail=1
    fi
done
# The lint itself must catch what it is for: a planted line is found.
probe=$(mktemp)
printf 'schema=$TD_SRC/../%s/contract/report.schema.json\n' "$sib" >"$probe"
for p in "${patterns[@]}"; do grep -qE -- "$p" "$probe" && planted=1; done
rm -f "$probe"
[ "${planted:-0}" = 1 ] || { echo "FAIL: the lint does not catch a planted path out of the tree"; fail=1; }
# A shell test with pipefail must not end a pipe in `grep -q`: grep stops at
# the match, the writer still writing dies of SIGPIPE, and pipefail makes
# that a failure whenever the writer is slower than grep (a race on a busy
# machine: issue 31). `grep PATTERN >/dev/null` reads the whole input.
for f in $(grep -rlE 'set -[a-z]*o pipefail|set -o pipefail' tests --include='*.sh'); do
    races=$(grep -nE '\| *grep -[a-zA-Z]*q' "$f" | grep -v 'bash -c')
    [ -n "$races" ] && { echo "FAIL: $f: a pipe into grep -q under pipefail:"; echo "$races"; fail=1; }
done
# A script that removes its temporary folder in an EXIT trap (its own, or
# one a sourced helper such as tests/windows/wine_prefix.sh sets) must not
# end by `exec`: the new program replaces the shell and the trap never runs,
# which left a 700 MB Wine prefix behind on every run of the suite.
# (`exec` with redirections only, e.g. `exec 3>file`, keeps the shell.)
for f in $(grep -rlE 'trap .* EXIT|wine_prefix\.sh|faultkit\.sh' tests bench --include='*.sh'); do
    drops=$(grep -nE '^[[:space:]]*exec[[:space:]]+[^[:space:]0-9<>&]' "$f")
    [ -n "$drops" ] && { echo "FAIL: $f: exec after an EXIT trap (the trap never runs):"; echo "$drops"; fail=1; }
done
[ $fail = 0 ] && echo "1 passed, 0 failed" || echo "0 passed, 1 failed"
exit $fail
