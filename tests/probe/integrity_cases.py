"""check's integrity checks over the real NVIDIA CUDA 13 wheels laid out as
pip does (tests/cudalayout.py, hard links) beside a small torch: a torch
library edited after install (same size, newer than RECORD) is caught by
default; a libcublas.so.13 replaced by a smaller file by its size; a
libnccl.so.2 with a flipped byte and its old mtime only by --verify. The
ground truth is every RECORD row hashed here with hashlib."""
import base64
import hashlib
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import cudalayout  # noqa: E402
from casekit import by_library, check, check_py, finish  # noqa: E402


def record_truth(site):
    """Files whose size or SHA-256 differs from their RECORD row."""
    bad = set()
    for di in os.listdir(site):
        if not di.endswith(".dist-info"):
            continue
        for line in open(os.path.join(site, di, "RECORD"), newline=""):
            path, digest, size = (line.rstrip("\r\n").split(",") + ["", ""])[:3]
            if not digest.startswith("sha256="):
                continue
            full = os.path.join(site, path)
            data = open(full, "rb").read()
            want = digest[len("sha256="):]
            got = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            if got != want or (size and int(size) != len(data)):
                bad.add(full)
    return bad


def run(py, *extra):
    return check_py(py, *extra, what="check")[1]


def corrupted(doc):
    return by_library(doc, "corrupted_file")


def main(t):
    py, site = cudalayout.venv(os.path.join(t, "v"))
    dists, left_out = cudalayout.lay_out(site)
    cudalayout.torch_install(site)
    print(f"{len(dists)} NVIDIA wheels laid out ({left_out} RECORD rows not on this machine)")
    doc = run(py)
    check(not corrupted(doc), f"intact layout: {list(corrupted(doc))}")
    check(doc["torch"] and doc["torch"][0]["record_files"] > 2000, "every wheel's RECORD is read")

    torch_lib = os.path.join(site, "torch", "lib", "libtorch_cuda.so")
    with open(torch_lib, "r+b") as f:  # our own file: edited in place, same size
        f.seek(100)
        b = f.read(1)
        f.seek(100)
        f.write(bytes([b[0] ^ 0xFF]))
    lib = os.path.join(site, "nvidia", "cu13", "lib")
    cublas = os.path.join(lib, "libcublas.so.13")
    os.unlink(cublas)  # the hard link goes; a smaller build with the same soname comes
    shutil.copyfile(os.path.join(lib, "libcudart.so.13"), cublas)
    nccl = os.path.join(site, "nvidia", "nccl", "lib", "libnccl.so.2")
    st = os.stat(nccl)
    os.unlink(nccl)
    shutil.copyfile(os.path.join(cudalayout.CUDA, "lib", "libnccl.so.2"), nccl)  # a copy, then edit
    with open(nccl, "r+b") as f:
        f.seek(4096)
        b = f.read(1)
        f.seek(4096)
        f.write(bytes([b[0] ^ 1]))
    os.utime(nccl, ns=(st.st_atime_ns, st.st_mtime_ns))  # as old as the install: no stat shows it

    truth = record_truth(site)
    check(truth == {torch_lib, cublas, nccl}, f"ground truth {truth}")
    quick = corrupted(run(py))
    check(set(quick) == {torch_lib, cublas}, f"default check: {list(quick)}")
    full = corrupted(run(py, "--verify"))
    check(set(full) == truth, f"--verify {list(full)}, RECORD says {truth}")
    fix = full.get(nccl, {}).get("fix") or ""
    check("nvidia-nccl-cu13==2.28.9" in fix and "--force-reinstall" in fix, f"nccl's fix: {fix}")


if not cudalayout.available():
    print("skipped: /usr/local/cuda holds no NVIDIA wheels (lib/, dist-info/)")
    sys.exit(0)
with tempfile.TemporaryDirectory() as t:
    main(t)
finish("integrity cases")
