#!/usr/bin/env bash
# check inside a real container: rootful Podman runs an image imported from a
# local tarball (a static torchdoctor and busybox-static; no registry is
# reachable), and `check --format json` there must say Podman, with
# /run/.containerenv among its evidence, and the /dev/shm the container was
# given: the size= of the /dev/shm line of the container's own mountinfo
# (read by busybox inside it) is the oracle. Optional: where podman, runc or
# a static busybox is missing, or podman cannot run a container here, it
# says "skipped" and why. Storage lives in a temporary folder, removed after.
set -euo pipefail
source "$TD_SRC/tests/check.sh"
skip() { echo "skipped: $*"; exit 0; }
command -v podman >/dev/null || skip "podman is not installed (Debian: apt install podman runc busybox-static)"
command -v runc >/dev/null || skip "runc is not installed (crun refuses this machine's hybrid cgroups)"
busybox=$(command -v busybox || true)
[ -n "$busybox" ] && file -L "$busybox" | grep 'statically linked' >/dev/null ||
    skip "no statically linked busybox (Debian: apt install busybox-static)"
file -L "$TD_BIN" | grep -E 'static(-pie)? linked' >/dev/null || skip "$TD_BIN is not statically linked"
[ "$(id -u)" -eq 0 ] || skip "needs root: rootless Podman needs subuid ranges this test does not set up"

t=$(mktemp -d /tmp/td-podman.XXXXXX)
P=(podman --root "$t/storage" --runroot "$t/run" --runtime runc --cgroup-manager=cgroupfs
    --events-backend=file)
cleanup() {
    "${P[@]}" rmi -a -f >/dev/null 2>&1 || true
    rm -rf "$t"
}
trap cleanup EXIT
mkdir -p "$t/rootfs/bin" "$t/rootfs/tmp"
cp "$busybox" "$t/rootfs/bin/busybox"
ln -s busybox "$t/rootfs/bin/sh"
cp "$TD_BIN" "$t/rootfs/torchdoctor"
tar -C "$t/rootfs" -cf "$t/rootfs.tar" .
"${P[@]}" import "$t/rootfs.tar" localhost/td-podman-test >"$t/import.log" 2>&1 ||
    skip "podman import failed: $(tail -1 "$t/import.log")"
hard=$(ulimit -Hn)
# The notes on this machine: explicit ulimits (its defaults exceed what a root
# without CAP_SYS_RESOURCE may set), no network.
"${P[@]}" run --rm --network=none --ulimit "nofile=$hard:$hard" --ulimit nproc=4096:4096 \
    localhost/td-podman-test /bin/sh -c \
    '/bin/busybox grep " /dev/shm " /proc/self/mountinfo >/tmp/shm; /torchdoctor check --no-gpu --format json >/tmp/out.json; echo "rc=$?"; /bin/busybox cat /tmp/shm; echo ---; /bin/busybox cat /tmp/out.json' \
    >"$t/run.out" 2>"$t/run.err" || skip "podman run failed here: $(tail -2 "$t/run.err" | tr '\n' ' ')"

casekit_py - "$t/run.out" <<'PY'
import json, re, sys
from casekit import check, check_schema, finish
text = open(sys.argv[1]).read()
head, _, body = text.partition("---\n")
rc = int(re.search(r"rc=(\d+)", head).group(1))
m = re.search(r"size=(\d+)k", head)
doc = json.loads(body)
check_schema(doc, "the report inside the container validates")
env = doc.get("environment", {})
ev = [x["evidence"] for x in env.get("evidence", [])]
check(rc in (0, 1), f"check's exit status inside Podman: {rc}")
check(env.get("kind") == "podman" and env.get("container") == "podman", f"kind in Podman: {env.get('kind')}")
check(any("/run/.containerenv exists" in e for e in ev), f"evidence names /run/.containerenv: {ev}")
check(m is not None, f"the container's mountinfo has a /dev/shm size: {head}")
if m:
    want = int(m.group(1)) * 1024
    got = env.get("limits", {}).get("shm_bytes")
    check(got == want, f"/dev/shm as check sees it ({got}) = its mountinfo size= ({want})")
    shm = [f for f in doc["findings"] if f["kind"] == "container_limit" and f["library"] == "/dev/shm"]
    if want < 1 << 30:
        check(shm and "podman run --shm-size=16g" in shm[0]["fix"], f"the small /dev/shm is named: {shm}")
print("podman:", env.get("kind"), "evidence", ev, "shm", env.get("limits", {}).get("shm_bytes"))
finish("podman")
PY
