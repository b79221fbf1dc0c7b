"""The streaming limit of `torchdoctor wheel`: a wheel of more than 2 GiB,
built in a temporary folder (stored members: an extension module padded
with zeros to 1.1 GB, read in place, and 1 GB of zeros), is read with a
bounded resident set (< 200 MB, /usr/bin/time -v's maximum resident set
size), every RECORD hash verified, and the module's finding still made.
No timing is asserted; the time taken is printed (bench/wheel.sh measures)."""
import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish  # noqa: E402

LIMIT = 200 << 20
T = tempfile.mkdtemp(prefix="td-wheel-big-") if __name__ == "__main__" else None
CHUNK = b"\0" * (8 << 20)


def build_so(t):
    c = os.path.join(t, "m.c")
    with open(c, "w") as f:
        f.write("#include <pthread.h>\nstatic void *run(void *p) { return p; }\n"
                "int spawn(void) { pthread_t t; return pthread_create(&t, 0, run, 0); }\n"
                "void *PyModule_Create2(void *, int);\nvoid *PyInit__C(void) { return PyModule_Create2(0, 1013); }\n")
    so = os.path.join(t, "m.so")
    subprocess.run(["gcc", "-O2", "-shared", "-fPIC", "-o", so, c], check=True)
    return open(so, "rb").read()


def write_member(z, name, head, size, rows, method):
    h = hashlib.sha256()
    info = zipfile.ZipInfo(name)
    info.compress_type = method
    with z.open(info, "w", force_zip64=True) as f:
        f.write(head)
        h.update(head)
        left = size - len(head)
        while left > 0:
            piece = CHUNK if left >= len(CHUNK) else CHUNK[:left]
            f.write(piece)
            h.update(piece)
            left -= len(piece)
    digest = base64.urlsafe_b64encode(h.digest()).rstrip(b"=").decode()
    rows.append(f"{name},sha256={digest},{size}\n")


def build_wheel(t, so_size=1100 << 20, data_size=1024 << 20, method=zipfile.ZIP_STORED):
    """Writes T/big-1.0-cp311-cp311-manylinux_2_17_x86_64.whl: a module padded
    with zeros to SO_SIZE, DATA_SIZE bytes of zeros, METADATA, WHEEL, RECORD
    (members stored, or deflated: METHOD). Used by bench/wheel.sh too."""
    path = os.path.join(t, "big-1.0-cp311-cp311-manylinux_2_17_x86_64.whl")
    rows = []
    with zipfile.ZipFile(path, "w", method, allowZip64=True, compresslevel=1) as z:
        write_member(z, "big/_C.cpython-311-x86_64-linux-gnu.so", build_so(t), so_size, rows, method)
        write_member(z, "big/weights.bin", b"", data_size, rows, method)
        di = "big-1.0.dist-info/"
        for name, text in ((di + "METADATA", "Metadata-Version: 2.1\nName: big\nVersion: 1.0\n\n"),
                           (di + "WHEEL", "Wheel-Version: 1.0\nRoot-Is-Purelib: false\n"
                                          "Tag: cp311-cp311-manylinux_2_17_x86_64\n")):
            write_member(z, name, text.encode(), len(text), rows, method)
        z.writestr(di + "RECORD", "".join(rows) + di + "RECORD,,\n")
    return path


def main():
    need = 2300 << 20
    if shutil.disk_usage(T).free < need + (1 << 30):
        print(f"skipped: less than {need >> 20} MB free under {T}")
        return
    if not os.access("/usr/bin/time", os.X_OK):
        print("skipped: no /usr/bin/time (Debian package time)")
        return
    path = build_wheel(T)
    size = os.path.getsize(path)
    check(size >= 2 << 30, f"the wheel is {size} bytes, at least 2 GiB")
    p = subprocess.run(["/usr/bin/time", "-v", TD, "wheel", "--format", "json", path],
                       capture_output=True, text=True)
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", p.stderr).group(1)) * 1024
    wall = re.search(r"Elapsed \(wall clock\) time.*: (\S+)", p.stderr).group(1)
    print(f"{size / 1e9:.2f} GB wheel: maximum RSS {rss / 1e6:.1f} MB, wall {wall}")
    check(rss < LIMIT, f"maximum RSS {rss} < {LIMIT}")
    import json
    doc = json.loads(p.stdout)
    w = doc["wheels"][0]
    check(w["record_verified"] == 4, f"every hash verified: {w['record_verified']}")
    kinds = [(f["kind"], f["symbol"]) for f in doc["findings"] if f["severity"] == "error"]
    check(kinds == [("symbol_version_too_new", "pthread_create@GLIBC_2.34")], f"findings: {kinds}")
    check(p.returncode == 1, f"exit {p.returncode}")


if __name__ == "__main__":
    try:
        main()
    finally:
        shutil.rmtree(T, ignore_errors=True)
    finish("wheel_big")
