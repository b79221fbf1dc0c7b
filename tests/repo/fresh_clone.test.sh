#!/usr/bin/env bash
# A clone of the repository alone, in an empty folder with no siblings,
# builds and passes the tests that read the report schema: nothing they
# read lies outside the repository. The clone is of the committed tree
# (HEAD); fixtures are build outputs and are taken from this build.
# The tests run here by name, not through ctest, so this test does not
# run itself again.
set -u
src=${TD_SRC:?}
# The clone builds its own plain binary, so the sanitizer pass would repeat
# the plain pass's run exactly.
[ "${TD_SANITIZE:-OFF}" = ON ] && { echo "skipped: the clone's build is the same in the sanitizer pass"; exit 0; }
git -C "$src" rev-parse HEAD >/dev/null 2>&1 || { echo "skipped: $src is not a git checkout"; exit 0; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
clone=$tmp/torchdoctor
git clone -q --no-hardlinks "$src" "$clone" || { echo "FAIL: git clone"; exit 1; }
[ -z "$(ls -A "$tmp" | grep -vx torchdoctor)" ] || { echo "FAIL: the clone has siblings"; exit 1; }
[ -f "$clone/schema/report.schema.json" ] || { echo "FAIL: no schema/report.schema.json in the clone"; exit 1; }
cmake -S "$clone" -B "$clone/build" -G Ninja -DTD_TESTS=OFF >"$tmp/cmake.log" 2>&1 &&
    cmake --build "$clone/build" >"$tmp/build.log" 2>&1 ||
    { echo "FAIL: the clone does not build"; tail -20 "$tmp/cmake.log" "$tmp/build.log"; exit 1; }
bin=$clone/build/torchdoctor
"$bin" --version >/dev/null || { echo "FAIL: the clone's binary does not run"; exit 1; }
pass=0 failn=0
# The schema readers that need nothing but the build and its fixtures.
for t in tests/cmd/schema.test.sh tests/cmd/explain.test.sh tests/cmd/compat.test.sh \
    tests/cmd/check.test.sh tests/graph/deps_cases.test.sh tests/trace/trace.test.sh; do
    if (cd "$clone" && TD_SRC=$clone TD_BIN=$bin bash "$t") >"$tmp/out" 2>&1; then
        pass=$((pass + 1))
    else
        failn=$((failn + 1))
        echo "FAIL: $t in the fresh clone:"
        tail -20 "$tmp/out"
    fi
done
echo "$pass passed, $failn failed"
[ $failn = 0 ]
