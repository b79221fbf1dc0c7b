#!/usr/bin/env bash
# Hostile files where a library, a wheel or a RECORD is expected: a FIFO
# (opening it for reading would block forever), a socket, character
# devices, files and folders the user cannot read, symlink loops, a
# 4,096-deep folder chain, non-UTF-8 names, a 4 GiB sparse library.
# Each is refused with exit 2 and a message naming the file, or (inside an
# install check looks at) reported without a hang or a crash.
source "$TD_SRC/tests/faults/faultkit.sh"
td=$TD_BIN
lib=$TD_FIXTURES/torch_layouts/pip/usr/local/lib/python3.11/dist-packages/torch/lib/libc10.so
prog=$work/prog # a real program with needs, outside any torch install
cp /bin/ls "$prog"

mkfifo "$work/fifo.so"
python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$work/sock.so"
for t in fifo sock; do
    expect "inspect a ${t}" 2 "$t\.so.*(FIFO|socket).*not a regular file" -- "$td" inspect "$work/$t.so"
    expect "deps a ${t}" 2 "$t\.so.*(FIFO|socket).*not a regular file" -- "$td" deps "$work/$t.so"
done
expect "inspect a FIFO as a wheel" 2 "fifo\.whl.*FIFO" -- \
    bash -c "mkfifo '$work/fifo.whl' && '$td' inspect '$work/fifo.whl'"
expect "inspect /dev/zero" 2 "/dev/zero.*character device.*not a regular file" -- "$td" inspect /dev/zero
expect "deps /dev/null" 2 "/dev/null.*character device.*not a regular file" -- "$td" deps /dev/null

# Inside an install: a FIFO as a library torch loads, as RECORD, a RECORD
# that is /dev/zero, and a RECORD row naming a FIFO (hashed by --verify).
pip_root fifo
rm "$site/torch/lib/libc10.so" && mkfifo "$site/torch/lib/libc10.so"
expect "check: a FIFO as libc10.so" "0|1" "libc10\.so" -- "$td" check --root "$root" --no-gpu --verify --format json
pip_root fiforecord
rec=$(echo "$site"/torch-*.dist-info/RECORD)
rm "$rec" && mkfifo "$rec"
expect "check: a FIFO as RECORD" "0|1" "RECORD cannot be read \\(not a regular file\\)" -- "$td" check --root "$root" --no-gpu --verify --format json
pip_root zerorecord
rec=$(echo "$site"/torch-*.dist-info/RECORD)
rm "$rec" && ln -s /dev/zero "$rec"
expect "check: RECORD is /dev/zero" "0|1" "RECORD cannot be read \\(not a regular file\\)" -- "$td" check --root "$root" --no-gpu --verify --format json
pip_root fiforow
mkfifo "$site/torch/lib/libfifo.so"
rec=$(echo "$site"/torch-*.dist-info/RECORD)
echo "torch/lib/libfifo.so,sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU,0" >>"$rec"
expect "check --verify: a RECORD row that is a FIFO" "1" "libfifo\.so: not a regular file" -- \
    "$td" check --root "$root" --no-gpu --verify --format json

# Unreadable files and folders, as an unprivileged user (root reads all).
if [ "$(id -u)" = 0 ] && setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
    as=--as-nobody
    cp "$lib" "$work/secret.so" && chmod 000 "$work/secret.so"
    expect "inspect an unreadable file" 2 "secret\.so.*Permission denied" $as -- "$td" inspect "$work/secret.so"
    expect "deps an unreadable file" 2 "secret\.so.*Permission denied" $as -- "$td" deps "$work/secret.so"
    pip_root unreadable
    chmod -R a+rX "$root"
    chmod 000 "$site/torch/lib/libc10.so"
    expect "check: an unreadable libc10.so" "0|1" "libc10\.so" $as -- \
        "$td" check --root "$root" --no-gpu --verify --format json
    chmod 000 "$site/torch/lib"
    expect "check: an unreadable torch/lib" "0|1" "" $as -- "$td" check --root "$root" --no-gpu --format json
    chmod 000 "$site"
    expect "check: an unreadable site-packages" "0|1" \
        "dist-packages is on the sys.path of .* but cannot be read \\(Permission denied\\)" $as -- "$td" check --root "$root" --no-gpu --format json
    mkdir -m 755 "$work/ro" && chmod 555 "$work/ro"
    expect "check -o into a folder it cannot write" 2 "ro/report\.json: cannot write: Permission denied" $as -- \
        "$td" check --root "$root" --no-gpu --format json -o "$work/ro/report.json"
