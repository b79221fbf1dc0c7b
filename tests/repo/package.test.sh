#!/usr/bin/env bash
# The release path from a clone of the repository, through the README's
# make targets: `make install PREFIX DESTDIR` and `make uninstall`, `make
# deb` (lintian-clean, installable into a temporary root), `make wheel`
# (valid to `python3 -m zipfile -t` and to pip, which installs it into a
# fresh venv where `torchdoctor check` and `python -m torchdoctor check`
# run). The clone is of the committed tree (HEAD) and gets a release tag,
# so the version `git describe` gives is checked end to end.
# The same clone, alone in an empty folder with no siblings, also builds and
# passes the tests that read the report schema: nothing they read lies
# outside the repository (docs/schema.md). That was tests/repo/
# fresh_clone.test.sh, which cloned and built the same tree a second time;
# its tests run here by name, not through ctest, so this test does not run
# itself again, and they run before install, deb and wheel write into the
# clone. Fixtures are build outputs and are taken from this build.
set -u
src=${TD_SRC:?}
# The clone builds its own plain binary, so the sanitizer pass would repeat
# the plain pass's run exactly.
[ "${TD_SANITIZE:-OFF}" = ON ] && { echo "skipped: the clone's build is the same in the sanitizer pass"; exit 0; }
git -C "$src" rev-parse HEAD >/dev/null 2>&1 || { echo "skipped: $src is not a git checkout"; exit 0; }
for tool in dpkg-deb lintian /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool missing (scripts/install-deps.sh test installs it)"; exit 1; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0 failn=0
ok() { pass=$((pass + 1)); }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
mkdir "$tmp/alone"
clone=$tmp/alone/torchdoctor
git clone -q --no-hardlinks "$src" "$clone" || { echo "FAIL: git clone"; exit 1; }
[ -z "$(ls -A "$tmp/alone" | grep -vx torchdoctor)" ] || { echo "FAIL: the clone has siblings"; exit 1; }
[ -f "$clone/schema/report.schema.json" ] || { echo "FAIL: no schema/report.schema.json in the clone"; exit 1; }
git -C "$clone" -c user.name=t -c user.email=t@t tag -a v9.8.7 -m "test release" || { echo "FAIL: tag"; exit 1; }
export MAKEFLAGS=
(cd "$clone" && make build BUILD=build JOBS=2) >"$tmp/build.log" 2>&1 ||
    { echo "FAIL: make build in the clone"; tail -20 "$tmp/build.log"; exit 1; }
v=$("$clone/build/torchdoctor" --version)
[ "$v" = "torchdoctor 9.8.7" ] && ok || bad "version from git describe: '$v'"
"$clone/build/torchdoctor" deps --format json "$clone/build/torchdoctor" 2>/dev/null |
    grep -q '"version": *"9.8.7"' && ok || bad "the JSON envelope does not carry version 9.8.7"

# The schema readers that need nothing but the build and its fixtures, in
# the clone alone.
for t in tests/cmd/schema.test.sh tests/cmd/explain.test.sh tests/cmd/compat.test.sh \
    tests/cmd/check.test.sh tests/graph/deps_cases.test.sh tests/trace/trace.test.sh; do
    if (cd "$clone" && TD_SRC=$clone TD_BIN=$clone/build/torchdoctor bash "$t") >"$tmp/out" 2>&1; then
        ok
    else
        bad "$t in the fresh clone:"
        tail -20 "$tmp/out"
    fi
done

# make install / uninstall into DESTDIR.
dest=$tmp/dest
(cd "$clone" && make install BUILD=build PREFIX=/usr/local DESTDIR="$dest") >"$tmp/install.log" 2>&1 ||
    { bad "make install"; tail -20 "$tmp/install.log"; }
inst=$dest/usr/local/bin/torchdoctor
[ -x "$inst" ] && [ "$("$inst" --version)" = "torchdoctor 9.8.7" ] && ok || bad "installed binary missing or wrong version"
[ -f "$dest/usr/local/share/doc/torchdoctor/README.md" ] && ok || bad "docs not installed"
if [ -d "$clone/build/man" ]; then
    [ -n "$(ls "$dest"/usr/local/share/man/man1/torchdoctor*.1 2>/dev/null)" ] && ok || bad "man pages not installed"
fi
if [ -d "$clone/build/completions" ]; then
    for f in bash-completion/completions/torchdoctor zsh/vendor-completions/_torchdoctor \
        fish/vendor_completions.d/torchdoctor.fish; do
        [ -f "$dest/usr/local/share/$f" ] && ok || bad "completion $f not installed"
    done
fi
(cd "$clone" && make uninstall BUILD=build PREFIX=/usr/local DESTDIR="$dest") >"$tmp/uninstall.log" 2>&1 ||
    bad "make uninstall"
