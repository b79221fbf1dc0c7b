"""check names a library that no RECORD lists beside another version of
it that one does: libcudnn.so.8 left in nvidia/cudnn/lib beside the
nvidia-cudnn-cu12 wheel's libcudnn.so.9, and a copy of it in torch/lib,
each named once, with the copy the loader maps (also when that is not the
listed one: LD_LIBRARY_PATH ahead of a DT_RUNPATH). Ground truth: ld.so
itself loading torch's _C with LD_BIND_NOW=1 (ctypes, RTLD_NOW), the
libraries it mapped read from /proc/self/maps."""
import functools
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import cudalayout  # noqa: E402
from casekit import by_library, check, check_py, finish, kinds  # noqa: E402
from casekit import shared_lib  # noqa: E402
from pkgmeta import dist_info  # noqa: E402

gcc = functools.partial(shared_lib, fn="fn")


def ld_so_maps(lib, **env):
    """The files ld.so maps loading LIB (RTLD_NOW, every symbol bound)."""
    code = ("import ctypes, sys\nctypes.CDLL(sys.argv[1], mode=ctypes.RTLD_GLOBAL | 2)\n"
            "print('\\n'.join(sorted({l.split()[-1] for l in open('/proc/self/maps') if '/' in l})))\n")
    out = subprocess.run([sys.executable, "-c", code, lib], capture_output=True, text=True, check=True,
                         env=dict(os.environ, LD_BIND_NOW="1", **env)).stdout
    return set(out.split())


def lay_out(t):
    py, site = cudalayout.venv(os.path.join(t, "v"))
    cudnn = os.path.join(site, "nvidia", "cudnn", "lib")
    os.makedirs(cudnn)
    open(os.path.join(site, "nvidia", "cudnn", "__init__.py"), "w").close()
    gcc(os.path.join(cudnn, "libcudnn.so.9"), "libcudnn.so.9")
    dist_info(site, "nvidia-cudnn-cu12", "9.1.0.70", [], ["nvidia/cudnn/__init__.py",
                                                          "nvidia/cudnn/lib/libcudnn.so.9"])
    lib = os.path.join(site, "torch", "lib")
    os.makedirs(lib)
    gcc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libcudnn.so.9"],
        "$ORIGIN/../../nvidia/cudnn/lib", [cudnn])
    ext = "_C.cpython-311-x86_64-linux-gnu.so"
    gcc(os.path.join(site, "torch", ext), "_C.so", ["libtorch_cuda.so"], "$ORIGIN/lib", [lib])
    with open(os.path.join(site, "torch", "__init__.py"), "w") as f:
        f.write("from torch._C import *\n")
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write("__version__ = '2.4.0+cu121'\ncuda = '12.1'\nhip = None\n")
    dist_info(site, "torch", "2.4.0+cu121", [],
              ["torch/__init__.py", "torch/version.py", "torch/lib/libtorch_cuda.so", f"torch/{ext}"])
    # What an upgrade from cuDNN 8 left: files no RECORD lists.
    old = os.path.join(cudnn, "libcudnn.so.8")
    gcc(old, "libcudnn.so.8")
    copy = os.path.join(lib, "libcudnn.so.8")
    gcc(copy, "libcudnn.so.8")
    return py, site, os.path.join(site, "torch", ext), old, copy, os.path.join(cudnn, "libcudnn.so.9")


def main(t):
    py, site, ext, old, copy, new = lay_out(t)
    mapped = ld_so_maps(ext)
    check(new in mapped and old not in mapped and copy not in mapped,
          f"ld.so maps {sorted(m for m in mapped if 'cudnn' in m)}")
    doc = check_py(py)[1]
    strays = kinds(doc, "stray_file")
    named = {f["library"]: f for f in strays}
    check(sorted(named) == sorted([old, copy]) and len(strays) == 2, f"named {[f['library'] for f in strays]}")
    for path in (old, copy):
        f = named.get(path, {})
        d = f.get("detail") or ""
        print(f"{path}: {d}")
        check(f"beside {new}" in d, f"{path}: the listed version named")
        check(f"the import maps {new}" in d, f"{path}: the copy ld.so maps named")
        check("nvidia-cudnn-cu12 9.1.0.70" in d, f"{path}: its owner named")
        check("not loaded" in d, f"{path}: not loaded, as ld.so shows")
        check(shlex.split(f.get("fix") or "") == ["rm", path], f"{path}: fix {f.get('fix')}")
        check(f.get("severity") == "warning", f"{path}: severity {f.get('severity')}")

    # A leftover that something needs by its own name: the loader maps it.
    lib = os.path.dirname(copy)
    os.unlink(old)
    gcc(os.path.join(lib, "libcaffe2_old.so"), "libcaffe2_old.so", ["libcudnn.so.8"], "$ORIGIN", [lib])
    gcc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libcudnn.so.9", "libcaffe2_old.so"],
        "$ORIGIN/../../nvidia/cudnn/lib:$ORIGIN", [os.path.dirname(new), lib])
    mapped = ld_so_maps(ext)
    check(copy in mapped and new in mapped, f"ld.so maps both: {sorted(m for m in mapped if 'cudnn' in m)}")
    f = by_library(check_py(py)[1], "stray_file").get(copy, {})
    d = f.get("detail") or ""
    print(f"needed: {d}")
    check("is loaded too" in d and "libcaffe2_old.so needs it" in d, "the leftover is loaded, and by whom")
    check("--force-reinstall" in (f.get("fix") or ""), f"a needed leftover is not simply removed: {f.get('fix')}")

    # The copy the loader maps is not always the listed one: with DT_RUNPATH,
    # LD_LIBRARY_PATH comes first, and a libcudnn.so.9 there wins.
    os.unlink(os.path.join(lib, "libcaffe2_old.so"))
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", os.path.join(lib, "libtorch_cuda.so"), "-x", "c", "-",
                    "-Wl,-soname,libtorch_cuda.so", "-Wl,--no-as-needed", "-Wl,--enable-new-dtags",
                    "-Wl,-rpath,$ORIGIN/../../nvidia/cudnn/lib", f"-L{os.path.dirname(new)}", "-l:libcudnn.so.9"],
                   input="int fn(void) { return 0; }\n", text=True, check=True)
    shadow = os.path.join(t, "shadow")
    os.makedirs(shadow)
    gcc(os.path.join(shadow, "libcudnn.so.9"), "libcudnn.so.9")
    picked = os.path.join(shadow, "libcudnn.so.9")
    mapped = ld_so_maps(ext, LD_LIBRARY_PATH=shadow)
    check(picked in mapped and new not in mapped, f"ld.so maps {sorted(m for m in mapped if 'cudnn' in m)}")
    doc = check_py(py, env=dict(os.environ, HOME="/nonexistent", LD_LIBRARY_PATH=shadow))[1]
    f = by_library(doc, "stray_file").get(copy, {})
    d = f.get("detail") or ""
    print(f"LD_LIBRARY_PATH: {d}")
    check(f"the import maps {picked} (LD_LIBRARY_PATH)" in d, "names the copy ld.so maps, not the listed one")


with tempfile.TemporaryDirectory() as t:
    main(t)
finish("leftover cases")