else
    echo "skipped: unreadable files (needs root to become nobody with setpriv; running as $(id -un))"
fi

# Symlink loops and a 4,096-deep folder chain.
ln -s "$work/loop-b.so" "$work/loop-a.so" && ln -s "$work/loop-a.so" "$work/loop-b.so"
expect "inspect a symlink loop" 2 "loop-a\.so.*Too many levels of symbolic links" -- "$td" inspect "$work/loop-a.so"
expect "deps a symlink loop" 2 "loop-a\.so.*Too many levels of symbolic links" -- "$td" deps "$work/loop-a.so"
mkdir "$work/loopdir" && ln -s "$work/loopdir" "$work/loopdir/again"
expect "deps with a search dir that contains itself" "0|1" "" -- \
    "$td" deps --search-dir "$work/loopdir/again/again" --format json "$prog"
pip_root loops
ln -s .. "$site/torch/lib/up"
ln -s "$site/torch" "$site/torch/again"
ln -s "$site/torch/loop-b.so" "$site/torch/lib/loop-a.so"
ln -s "$site/torch/lib/loop-a.so" "$site/torch/loop-b.so"
expect "check: symlink loops in torch" "0|1" "" -- "$td" check --root "$root" --no-gpu --verify --format json
pip_root deep
python3 - "$site/torch" <<'P'
import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
for _ in range(4096):
    os.mkdir("d", dir_fd=fd)
    nfd = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nfd
os.close(os.open("libdeep.so", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
P
expect "check: a 4,096-deep folder chain in torch" "0|1" "" -- \
    "$td" check --root "$root" --no-gpu --verify --format json

# Non-UTF-8 names: reported, as valid JSON (bytes as U+FFFD).
bad=$'\xff\xfe'
mkdir "$work/dir$bad" && cp "$lib" "$work/dir$bad/lib$bad.so" && cp "$prog" "$work/dir$bad/prog$bad"
expect "inspect a non-UTF-8 name" 0 "" -- "$td" inspect --format json "$work/dir$bad/lib$bad.so"
python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$work/out" ||
    fail "inspect a non-UTF-8 name: not valid UTF-8 JSON"
expect "deps a non-UTF-8 name" "0|1" "" -- "$td" deps --format json "$work/dir$bad/prog$bad"
python3 -c 'import json,sys; json.loads(open(sys.argv[1], "rb").read().decode("utf-8"))' "$work/out" ||
    fail "deps a non-UTF-8 name: not valid UTF-8 JSON"

# A 4 GiB sparse library: all zeros, and a real library's header on 4 GiB.
truncate -s 4G "$work/sparse.so"
expect "inspect a 4 GiB sparse file" 2 "sparse\.so" -- "$td" inspect "$work/sparse.so"
expect "deps a 4 GiB sparse file" 2 "sparse\.so" -- "$td" deps "$work/sparse.so"
cp "$lib" "$work/big.so" && truncate -s 4G "$work/big.so"
expect "inspect a real header on 4 GiB" 0 "" -- "$td" inspect --symbols "$work/big.so"
pip_root sparse
truncate -s 4G "$site/torch/lib/libc10.so"
expect "check --verify: a 4 GiB libc10.so" "0|1" "libc10\.so" -- \
    "$td" check --root "$root" --no-gpu --verify --format json

# Not a change log at all: one message, not one "incomplete entry" a line.
expect "log /etc/passwd" 2 "/etc/passwd is not a change log" -- "$td" log /etc/passwd
[ "$(wc -l <"$work/err")" -eq 1 ] || fail "log /etc/passwd: $(wc -l <"$work/err") lines on stderr, want 1"
# A dangling link (dpkg --verify's missing libcaffe2_*.so.1.13 leave them):
# said to be one, with where it points as readlink(1) reads it.
ln -s libcaffe2_gone.so.1.13 "$work/libcaffe2_dangling.so"
to=$(readlink "$work/libcaffe2_dangling.so")
for c in inspect deps; do
    expect "$c a dangling link" 2 "libcaffe2_dangling\.so: a broken symbolic link: it points to $to," -- \
        "$td" "$c" "$work/libcaffe2_dangling.so"
done
finish
