"""check's integrity of a conda environment against conda-meta/*.json
paths_data, laid out as conda links packages: a pytorch package (small
torch built here, a text file with a prefix placeholder that conda
rewrote at install), cudnn (libcudnn.so.9, which libtorch_cpu.so needs
through its RPATH into PREFIX/lib, and a softlink), and zlib, which the
import never touches. The records are written after the files (conda
writes conda-meta last), with sha256 and size_in_bytes from hashlib.
Ground truth: every paths_data row hashed here."""
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import by_library, check, check_py, finish, shared_lib  # noqa: E402

PLACEHOLDER = "/opt/anaconda1anaconda2anaconda3"
SITE_REL = "lib/python3.11/site-packages"


def gcc(out, soname, needs=(), rpath=None, libdirs=()):
    shared_lib(out, soname, needs, rpath, libdirs, fn=soname.split('.')[0].replace('-', '_') + "_fn")


def sha(path):
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


class Package:
    def __init__(self, prefix, name, version, build, channel, url=None, target_prefix=None):
        """PREFIX on this machine; TARGET_PREFIX how the env names itself
        (C:\\conda\\envs\\ml under Wine), written into placeholder files."""
        self.prefix, self.name, self.version, self.build = prefix, name, version, build
        self.target_prefix = target_prefix or prefix
        self.channel, self.url, self.paths = channel, url, []

    def file(self, rel, data=None, placeholder_text=None, sha_in_prefix=True):
        """A file conda hard-linked (DATA), or one it rewrote: the package
        held PLACEHOLDER_TEXT with the build prefix, the env the real one."""
        full = os.path.join(self.prefix, rel)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        if placeholder_text is not None:
            shipped = placeholder_text.encode()
            with open(full, "wb") as f:
                f.write(placeholder_text.replace(PLACEHOLDER, self.target_prefix).encode())
            row = {"_path": rel, "path_type": "hardlink", "sha256": hashlib.sha256(shipped).hexdigest(),
                   "size_in_bytes": len(shipped), "file_mode": "text",
                   "prefix_placeholder": PLACEHOLDER}
            if sha_in_prefix:
                row["sha256_in_prefix"] = sha(full)
        else:
            if data is not None:
                with open(full, "wb") as f:
                    f.write(data)
            row = {"_path": rel, "path_type": "hardlink", "sha256": sha(full),
                   "size_in_bytes": os.path.getsize(full)}
        self.paths.append(row)
        return full

    def link(self, rel, target):
        os.symlink(target, os.path.join(self.prefix, rel))
        self.paths.append({"_path": rel, "path_type": "softlink", "size_in_bytes": len(target)})

    def write(self, mtime):
        rec = {"name": self.name, "version": self.version, "build": self.build,
               "build_number": 0, "channel": self.channel, "subdir": "linux-64",
               "files": [p["_path"] for p in self.paths],
               "paths_data": {"paths_version": 1, "paths": self.paths}}
        if self.url:
            rec["url"] = self.url
        path = os.path.join(self.prefix, "conda-meta", f"{self.name}-{self.version}-{self.build}.json")
        with open(path, "w") as f:
            json.dump(rec, f, indent=2)
        os.utime(path, (mtime, mtime))
        return path


def lay_out(p):
    """The environment at P; returns (python, packages)."""
    os.makedirs(os.path.join(p, "conda-meta"))
    open(os.path.join(p, "conda-meta", "history"), "w").close()
    os.makedirs(os.path.join(p, "bin"))
    subprocess.run(["cp", "/bin/true", os.path.join(p, "bin", "python3.11")], check=True)
    os.symlink("python3.11", os.path.join(p, "bin", "python"))
    lib = os.path.join(p, "lib")
    os.makedirs(lib)
    cudnn = Package(p, "cudnn", "9.1.0.70", "h0000000_0", "https://conda.anaconda.org/conda-forge/linux-64")
    gcc(os.path.join(lib, "libcudnn.so.9"), "libcudnn.so.9")
    cudnn.file("lib/libcudnn.so.9")
    cudnn.link("lib/libcudnn.so", "libcudnn.so.9")
    zlib = Package(p, "zlib", "1.3.1", "h4ab18f5_1", "https://conda.anaconda.org/conda-forge/linux-64")
    gcc(os.path.join(lib, "libz.so.1"), "libz.so.1")
    zlib.file("lib/libz.so.1")

    torch_rel = f"{SITE_REL}/torch"
    tl = os.path.join(p, torch_rel, "lib")
    os.makedirs(tl)
    pt = Package(p, "pytorch", "2.1.0", "py3.11_cuda12.1_cudnn8.9.2_0", "pytorch",
                 "https://conda.anaconda.org/pytorch/linux-64/pytorch-2.1.0-py3.11_cuda12.1_cudnn8.9.2_0.tar.bz2")
    gcc(os.path.join(tl, "libc10.so"), "libc10.so")
    gcc(os.path.join(tl, "libtorch_cpu.so"), "libtorch_cpu.so", ["libc10.so", "libcudnn.so.9"],
        "$ORIGIN:$ORIGIN/../../../..", [tl, lib])
    gcc(os.path.join(p, torch_rel, "_C.cpython-311-x86_64-linux-gnu.so"), "_C.so", ["libtorch_cpu.so"],
        "$ORIGIN/lib", [tl])
    for rel in ("lib/libc10.so", "lib/libtorch_cpu.so", "_C.cpython-311-x86_64-linux-gnu.so"):
        pt.file(f"{torch_rel}/{rel}")
    pt.file(f"{torch_rel}/__init__.py", b"from torch._C import *\n")
    pt.file(f"{torch_rel}/version.py", b"__version__ = '2.1.0'\ncuda = '12.1'\nhip = None\n")
    cmake = pt.file(f"{torch_rel}/share/cmake/Torch/TorchConfig.cmake",
                    placeholder_text=f'set(TORCH_INSTALL_PREFIX "{PLACEHOLDER}")\n'
                                     f'set(CUDNN_ROOT "{PLACEHOLDER}/lib")\n')
    pt.file(f"{torch_rel}/utils/cpp_prefix.py", placeholder_text=f'PREFIX = "{PLACEHOLDER}"\n',
            sha_in_prefix=False)  # a record of an older conda: no sha256_in_prefix
    installed = time.time() - 3600
    for dp, dirs, files in os.walk(p):
        for n in files + dirs:
            os.utime(os.path.join(dp, n), (installed, installed), follow_symlinks=False)
    records = [pkg.write(installed + 10) for pkg in (cudnn, zlib, pt)]
    return os.path.join(p, "bin", "python"), (cudnn, zlib, pt), records, cmake


