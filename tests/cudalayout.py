"""Lays out the NVIDIA CUDA 13 wheels under /usr/local/cuda (lib/, include/,
bin/ … and their real dist-info/) in a site-packages exactly as pip does:
every RECORD row at its path, as a HARD LINK to the original (never
modified: tests copy a file before editing it), the dist-info folders
copied (RECORD kept byte for byte, CRLF and all). Rows whose file is not
on this machine are left out of the copied RECORD; their count is returned.
Plus a small torch-shaped install whose libtorch_cuda.so needs the CUDA
libraries through DT_RPATH, as the real wheel's does."""
import base64
import collections
import hashlib
import os
import shutil
import subprocess

CUDA = "/usr/local/cuda"


def available():
    return os.path.isdir(os.path.join(CUDA, "dist-info")) and os.path.isdir(os.path.join(CUDA, "lib"))


def _index():
    idx = collections.defaultdict(list)
    for dp, _, files in os.walk(CUDA):
        if "dist-info" in dp.split(os.sep):
            continue
        for f in files:
            p = os.path.join(dp, f)
            if os.path.isfile(p) and not os.path.islink(p):
                idx[(f, os.path.getsize(p))].append(p)
    return idx


def _sha(path):
    digest = hashlib.sha256(open(path, "rb").read()).digest()
    return "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


def lay_out(site):
    """The wheels in SITE; returns (dist-info dirs, rows left out)."""
    idx, dists, left_out = _index(), [], 0
    for di in sorted(os.listdir(os.path.join(CUDA, "dist-info"))):
        src = os.path.join(CUDA, "dist-info", di)
        dst = os.path.join(site, di)
        shutil.copytree(src, dst)
        kept = []
        for line in open(os.path.join(src, "RECORD"), "rb").read().splitlines(keepends=True):
            parts = line.rstrip(b"\r\n").decode().split(",")
            path = parts[0]
            if path.startswith(di + "/") or len(parts) < 3 or not parts[2]:
                kept.append(line)
                continue
            hits = idx.get((os.path.basename(path), int(parts[2])))
            if not hits:
                left_out += 1
                continue
            if len(hits) > 1:  # same name and size (thrust's omp/ and cpp/ headers): by hash
                hits = [h for h in hits if _sha(h) == parts[1]] or hits
            target = os.path.join(site, path)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            if not os.path.exists(target):
                os.link(hits[0], target)
            kept.append(line)
        with open(os.path.join(dst, "RECORD"), "wb") as f:
            f.write(b"".join(kept))
        dists.append(dst)
    return dists, left_out


def torch_install(site, version="2.10.0+cu130", cuda="13.0", needs=("libcublas.so.13", "libcudnn.so.9",
                                                                    "libnccl.so.2", "libcusolver.so.12")):
    """torch/ with lib/libtorch_cuda.so (DT_RPATH into nvidia/…/lib) and
    _C.so needing it, version.py, and a RECORD; returns the dist-info."""
    import sys
    sys.path.insert(0, os.path.dirname(__file__))
    from pkgmeta import dist_info
    lib = os.path.join(site, "torch", "lib")
    os.makedirs(lib, exist_ok=True)
    rpath = ":".join(f"$ORIGIN/../../nvidia/{d}/lib" for d in ("cu13", "cudnn", "nccl"))
    links = [os.path.join(site, "nvidia", d, "lib") for d in ("cu13", "cudnn", "nccl")]
    args = ["gcc", "-shared", "-fPIC", "-o", os.path.join(lib, "libtorch_cuda.so"), "-x", "c", "-",
            "-Wl,-soname,libtorch_cuda.so", "-Wl,--disable-new-dtags", f"-Wl,-rpath,{rpath}",
            "-Wl,--no-as-needed"] + [f"-L{d}" for d in links] + [f"-l:{n}" for n in needs]
    subprocess.run(args, input="int torch_cuda(void) { return 0; }\n", text=True, check=True)
    ext = "_C.cpython-311-x86_64-linux-gnu.so"
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", os.path.join(site, "torch", ext), "-x", "c", "-",
                    "-Wl,--disable-new-dtags", "-Wl,-rpath,$ORIGIN/lib", "-Wl,--no-as-needed",
                    f"-L{lib}", "-l:libtorch_cuda.so"],
                   input="int PyInit__C(void) { return 0; }\n", text=True, check=True)
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write(f"__version__ = '{version}'\ncuda: Optional[str] = '{cuda}'\nhip = None\n")
    return dist_info(site, "torch", version, [],
                     ["torch/version.py", "torch/lib/libtorch_cuda.so", f"torch/{ext}"])


def venv(root):
    """An empty venv on /usr/bin/python3.11: (python, site-packages)."""
    site = os.path.join(root, "lib", "python3.11", "site-packages")
    os.makedirs(site)
    os.makedirs(os.path.join(root, "bin"))
    os.symlink("/usr/bin/python3.11", os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    return os.path.join(root, "bin", "python3"), site
