#!/usr/bin/env bash
# Builds dist/torchdoctor_<version>_amd64.deb from a build folder with
# dpkg-deb alone (no debhelper: the program is one static file): installs
# the build into a staging root with PREFIX=/usr, strips the binary as
# dh_strip does, compresses man pages and the changelog, writes the control
# file, md5sums and a machine-readable copyright file, builds the package
# and checks it with lintian. Usage: make-deb.sh BUILD_DIR OUT_DIR
set -euo pipefail
build=${1:?usage: make-deb.sh BUILD_DIR OUT_DIR}
out=${2:?usage: make-deb.sh BUILD_DIR OUT_DIR}
src=$(cd "$(dirname "$0")/.." && pwd)
bin=$build/torchdoctor
[ -x "$bin" ] || { echo "make-deb: no $bin (build first)" >&2; exit 2; }

version=$("$bin" --version | cut -d' ' -f2)
# A native package's version has no hyphen: X.Y.Z-N-gHASH becomes X.Y.Z+N.gHASH.
debversion=$(printf '%s' "$version" | sed -E 's/-([0-9]+)-g/+\1.g/; s/-modified$/+modified/')
arch=$(dpkg --print-architecture)
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root=$stage/root
mkdir -p "$root/DEBIAN"

DESTDIR=$root cmake --install "$build" --prefix /usr >/dev/null
doc=$root/usr/share/doc/torchdoctor
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$root/usr/bin/torchdoctor"
find "$root/usr/share/man" -type f -name '*.1' -exec gzip -9n {} + 2>/dev/null || true
# The docs are reference material; the large ones compressed as policy 12.3 asks.
find "$doc" -type f -size +4k ! -name copyright -exec gzip -9n {} +
find "$root/usr" -depth -type d -empty -delete

when=$(date -R -u -d "@${SOURCE_DATE_EPOCH:-$(git -C "$src" log -1 --format=%ct 2>/dev/null || date +%s)}")
sed -e "s/@VERSION@/$debversion/" -e "s/@DESCRIBE@/$version/" -e "s/@DATE@/$when/" \
    "$src/packaging/debian/changelog.in" | gzip -9n >"$doc/changelog.gz"
install -m 0644 "$src/packaging/debian/copyright" "$doc/copyright"
mkdir -p "$root/usr/share/lintian/overrides"
install -m 0644 "$src/packaging/debian/lintian-overrides" "$root/usr/share/lintian/overrides/torchdoctor"

size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$debversion/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
    "$src/packaging/debian/control.in" >"$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +
find "$root/usr" -type f ! -path '*/bin/*' ! -path '*/share/torchdoctor/slurm/*' -exec chmod 0644 {} +
# The Slurm scripts are run by sbatch and HealthCheckProgram: they stay executable.
find "$root/usr/share/torchdoctor/slurm" -type f -exec chmod 0755 {} + 2>/dev/null || true
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"

mkdir -p "$out"
deb=$out/torchdoctor_${debversion}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$root" "$deb" >/dev/null
echo "$deb"
