#!/usr/bin/env python3
"""Builds the torchdoctor wheels, each carrying the native executable (as
ruff and uv ship theirs): the executable goes to the wheel's .data/scripts
(pip puts it on PATH, executable), and a small package `torchdoctor` finds
it for `python -m torchdoctor`. Writes WHEEL, METADATA and RECORD (sha256
and size of every file) by hand: no build backend is needed.

  make-wheel.py --version V --out DIR [--linux EXE] [--win64 EXE] [--win32 EXE]

Tags (docs/packaging.md): the Linux program is a static-pie executable that
needs no shared library at all, so it runs on any x86-64 glibc (and musl)
system the kernel supports; manylinux_2_17_x86_64 (glibc 2.17, CentOS 7)
is the oldest tag pip and PyPI accept for x86-64 Linux today. The Windows
executables need only KERNEL32/msvcrt-era system DLLs: win_amd64, win32.
"""

import argparse
import base64
import hashlib
import os
import re
import stat
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.join(HERE, "..", "packaging", "python", "torchdoctor")
README = os.path.join(HERE, "..", "README.md")
TAGS = {
    "linux": "py3-none-manylinux_2_17_x86_64",
    "win64": "py3-none-win_amd64",
    "win32": "py3-none-win32",
}


def pep440(version: str) -> str:
    """git describe's X.Y.Z-N-gHASH[-modified] as PEP 440: X.Y.Z.postN+gHASH[.modified]."""
    m = re.fullmatch(r"(\d+(?:\.\d+)*)(?:-(\d+)-g([0-9a-f]+))?(-modified)?", version)
    if not m:
        raise SystemExit("make-wheel: version %r is not X.Y.Z or git describe's form" % version)
    out = m.group(1)
    local = []
    if m.group(2):
        out += ".post" + m.group(2)
        local.append("g" + m.group(3))
    if m.group(4):
        local.append("modified")
    return out + ("+" + ".".join(local) if local else "")


def record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))


def metadata(version: str) -> bytes:
    with open(README, encoding="utf-8") as f:
        readme = f.read()
    head = (
        "Metadata-Version: 2.1\n"
        "Name: torchdoctor\n"
        "Version: %s\n"
        "Summary: Says why PyTorch will not load or will not use the GPU, and what to run to fix it\n"
        "Keywords: pytorch,cuda,dll,ldd,dependencies,diagnostics\n"
        "Classifier: Environment :: Console\n"
        "Classifier: Intended Audience :: Developers\n"
        "Classifier: Intended Audience :: Science/Research\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Operating System :: Microsoft :: Windows\n"
        "Classifier: Programming Language :: C\n"
        "Classifier: Topic :: Software Development :: Debuggers\n"
        "Requires-Python: >=3.7\n"
        "Description-Content-Type: text/markdown\n"
        "\n" % version
    )
    return (head + readme).encode("utf-8")


def wheel_file(tag: str) -> bytes:
    return (
        "Wheel-Version: 1.0\n"
        "Generator: torchdoctor scripts/make-wheel.py\n"
        "Root-Is-Purelib: false\n"
        "Tag: %s\n" % tag
    ).encode()


def build(version: str, platform: str, exe: str, out: str) -> str:
    tag = TAGS[platform]
    dist = "torchdoctor-%s" % version
    path = os.path.join(out, "torchdoctor-%s-%s.whl" % (version, tag))
    entries = []  # (archive name, bytes, executable)
    for name in sorted(os.listdir(PKG)):
        if name.endswith(".py"):
            with open(os.path.join(PKG, name), "rb") as f:
                entries.append(("torchdoctor/" + name, f.read(), False))
    exe_name = "torchdoctor.exe" if platform.startswith("win") else "torchdoctor"
    with open(exe, "rb") as f:
        entries.append(("%s.data/scripts/%s" % (dist, exe_name), f.read(), True))
    info = "%s.dist-info" % dist
    entries.append((info + "/METADATA", metadata(version), False))
    entries.append((info + "/WHEEL", wheel_file(tag), False))
    entries.append((info + "/top_level.txt", b"torchdoctor\n", False))
    record = [record_line(n, d) for n, d, _ in entries] + [info + "/RECORD,,"]
    entries.append((info + "/RECORD", ("\n".join(record) + "\n").encode(), False))
    os.makedirs(out, exist_ok=True)
    # Fixed timestamps and order: the same inputs give the same wheel.
    when = (1980, 1, 1, 0, 0, 0)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data, executable in entries:
            zi = zipfile.ZipInfo(name, when)
            zi.compress_type = zipfile.ZIP_DEFLATED
            mode = 0o755 if executable else 0o644
            zi.external_attr = (stat.S_IFREG | mode) << 16
            z.writestr(zi, data)
    return path


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True)
    for p in TAGS:
        ap.add_argument("--" + p, metavar="EXE")
    a = ap.parse_args()
    version = pep440(a.version)
    built = 0
    for p in TAGS:
        exe = getattr(a, p)
        if exe:
            print(build(version, p, exe, a.out))
            built += 1
    if not built:
        print("make-wheel: no executable given", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
