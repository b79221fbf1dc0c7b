#!/usr/bin/env bash
# Installs the Debian 12 packages a step needs, only those missing.
#   install-deps.sh build   what building torchdoctor needs
#   install-deps.sh test    + what the tests need (toolchains for fixtures, Wine, python3-torch, libc-l10n
#                             for glibc's own translations (tests/kb/glibc_l10n.test.sh),
#                             libpython3.11-dev for a shared-libpython interpreter, munge and
#                             Slurm for fleet --slurm's single-node cluster)
#   install-deps.sh bench   + the peer tools the benchmarks compare against
#   install-deps.sh windows what `make windows` needs (mingw-w64 gcc, and g++ for libsupc++)
#   install-deps.sh package what `make deb` and `make wheel` need (dpkg-deb, lintian, python3)
# Nothing else is downloaded: every dependency is a Debian package.
set -euo pipefail
what=${1:-build}

build_pkgs=(cmake ninja-build make gcc libc6-dev libstdc++-12-dev zlib1g-dev libjansson-dev nettle-dev)
test_pkgs=(clang lld llvm libclang-rt-14-dev libcmocka-dev gcc-multilib
    gcc-mingw-w64-x86-64 gcc-mingw-w64-i686 binutils-mingw-w64-x86-64 binutils-mingw-w64-i686
    g++-mingw-w64-x86-64-win32 g++-mingw-w64-i686-win32 libz-mingw-w64-dev
    wine64 wine binutils file patchelf zip unzip python3 python3-jsonschema python3-packaging python3-torch
    python3-venv python3-pip dpkg-dev lintian man-db groff-base git chromium fonts-dejavu-core
    libpython3.11-dev man-db groff-base bsdutils zsh fish locales-all libc-l10n
    podman runc busybox-static munge slurmctld slurmd slurm-client)
bench_pkgs=(hyperfine libtree pax-utils time bc python3-numpy)
package_pkgs=(dpkg-dev lintian python3 python3-venv python3-pip)
windows_pkgs=(cmake ninja-build make gcc-mingw-w64-x86-64 gcc-mingw-w64-i686
    g++-mingw-w64-x86-64-win32 g++-mingw-w64-i686-win32 libz-mingw-w64-dev)

pkgs=("${build_pkgs[@]}")
case "$what" in
build) ;;
test) pkgs+=("${test_pkgs[@]}") ;;
bench) pkgs+=("${test_pkgs[@]}" "${bench_pkgs[@]}") ;;
windows) pkgs=("${windows_pkgs[@]}") ;;
package) pkgs+=("${package_pkgs[@]}") ;;
*) echo "usage: $0 build|test|bench|windows|package" >&2; exit 2 ;;
esac

missing=()
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
    echo "missing Debian packages: ${missing[*]}" >&2
    echo "run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" </dev/null
