"""check holds every pin that matters to torch against what is installed,
as `pip check` does, and a violated pin absorbs the missing libraries it
explains. A venv built here: torch 2.1.2+cu121 (its real Requires-Dist)
whose libraries need libcudnn.so.8 through DT_RPATH, as the wheel's do,
beside nvidia-cudnn-cu12 9.1.0.70 (which ships libcudnn.so.9): small
synthetic libraries with the cu12 sonames. Ground truth: Debian's pip
check over the same site dir."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, check_py, finish, kinds, shared_lib  # noqa: E402
from pkgmeta import TORCH_212_REQUIRES, dist_info  # noqa: E402


def cc(out, soname, needs=(), rpath=None, link_dir=None):
    shared_lib(out, soname, needs, rpath, [link_dir] if needs else ())


def venv(t, cudnn):
    root = os.path.join(t, f"venv-{cudnn}")
    site = os.path.join(root, "lib", "python3.11", "site-packages")
    lib, cudnn_lib = os.path.join(site, "torch", "lib"), os.path.join(site, "nvidia", "cudnn", "lib")
    for d in (lib, cudnn_lib, os.path.join(root, "bin")):
        os.makedirs(d)
    os.symlink("/usr/bin/python3.11", os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    major = cudnn.split(".")[0]
    stubs = os.path.join(t, f"stubs-{cudnn}")  # link-time only: what the wheel was built against
    os.makedirs(stubs)
    cc(os.path.join(stubs, "libcudnn.so.8"), "libcudnn.so.8")
    cc(os.path.join(cudnn_lib, f"libcudnn.so.{major}"), f"libcudnn.so.{major}")
    cc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libcudnn.so.8"],
       "$ORIGIN/../../nvidia/cudnn/lib", stubs)
    os.symlink(os.path.join(lib, "libtorch_cuda.so"), os.path.join(stubs, "libtorch_cuda.so"))
    ext = os.path.join(site, "torch", "_C.cpython-311-x86_64-linux-gnu.so")
    cc(ext, "_C.so", ["libtorch_cuda.so", "libcudnn.so.8"], "$ORIGIN/lib:$ORIGIN/../nvidia/cudnn/lib",
       stubs)
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write("__version__ = '2.1.2+cu121'\ncuda: Optional[str] = '12.1'\nhip = None\n")
    torch_files = ["torch/version.py", "torch/lib/libtorch_cuda.so",
                   "torch/_C.cpython-311-x86_64-linux-gnu.so"]
    dist_info(site, "torch", "2.1.2+cu121", TORCH_212_REQUIRES, torch_files)
    dist_info(site, "nvidia-cudnn-cu12", cudnn, ["nvidia-cublas-cu12"],
              [f"nvidia/cudnn/lib/libcudnn.so.{major}"])
    dist_info(site, "nvidia-cublas-cu12", "12.1.3.1")
    return os.path.join(root, "bin", "python3"), site


def pip_check(site):
    """pip check's conflicts ("X has requirement R, but you have N V.") for
    distributions of SITE, as (requirer, required) pairs."""
    p = subprocess.run(["/usr/bin/python3", "-m", "pip", "check"], capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=site, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    out = set()
    for line in p.stdout.splitlines():
        m = re.match(r"(\S+) \S+ has requirement ([A-Za-z0-9._-]+)", line)
        if m:
            out.add((m.group(1), m.group(2).lower()))
    return out


def violated(t):
    py, site = venv(t, "9.1.0.70")
    truth = pip_check(site)
    check(("torch", "nvidia-cudnn-cu12") in truth, f"pip check says {truth}")
    rc, doc = check_py(py)
    errs = [f for f in doc["findings"] if f["severity"] == "error"]
    pins = [f for f in errs if f["kind"] == "companion_mismatch"]
    check(rc == 1 and len(errs) == 1 and len(pins) == 1, f"one error finding: {errs}")
    check({("torch", f["library"]) for f in pins} == truth, f"pip check {truth}, torchdoctor {pins}")
    if pins:
        f = pins[0]
        check('nvidia-cudnn-cu12==8.9.2.26' in f["fix"] and " -m pip install " in f["fix"],
              f"the fix: {f['fix']}")
        check("9.1.0.70" in f["detail"] and "libcudnn.so.8" in f["detail"], f"the detail: {f['detail']}")
    check(not kinds(doc, "missing_library"),
          f"libcudnn.so.8 folded in: {doc['findings']}")


def kept(t):
    py, site = venv(t, "8.9.2.26")
    check(not pip_check(site), "pip check: no conflict with the pinned cuDNN")
    rc, doc = check_py(py)
    pins = [f for f in doc["findings"] if f["kind"] in ("companion_mismatch", "missing_library")]
    check(not pins, f"the pinned cuDNN: {pins}")


if not os.path.exists("/usr/lib/python3/dist-packages/pip"):
    print("skipped: Debian's python3-pip (the ground truth) is not installed")
    sys.exit(0)
with tempfile.TemporaryDirectory() as t:
    violated(t)
    kept(t)
finish("pins cases")