left=$(find "$dest" -type f 2>/dev/null)
[ -z "$left" ] && ok || bad "make uninstall left files: $left"

# make deb: lintian-clean, installs into a temporary root, runs from there.
(cd "$clone" && make deb BUILD=build) >"$tmp/deb.log" 2>&1 || { bad "make deb"; tail -20 "$tmp/deb.log"; }
deb=$(ls "$clone"/dist/torchdoctor_9.8.7_*.deb 2>/dev/null | head -1)
if [ -n "$deb" ]; then
    ok
    # lintian (2.116) leaves its MLDBM cache file (mldbm-elf-XXXXXXXX) in
    # TMPDIR: give it this test's folder, removed on exit
    mkdir -p "$tmp/lintian"
    lint=$(TMPDIR=$tmp/lintian lintian --fail-on error,warning "$deb" 2>&1)
    lint_rc=$?
    lint=$(printf '%s\n' "$lint" | grep -v 'running with root privileges')
    [ $lint_rc -eq 0 ] && [ -z "$(printf '%s' "$lint" | grep -E '^[EW]:')" ] && ok || bad "lintian ($lint_rc): $lint"
    root=$tmp/root
    mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
    : >"$root/var/lib/dpkg/status"
    if dpkg --root="$root" --force-script-chrootless --log=/dev/null -i "$deb" >"$tmp/dpkg.log" 2>&1; then
        ok
        [ "$("$root/usr/bin/torchdoctor" --version)" = "torchdoctor 9.8.7" ] && ok || bad "the .deb's binary"
        "$root/usr/bin/torchdoctor" check --no-gpu --format json >/dev/null
        [ $? -le 1 ] && ok || bad "the .deb's torchdoctor check"
        [ -f "$root/usr/share/doc/torchdoctor/copyright" ] && ok || bad "no copyright file"
    else
        bad "dpkg --root -i: $(tail -5 "$tmp/dpkg.log")"
    fi
else
    bad "no dist/torchdoctor_9.8.7_*.deb"
fi

# make wheel: zipfile -t, pip install --no-index into a fresh venv, run.
(cd "$clone" && make wheel BUILD=build WIN64_BUILD=none WIN32_BUILD=none) >"$tmp/wheel.log" 2>&1 ||
    { bad "make wheel"; tail -20 "$tmp/wheel.log"; }
whl=$clone/dist/torchdoctor-9.8.7-py3-none-manylinux_2_17_x86_64.whl
if [ -f "$whl" ]; then
    ok
    /usr/bin/python3 -m zipfile -t "$whl" >/dev/null && ok || bad "zipfile -t"
    "$clone/build/torchdoctor" inspect "$whl" | grep -q 'torchdoctor-9.8.7.data/scripts/torchdoctor' &&
        ok || bad "inspect of the wheel does not list the binary"
    /usr/bin/python3 - "$whl" <<'P' && ok || bad "RECORD does not match the wheel's members"
import base64, hashlib, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
rec = [n for n in z.namelist() if n.endswith(".dist-info/RECORD")][0]
rows = [l.split(",") for l in z.read(rec).decode().splitlines()]
listed = {r[0] for r in rows}
assert listed == set(z.namelist()), (listed ^ set(z.namelist()))
for name, h, size in rows:
    if name == rec:
        assert h == "" and size == ""
        continue
    data = z.read(name)
    assert size == str(len(data)), name
    algo, digest = h.split("=", 1)
    want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    assert algo == "sha256" and digest == want, name
P
    /usr/bin/python3 -m venv "$tmp/venv" >/dev/null 2>&1 || bad "python3 -m venv"
    if "$tmp/venv/bin/pip" install -q --no-index --disable-pip-version-check "$whl" >"$tmp/pip.log" 2>&1; then
        ok
        [ "$("$tmp/venv/bin/torchdoctor" --version)" = "torchdoctor 9.8.7" ] && ok || bad "venv/bin/torchdoctor"
        "$tmp/venv/bin/torchdoctor" check --no-gpu >/dev/null
        [ $? -le 1 ] && ok || bad "venv torchdoctor check"
        "$tmp/venv/bin/python" -m torchdoctor check --no-gpu --format json >"$tmp/check.json"
        [ $? -le 1 ] && grep -q '"command": *"check"' "$tmp/check.json" && ok || bad "python -m torchdoctor check"
        "$tmp/venv/bin/pip" uninstall -y -q torchdoctor >/dev/null 2>&1 && [ ! -e "$tmp/venv/bin/torchdoctor" ] &&
            ok || bad "pip uninstall leaves the binary"
    else
        bad "pip install: $(tail -5 "$tmp/pip.log")"
    fi
else
    bad "no $whl"
fi
echo "$pass passed, $failn failed"
[ $failn = 0 ]
