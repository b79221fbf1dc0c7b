#!/usr/bin/env bash
# The change log survives (docs/snapshot.md, "The change log survives"):
# snapshot --log killed with SIGKILL 100 times at random moments, entries
# cut short at random bytes, two snapshots appending at once, and one
# waiting on another's lock. `log` must list every complete entry and name
# every incomplete one (exit 2). Nothing here waits on the clock: the kill
# moments are drawn from a seeded RNG and every check holds whichever
# moment a kill lands on; the lock test waits for the message that says
# snapshot is waiting.
set -euo pipefail
: "${TD_BIN:?}" "${TD_FIXTURES:?}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -a "$TD_FIXTURES/torch_layouts/pip" "$work/root"
python3 - "$TD_BIN" "$work" <<'P'
import fcntl, json, os, random, signal, subprocess, sys, time
td, work = sys.argv[1], sys.argv[2]
root = os.path.join(work, "root")
log = os.path.join(work, "changes.jsonl")
snap = [td, "snapshot", "--root", root, "--no-gpu", "--log", log]
fails = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL:", msg)


def complete_lines(data):
    """The entries a reader must list: lines ended by a newline that are JSON."""
    n = 0
    for line in data.split(b"\n")[:-1]:
        try:
            n += json.loads(line)["command"] == "snapshot"
        except ValueError:
            pass
    return n


def check_log(what, want_incomplete=None):
    data = open(log, "rb").read() if os.path.exists(log) else b""
    p = subprocess.run([td, "log", "--format", "json", log], capture_output=True, timeout=60)
    if p.returncode >= 128 or p.returncode not in (0, 2):
        fail(f"{what}: log exited {p.returncode}: {p.stderr[-300:]!r}")
        return None
    listed = len(json.loads(p.stdout)["entries"]) if p.stdout else 0
    want = complete_lines(data)
    if listed != want:
        fail(f"{what}: log listed {listed} entries, {want} are complete")
    incomplete = p.stderr.count(b"an incomplete entry, skipped")
    lines = len([l for l in data.split(b"\n") if l.strip()])
    if incomplete != lines - want:
        fail(f"{what}: {incomplete} named incomplete, {lines - want} are")
    if (p.returncode == 2) != (incomplete > 0):
        fail(f"{what}: exit {p.returncode} with {incomplete} incomplete")
    if want_incomplete is not None and incomplete != want_incomplete:
        fail(f"{what}: {incomplete} incomplete, want {want_incomplete}")
    return listed


# 1. A first entry, and how long one run takes here (the range the kill
#    moments are drawn from, so the kills land across a run on any machine).
t = time.monotonic()
subprocess.run(snap, check=True, capture_output=True, timeout=60)
span = time.monotonic() - t
check_log("first entry", 0)

# 2. 100 kills at random moments: what was there before stays as it was.
rng = random.Random(31)
for i in range(100):
    before = open(log, "rb").read()
    p = subprocess.Popen(snap, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(rng.uniform(0, span * 1.2))  # where the kill lands, not a wait for an event
    p.send_signal(signal.SIGKILL)
    p.wait()
    after = open(log, "rb").read()
    if not after.startswith(before):
        fail(f"kill {i}: the log before the kill was changed")
n = check_log("after 100 kills")
subprocess.run(snap, check=True, capture_output=True, timeout=60)
if check_log("an entry after the kills") != n + 1:
    fail("the entry after the kills is not listed")
print(f"100 kills: {n} complete entries listed")

# 3. Entries cut short at random bytes (what a kill inside the write leaves),
#    each followed by a whole one: the cut one is named, the rest listed.
whole = open(log, "rb").read().split(b"\n")[-2] + b"\n"
for i in range(20):
    cut = rng.randrange(1, len(whole) - 1)
    before = check_log(f"cut {i}: before")
    with open(log, "ab") as f:
        f.write(whole[:cut])
    check_log(f"cut {i} at byte {cut}")
    p = subprocess.run(snap, capture_output=True, timeout=60)
    if p.returncode != 0:
        fail(f"cut {i}: snapshot --log after a cut entry exited {p.returncode}: {p.stderr!r}")
    if check_log(f"cut {i}: after") != before + 1:
        fail(f"cut {i}: the entry after the cut one is not listed")
print("20 entries cut short at random bytes: each named, none lost")

# 4. The lock: while another holds it, snapshot says it waits and writes
#    nothing; once released, it appends.
with open(log, "ab") as held:
    fcntl.flock(held, fcntl.LOCK_EX)
    size = os.path.getsize(log)
    before = check_log("lock: before")
    p = subprocess.Popen(snap, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    said = p.stderr.readline()  # the event: it says it is waiting
    if b"is locked by another snapshot; waiting for it" not in said:
        fail(f"lock: snapshot did not say it waits: {said!r}")
    if os.path.getsize(log) != size or p.poll() is not None:
        fail("lock: snapshot wrote (or ended) while the lock was held")
    fcntl.flock(held, fcntl.LOCK_UN)
p.communicate(timeout=60)
if p.returncode != 0 or check_log("lock: after") != before + 1:
    fail(f"lock: after the release: exit {p.returncode}")

# 5. Two snapshots appending at once, ten times each: every entry whole.
before = check_log("two at once: before")
ps = [subprocess.Popen(["bash", "-c", 'for i in 1 2 3 4 5 6 7 8 9 10; do "$@" >/dev/null || exit 1; done',
                        "two"] + snap) for _ in range(2)]
if any(p.wait(timeout=300) != 0 for p in ps):
    fail("two at once: a snapshot failed")
if check_log("two at once: after") != before + 20:
    fail("two at once: not every entry is whole")
print("two at once: 20 whole entries")
print("snapshot_log:", "FAILED" if fails else "ok")
sys.exit(1 if fails else 0)
P
