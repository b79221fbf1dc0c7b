#!/usr/bin/env bash
# A Debian torch's torch/lib holds links into /usr/lib/<triplet>, whose
# files another package ships (libtorch1.13). check verifies that package
# against its md5sums too, and tells a link that resolves to nothing: an
# error when torch's import needs it, an info naming the package to
# reinstall when it does not. Oracles: `dpkg --verify` over the same root
# (what is missing or modified, and which package), and the dynamic loader
# itself (ctypes.CDLL of torch/_C*.so: does the import's dlopen succeed).
set -uo pipefail
. "$TD_SRC/tests/check.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
if ! command -v dpkg >/dev/null || ! command -v gcc >/dev/null; then
    echo "skipped: dpkg or gcc absent (the oracle and the fixture builder)"
    exit 0
fi

r=$t/deb
site=$r/usr/lib/python3/dist-packages
info=$r/var/lib/dpkg/info
tri=$r/usr/lib/x86_64-linux-gnu
mkdir -p "$r/etc/ld.so.conf.d" "$r/usr/bin" "$r/usr/lib/python3.11" "$site/torch/lib" "$info" "$tri" "$r/usr/share/doc/libfaketorch1"
cp /bin/true "$r/usr/bin/python3.11"
echo /usr/lib/x86_64-linux-gnu >"$r/etc/ld.so.conf.d/x86_64-linux-gnu.conf"
ln -s python3.11 "$r/usr/bin/python3"
printf "__version__ = '1.13.0a0'\ncuda = None\n" >"$site/torch/version.py"
printf 'import sys\n' >"$site/torch/__init__.py"
# libtorch_python.so.1.0 in the triplet dir; _C needs it by its soname
# (libtorch_python.so.1, found in the triplet dir) as Debian's _C does.
printf 'int tp_marker(void) { return 1; }\n' >"$t/tp.c"
gcc -shared -fPIC -Wl,-soname,libtorch_python.so.1 -o "$tri/libtorch_python.so.1.0" "$t/tp.c"
ln -s libtorch_python.so.1.0 "$tri/libtorch_python.so.1"
ln -s ../../../../x86_64-linux-gnu/libtorch_python.so.1 "$site/torch/lib/libtorch_python.so"
ln -s ../../../../x86_64-linux-gnu/libcaffe2_extra.so.1 "$site/torch/lib/libcaffe2_extra.so"
printf 'int tp_marker(void);\nint PyInit__C(void) { return tp_marker(); }\n' >"$t/c.c"
gcc -shared -fPIC -o "$site/torch/_C.cpython-311-x86_64-linux-gnu.so" "$t/c.c" \
    -L"$site/torch/lib" -ltorch_python -Wl,-rpath,'$ORIGIN/lib'
printf 'Upstream-Name: pytorch\n' >"$r/usr/share/doc/libfaketorch1/copyright"

D=usr/lib/python3/dist-packages/torch
torch_files="$D/__init__.py $D/version.py $D/_C.cpython-311-x86_64-linux-gnu.so"
{ printf "/.\n/$D\n/$D/lib\n"; for f in $torch_files $D/lib/libtorch_python.so $D/lib/libcaffe2_extra.so; do echo "/$f"; done; } \
    >"$info/python3-torch.list"
(cd "$r" && md5sum $torch_files) >"$info/python3-torch.md5sums"
lib_files="usr/lib/x86_64-linux-gnu/libtorch_python.so.1.0 usr/share/doc/libfaketorch1/copyright"
{ printf "/.\n/usr\n/usr/lib\n/usr/lib/x86_64-linux-gnu\n"; for f in $lib_files; do echo "/$f"; done
  printf "/usr/lib/x86_64-linux-gnu/libtorch_python.so.1\n/usr/lib/x86_64-linux-gnu/libcaffe2_extra.so.1\n"; } \
    >"$info/libfaketorch1:amd64.list"
(cd "$r" && md5sum $lib_files) >"$info/libfaketorch1:amd64.md5sums"
printf '/.\n/usr\n/usr/bin/unrelated\n' >"$info/zunrelated.list" # read, owns nothing here
echo 1 >"$info/format" # dpkg's database format: multi-arch NAME:ARCH.list names
for p in python3-torch:all libfaketorch1:amd64 zunrelated:all; do
    printf 'Package: %s\nStatus: install ok installed\nMaintainer: t <t@t>\nArchitecture: %s\n' "${p%%:*}" "${p##*:}"
    [ "${p##*:}" = amd64 ] && printf 'Multi-Arch: same\n' # dpkg's NAME:ARCH.list
    printf 'Version: 1.13.1\nDescription: test\n\n'