def truth(packages):
    """Files whose bytes differ from what their record says they are."""
    bad = set()
    for pkg in packages:
        for row in pkg.paths:
            full = os.path.join(pkg.prefix, row["_path"])
            if row["path_type"] != "hardlink":
                continue
            want = row.get("sha256_in_prefix") if "prefix_placeholder" in row else row["sha256"]
            if want and sha(full) != want:
                bad.add(full)
    return bad


def run(py, *extra):
    t = time.monotonic()
    doc = check_py(py, *extra, what="check")[1]
    return doc, (time.monotonic() - t) * 1e3


kinds = by_library  # findings of a kind by library


def flip(path, keep_mtime):
    """One byte of the .comment section ("GCC: ..."): the library still loads."""
    st = os.stat(path)
    at = open(path, "rb").read().index(b"GCC:")
    with open(path, "r+b") as f:
        f.seek(at)
        b = f.read(1)
        f.seek(at)
        f.write(bytes([b[0] ^ 0xFF]))
    if keep_mtime:
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))


def main(t):
    p = os.path.join(t, "env")
    py, (cudnn, zlib, pt), records, cmake = lay_out(p)
    doc, ms = run(py)
    print(f"intact: default check {ms:.0f} ms")
    torch = doc["torch"][0] if doc["torch"] else {}
    check(torch.get("installer") == "conda", f"installer {torch.get('installer')}")
    check(not kinds(doc, "corrupted_file"), f"intact env: {list(kinds(doc, 'corrupted_file'))}")
    check(not kinds(doc, "stray_file"), f"intact env strays: {list(kinds(doc, 'stray_file'))}")
    check(torch.get("record_files", 0) >= 9, f"record rows checked: {torch.get('record_files')}")
    doc, _ = run(py, "--verify")
    check(not kinds(doc, "corrupted_file"),
          f"--verify, intact (placeholder files are not alarms): {list(kinds(doc, 'corrupted_file'))}")

    libcudnn = os.path.join(p, "lib", "libcudnn.so.9")
    flip(libcudnn, keep_mtime=False)  # changed after install: newer than its record
    cpu = os.path.join(p, SITE_REL, "torch", "lib", "libtorch_cpu.so")
    flip(cpu, keep_mtime=True)  # same size, same mtime: only hashing shows it
    libz = os.path.join(p, "lib", "libz.so.1")
    with open(libz, "ab") as f:  # not a file the import touches
        f.write(b"\0" * 16)
    with open(cmake, "a") as f:  # a placeholder file edited by hand after install
        f.write("# edited\n")
    check(truth([cudnn, zlib, pt]) == {libcudnn, cpu, libz, cmake}, f"ground truth {truth([cudnn, zlib, pt])}")

    doc, ms = run(py)
    quick = kinds(doc, "corrupted_file")
    print(f"edited: default check {ms:.0f} ms, named {sorted(quick)}")
    check(set(quick) == {libcudnn, cmake}, f"default check: {sorted(quick)}")
    fix = quick.get(libcudnn, {}).get("fix") or ""
    check(fix == f"conda install -p {p} --force-reinstall conda-forge::cudnn=9.1.0.70=h0000000_0",
          f"cudnn's fix: {fix}")
    check("cudnn 9.1.0.70" in (quick.get(libcudnn, {}).get("detail") or ""), "detail names the package")
    doc, ms = run(py, "--verify")
    full = kinds(doc, "corrupted_file")
    print(f"edited: --verify {ms:.0f} ms, named {sorted(full)}")
    check(set(full) == {libcudnn, cpu, cmake}, f"--verify: {sorted(full)}")
    fix = full.get(cpu, {}).get("fix") or ""
    check(fix == f"conda install -p {p} --force-reinstall "
                 "pytorch::pytorch=2.1.0=py3.11_cuda12.1_cudnn8.9.2_0", f"pytorch's fix: {fix}")

    stray = os.path.join(p, SITE_REL, "torch", "lib", "libstray.so")
    open(stray, "wb").close()
    doc, _ = run(py)
    check(set(kinds(doc, "stray_file")) == {stray}, f"strays: {list(kinds(doc, 'stray_file'))}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as t:
        main(t)
    finish("conda integrity cases")
