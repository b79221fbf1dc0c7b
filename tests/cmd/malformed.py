#!/usr/bin/python3
"""Malformed input through the whole command: truncations, byte flips, huge
counts and overflowing offsets in real fixtures of every format. Each run of
`inspect --symbols --format json` must finish within 10 s, under a 512 MiB
address-space limit (so no allocation near 64 MiB can hide), exit 0 or 2
(never a signal), print valid JSON, and when it exits 2 say on stderr which
file and which structure or offset was wrong."""
import json
import os
import random
import resource
import struct
import subprocess
import sys
import tempfile

TD = os.environ["TD_BIN"]
FX = os.path.join(os.environ["TD_FIXTURES"], "cmd")
SANITIZED = os.environ.get("TD_SANITIZE") == "ON"
FILES = ["libgolden.so", "golden.dll", "libgolden.dylib", "golden_fat.dylib",
         "golden-1.0-cp311-cp311-linux_x86_64.whl"]
WORDS = [b"\xff\xff\xff\xff", b"\xff\xff\xff\x7f", b"\x00\x00\x00\x80", b"\x00\x00\x00\x00",
         b"\xff\xff\xff\xff\xff\xff\xff\xff"]


def limit():
    if not SANITIZED:  # ASan reserves terabytes of shadow address space
        resource.setrlimit(resource.RLIMIT_AS, (512 << 20, 512 << 20))


def variants(data, rng):
    n = len(data)
    cuts = sorted(set(list(range(0, min(n, 512), 13)) + [rng.randrange(n) for _ in range(60)]))
    for c in cuts:
        yield f"truncated at {c}", data[:c]
    for _ in range(60):
        b = bytearray(data)
        for _ in range(rng.randint(1, 8)):
            # Headers and tables live mostly in the first pages: bias flips there.
            pos = rng.randrange(min(n, 4096)) if rng.random() < 0.8 else rng.randrange(n)
            b[pos] ^= 1 << rng.randrange(8)
        yield "bit flips", bytes(b)
    for _ in range(60):
        b = bytearray(data)
        w = rng.choice(WORDS)
        pos = rng.randrange(0, min(n, 2048) - len(w))
        b[pos:pos + len(w)] = w
        yield f"word {w.hex()} at {pos}", bytes(b)


def check_one(path, name, what, runs):
    """One file through inspect: (problem or None, rejected)."""
    try:
        p = subprocess.run([TD, "inspect", "--symbols", "--format", "json", path],
                           capture_output=True, timeout=10, preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return "hang (over 10 s)", False
    if p.returncode not in (0, 2):
        return f"exit {p.returncode}: {p.stderr.decode(errors='replace')[-400:]}", False
    try:
        doc = json.loads(p.stdout)
        assert doc["files"][0]["path"] == path
    except Exception as e:  # noqa: BLE001 - any defect is a failure
        return f"invalid JSON output: {e}", False
    if p.returncode == 2 and path not in p.stderr.decode(errors="replace"):
        return f"message does not name the file: {p.stderr!r}", True
    return None, p.returncode == 2


def check_batch(paths):
    """Many files through one inspect (process start-up dominated the run,
    the more so under ASan): the number rejected, or None when anything is
    off, and the files are then run one by one to name the culprit."""
    try:
        p = subprocess.run([TD, "inspect", "--symbols", "--format", "json", *paths],
                           capture_output=True, timeout=10 + len(paths), preexec_fn=limit)
    except subprocess.TimeoutExpired:
        return None
    if p.returncode not in (0, 2):
        return None
    try:
        doc = json.loads(p.stdout)
        if [f["path"] for f in doc["files"]] != paths:
            return None
    except Exception:  # noqa: BLE001
        return None
    err = p.stderr.decode(errors="replace")
    named = {path for path in paths if path + ":" in err}
    lines = [l for l in err.splitlines() if l.strip()]
    if (p.returncode == 2) != bool(named) or len(lines) != len(named):
        return None
    return len(named)


def main():
    rng = random.Random(20261129)
    failures, runs, rejected = 0, 0, 0
    batch = 64
    with tempfile.TemporaryDirectory() as tmp:
        for name in FILES:
            data = open(os.path.join(FX, name), "rb").read()
            cases = list(variants(data, rng))
            for start in range(0, len(cases), batch):
                chunk = cases[start:start + batch]
                paths = []
                for i, (what, blob) in enumerate(chunk):
                    path = os.path.join(tmp, f"m{start + i}-{name}")
                    with open(path, "wb") as f:
                        f.write(blob)
                    paths.append(path)
                runs += len(chunk)
                n = check_batch(paths)
                if n is not None:
                    rejected += n
                    continue
                for path, (what, blob) in zip(paths, chunk):
                    problem, rej = check_one(path, name, what, runs)
                    rejected += rej
                    if problem:
                        failures += 1
                        keep = os.path.join(os.environ.get("TD_BUILD", tmp),
                                            f"malformed-{os.path.basename(path)}")
                        with open(keep, "wb") as f:
                            f.write(blob)
                        print(f"{name} ({what}): {problem} [input kept: {keep}]")
    print(f"malformed: {runs} runs, {rejected} rejected with exit 2, {failures} failures")
    return failures == 0 and rejected > runs // 10


if __name__ == "__main__":
    sys.exit(0 if main() else 1)