done >"$r/var/lib/dpkg/status"
touch -d '2023-03-14 17:21:37' "$info"/*.md5sums "$r/usr/share/doc/libfaketorch1/copyright" "$tri/libtorch_python.so.1.0"

verify() { dpkg --root="$r" --verify "$1" 2>/dev/null; }
run() { "$TD_BIN" check --root "$r" --python /usr/bin/python3 --no-gpu --format json "$@" >"$t/out.json" || true; }
# "SEVERITY LIBRARY FIX" of each corrupted_file finding, sorted.
found() { casekit_py -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in sorted(d["findings"], key=lambda f: f["library"] or ""):
    if f["kind"] == "corrupted_file":
        print(f["severity"], f["library"], f["fix"])' "$t/out.json"; }
loads() { (cd / && LD_LIBRARY_PATH=$tri /usr/bin/python3 -c 'import ctypes, sys; ctypes.CDLL(sys.argv[1])' \
    "$site/torch/_C.cpython-311-x86_64-linux-gnu.so") 2>/dev/null; }
cannot_load() { ! loads; }

# 1. The unneeded link dangles: dpkg says missing, the loader does not care.
check "oracle: dpkg --verify names the missing target" \
    test "$(verify libfaketorch1)" = "missing     /usr/lib/x86_64-linux-gnu/libcaffe2_extra.so.1"
check "oracle: the loader opens _C all the same" loads
run
want="info /$D/lib/libcaffe2_extra.so sudo apt-get install --reinstall libfaketorch1"
check "the dangling link is an info naming libfaketorch1 ($(found))" test "$(found)" = "$want"
check "its detail names the target" grep -q 'a link to /usr/lib/x86_64-linux-gnu/libcaffe2_extra.so.1, which is missing: package libfaketorch1' "$t/out.json"
check "libfaketorch1's md5sums were read (files counted)" grep -q '"record_files": 5' "$t/out.json"

# 2. A file of libfaketorch1 modified since dpkg wrote its md5sums.
printf 'Upstream-Name: edited\n' >"$r/usr/share/doc/libfaketorch1/copyright"
check "oracle: dpkg --verify says the copyright's MD5 differs" \
    bash -c "dpkg --root='$r' --verify libfaketorch1 2>/dev/null | grep '^??5.* /usr/share/doc/libfaketorch1/copyright$' >/dev/null"
run
check "the modified file of libfaketorch1 is an error to reinstall it" \
    grep -q "error /usr/share/doc/libfaketorch1/copyright sudo apt-get install --reinstall libfaketorch1" <<<"$(found)"
printf 'Upstream-Name: pytorch\n' >"$r/usr/share/doc/libfaketorch1/copyright"

# 3. The link the import needs dangles: the loader fails, check says error.
rm "$tri/libtorch_python.so.1.0"
check "oracle: dpkg --verify says libtorch_python.so.1.0 is missing" \
    bash -c "dpkg --root='$r' --verify libfaketorch1 2>/dev/null | grep 'missing .*/libtorch_python.so.1.0$' >/dev/null"
check "oracle: the loader cannot open _C now" cannot_load
run
check "the needed dangling link is an error ($(found | tr '\n' ';'))" \
    grep -q "^error /$D/lib/libtorch_python.so sudo apt-get install --reinstall libfaketorch1$" <<<"$(found)"
check "its detail says the import fails" grep -q 'import needs it, so `import torch` fails' "$t/out.json"
check "the unneeded one stays an info" grep -q "^info /$D/lib/libcaffe2_extra.so " <<<"$(found)"

# This machine's Debian torch, as the user trial found it: libtorch1.13
# lists three libcaffe2 links that are not there (`dpkg --verify`).
real=/usr/lib/python3/dist-packages/torch/lib
miss=$(dpkg --verify libtorch1.13 2>/dev/null | sed -n 's|^missing  *\(/.*/libcaffe2_[a-z_]*\.so\.1\.13\)$|\1|p' | sort)
if [ ! -f /var/lib/dpkg/info/python3-torch.list ] || [ "$(echo "$miss" | grep -c .)" -ne 3 ]; then
    echo "skipped: this machine's Debian torch with libtorch1.13's three libcaffe2 links missing (dpkg --verify) is absent"
    exit $fail
fi
"$TD_BIN" check --python /usr/bin/python3 --no-gpu --format json >"$t/out.json" || true
got=$(casekit_py -c '
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["findings"]:
    if f["kind"] == "corrupted_file" and "libcaffe2" in (f["library"] or ""):
        t = f["detail"].split(" is a link to ")[1].split(",")[0]
        print(f["severity"], f["library"], t, f["fix"])' "$t/out.json" | sort -k3)
want=$(for m in $miss; do
    b=$(basename "$m" .1.13)
    echo "info $real/$b $m sudo apt-get install --reinstall libtorch1.13"
done)
check "the three libcaffe2 links are infos naming libtorch1.13, as dpkg --verify says" test "$got" = "$want"
check "oracle: import torch works all the same" /usr/bin/python3 -c 'import torch'
exit $fail
