"""A missing library's fix names what provides it, for the installer that
put the package there (probe/install/provider.c), never "the package that ships":

- a file an installed wheel's RECORD lists (the real CUDA 13 wheels from
  /usr/local/cuda laid out as pip does, one hard link deleted in the
  copy): reinstall that wheel at its version; pip show -f is the ground
  truth for who owns the file, and the INSTALLER decides pip or uv;
- the same with a wheel pip installs here from a local index: running the
  printed command (plus --no-index --find-links) brings the file back and
  ld.so (LD_BIND_NOW=1, through ctypes) loads the library again;
- a file a conda package's conda-meta record lists: conda install -p
  PREFIX --force-reinstall NAME=VERSION -c CHANNEL;
- a CUDA 12 soname no installed wheel lists: the nvidia-*-cu12 wheel of
  data/cuda_wheel_libraries.tsv at the version torch's Requires-Dist pins
  (importlib.metadata reads the same pin), and check says the same for
  torch's import closure;
- libgomp.so.1 under a Debian root: apt-get install libgomp1 (dpkg -S on
  this machine says the same), under a Fedora root dnf by soname;
  libcuda.so.1: the NVIDIA driver with the minimum for torch's CUDA;
- a Windows torch\\lib DLL without vcruntime140_1.dll: the VC++
  Redistributable of the DLL's machine (x64, x86) with its winget id and
  Microsoft's link; an api-ms-win-crt-* import without ucrtbase.dll: the
  Universal C Runtime; nvcuda.dll: the driver, with the Windows minimum
  for torch's CUDA."""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import cudalayout  # noqa: E402
from casekit import TD, check, finish, shared_lib  # noqa: E402
from pkgmeta import TORCH_212_REQUIRES, dist_info  # noqa: E402

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests", "cmd"))
import fake_wheels  # noqa: E402

fixes = []
PY = "/usr/bin/python3"


def missing(*args):
    p = subprocess.run([TD, "deps", "--no-symbols", "--format", "json", *args], capture_output=True,
                       text=True)
    check(p.returncode in (0, 1), f"deps exit {p.returncode}: {p.stderr[-300:]}")
    found = {}
    for f in json.loads(p.stdout)["findings"] if p.stdout else []:
        fixes.append(f.get("fix") or "")
        if f["kind"] == "missing_library":
            found[f["library"]] = f["fix"]
    return found


def cc(out, soname, needs=(), rpath=None, link_dir=None):
    shared_lib(out, soname, needs, rpath, [link_dir or "."] if needs else ())


def sysroot(t, name, distro=None):
    """A --root whose default directories are this machine's, without its
    ld.so.cache (which holds /usr/local/cuda's copies of the CUDA 13
    libraries): what ld.so --inhibit-cache sees."""
    root = os.path.join(t, name)
    for d in ("lib", "usr/lib", "etc"):
        os.makedirs(os.path.join(root, d))
    if distro is not None:
        for d in ("lib", "usr/lib"):
            os.symlink(f"/{d}/x86_64-linux-gnu", os.path.join(root, d, "x86_64-linux-gnu"))
    if distro:
        with open(os.path.join(root, "etc", "os-release"), "w") as f:
            f.write(f"ID={distro}\nVERSION_ID=1\n")
    return root


def ld_so_error(lib):
    """What ld.so (without its cache, as sysroot's) says loading LIB with
    every symbol bound now, or None."""
    p = subprocess.run(["/lib64/ld-linux-x86-64.so.2", "--inhibit-cache", PY, "-c",
                        f"import ctypes; ctypes.CDLL({lib!r})"], capture_output=True,
                       text=True, env=dict(os.environ, LD_BIND_NOW="1"))
    return None if p.returncode == 0 else p.stderr.strip().splitlines()[-1]


def pip_owner(site, rel):
    """(name, version) of the distribution pip says installed REL."""
    env = dict(os.environ, PYTHONPATH=site, PIP_DISABLE_PIP_VERSION_CHECK="1")
    names = [d.split("-")[0] for d in os.listdir(site) if d.endswith(".dist-info")]
    out = subprocess.run([PY, "-m", "pip", "show", "-f", *names], capture_output=True, text=True,
                         env=env).stdout
    for block in out.split("\n---\n"):
        if any(line.strip() == rel for line in block.splitlines()):
            name = re.search(r"^Name: (\S+)", block, re.M).group(1)
            return name.lower(), re.search(r"^Version: (\S+)", block, re.M).group(1)
    return None


def cu13_record(t):
    if not cudalayout.available():
        print("skipped: the CUDA 13 wheels are not under /usr/local/cuda")
        return
    root = sysroot(t, "cu13", "debian")
    py, site = cudalayout.venv(os.path.join(root, "venv"))
    py = py[len(root):]  # as the target names it
    cudalayout.lay_out(site)
    cudalayout.torch_install(site)
    rel = "nvidia/cu13/lib/libcusolver.so.12"
    os.unlink(os.path.join(site, rel))  # the hard link in the copy, not the original
    err = ld_so_error(os.path.join(site, "torch", "lib", "libtorch_cuda.so"))
    check(err and "libcusolver.so.12" in err, f"ld.so should miss libcusolver.so.12: {err}")
    owner = pip_owner(site, rel)
    check(owner == ("nvidia-cusolver", "12.0.4.66"), f"pip's owner of {rel}: {owner}")
    ext = os.path.join(site, "torch", "_C.cpython-311-x86_64-linux-gnu.so")
    fix = missing("--root", root, ext).get("libcusolver.so.12", "")
    want = f"{py} -m pip install --force-reinstall --no-deps {owner[0]}=={owner[1]}"
    check(fix.startswith(want), f"cu13 RECORD fix: {fix!r}, want {want!r}")
    check(rel in fix, f"the fix names the RECORD row: {fix!r}")
    di = [d for d in os.listdir(site) if d.startswith("nvidia_cusolver-")][0]
    with open(os.path.join(site, di, "INSTALLER"), "w") as f:
        f.write("uv\n")
    fix = missing("--root", root, ext).get("libcusolver.so.12", "")
    want = f"uv pip install --reinstall --no-deps --python {py} nvidia-cusolver==12.0.4.66"
    check(fix.startswith(want), f"uv fix: {fix!r}, want {want!r}")


def pip_round_trip(t):
    """The printed command, run: pip puts the file back and ld.so loads."""
    root = os.path.join(t, "rt")
    subprocess.run([PY, "-m", "venv", "--without-pip", "--system-site-packages", root], check=True)
    py = os.path.join(root, "bin", "python3")
    site = subprocess.run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    build, wheels = os.path.join(t, "rt-build"), os.path.join(t, "rt-wheels")
    os.makedirs(build), os.makedirs(wheels)
    cc(os.path.join(build, "libnvshmem_host.so.3"), "libnvshmem_host.so.3")
    data = open(os.path.join(build, "libnvshmem_host.so.3"), "rb").read().decode("latin-1")
    path = fake_wheels.wheel(wheels, "nvidia-nvshmem-cu13", "3.3.20", {"nvidia/nvshmem/lib/libnvshmem_host.so.3": ""})
    # fake_wheels writes text; the library is binary: rewrite the one member.
    import zipfile
    with zipfile.ZipFile(path) as z:
        members = {n: z.read(n) for n in z.namelist()}
    members["nvidia/nvshmem/lib/libnvshmem_host.so.3"] = data.encode("latin-1")
    rec = [n for n in members if n.endswith("RECORD")][0]
    members[rec] = "\n".join(
        fake_wheels.record_line(n, b) for n, b in members.items() if n != rec).encode() + \
        f"\n{rec},,\n".encode()
    with zipfile.ZipFile(path, "w") as z:
        for n, b in members.items():
            z.writestr(n, b)
    pip = [py, "-m", "pip", "install", "--no-index", "--find-links", wheels, "--quiet",
           "--disable-pip-version-check"]
    subprocess.run(pip + ["nvidia-nvshmem-cu13==3.3.20"], check=True)
    lib = os.path.join(site, "torch", "lib")
    os.makedirs(lib)
    cc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libnvshmem_host.so.3"],
       "$ORIGIN/../../nvidia/nvshmem/lib", build)
    dist_info(site, "torch", "2.10.0+cu130", [], ["torch/lib/libtorch_cuda.so"])
    os.unlink(os.path.join(site, "nvidia", "nvshmem", "lib", "libnvshmem_host.so.3"))
    target = os.path.join(lib, "libtorch_cuda.so")
    check(ld_so_error(target), "ld.so should fail before the fix")
    fix = missing("--profile", "dlopen", target).get("libnvshmem_host.so.3", "")
    cmd = fix.split("  #")[0]
    check(cmd == f"{py} -m pip install --force-reinstall --no-deps nvidia-nvshmem-cu13==3.3.20",
          f"round-trip fix: {fix!r}")
    if cmd.startswith(py):
        p = subprocess.run(cmd.split() + ["--no-index", "--find-links", wheels, "--quiet",
                                          "--disable-pip-version-check"], capture_output=True, text=True)
        check(p.returncode == 0, f"the fix failed under pip: {p.stderr[-300:]}")
    check(ld_so_error(target) is None, f"ld.so after the fix: {ld_so_error(target)}")
    check(missing("--profile", "dlopen", target) == {}, "deps after the fix still misses something")


def cu12_table(t):
    """No nvidia-cublas-cu12 installed: the wheel torch 2.1.2 pins."""
    root = sysroot(t, "cu12", "debian")
    py, site = cudalayout.venv(os.path.join(root, "venv"))
    py = py[len(root):]
    lib, stubs = os.path.join(site, "torch", "lib"), os.path.join(t, "stubs12")
    os.makedirs(lib), os.makedirs(stubs)
    cc(os.path.join(stubs, "libcublas.so.12"), "libcublas.so.12")
    cc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libcublas.so.12"],
       "$ORIGIN/../../nvidia/cublas/lib", stubs)
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write("__version__ = '2.1.2+cu121'\ncuda: Optional[str] = '12.1'\nhip = None\n")
    dist_info(site, "torch", "2.1.2+cu121", TORCH_212_REQUIRES,
              ["torch/version.py", "torch/lib/libtorch_cuda.so"])
    pin = subprocess.run([PY, "-c", "import importlib.metadata as m, sys; sys.path[:0] = [sys.argv[1]];"
                          "print([r for r in m.requires('torch') if r.startswith('nvidia-cublas-cu12')][0])",
                          site], capture_output=True, text=True).stdout
    version = re.search(r"==\s*([0-9.]+)", pin).group(1) if "==" in pin else None
    check(version == "12.1.3.1", f"importlib.metadata's pin: {pin!r}")
    fix = missing("--root", root, "--profile", "dlopen",
                  os.path.join(lib, "libtorch_cuda.so")).get("libcublas.so.12", "")
    want = f"{py} -m pip install nvidia-cublas-cu12=={version}"
    check(fix.startswith(want), f"cu12 table fix: {fix!r}, want {want!r}")
    # A file of torch itself: a +cu121 build is on its CUDA index, not on PyPI.
    cc(os.path.join(lib, "libtorch_python.so"), "libtorch_python.so", ["libtorch_cuda.so"], "$ORIGIN", lib)
    os.unlink(os.path.join(lib, "libtorch_cuda.so"))
    fix = missing("--root", root, "--profile", "dlopen",
                  os.path.join(lib, "libtorch_python.so")).get("libtorch_cuda.so", "")
    want = (f"{py} -m pip install --force-reinstall --no-deps torch==2.1.2+cu121 "
            "--index-url https://download.pytorch.org/whl/cu121")
    check(fix.startswith(want), f"torch's own file: {fix!r}, want {want!r}")


def conda_meta(t):
    """A conda environment: the package whose conda-meta record lists the
    file, from its channel (the record's format: conda's PrefixRecord)."""
    root = sysroot(t, "conda", "debian")
    prefix = os.path.join(root, "opt", "env")
    site = os.path.join(prefix, "lib", "python3.11", "site-packages")
    lib = os.path.join(site, "torch", "lib")
    os.makedirs(lib), os.makedirs(os.path.join(prefix, "conda-meta"))
    stubs = os.path.join(t, "conda-stubs")
    os.makedirs(stubs)
    cc(os.path.join(stubs, "libcudnn.so.9"), "libcudnn.so.9")
    cc(os.path.join(lib, "libtorch_cuda.so"), "libtorch_cuda.so", ["libcudnn.so.9"],
       "$ORIGIN/../../../..", stubs)  # conda's torch finds $PREFIX/lib
    record = {"name": "cudnn", "version": "9.1.1.17", "build": "cuda12_0",
              "channel": "https://conda.anaconda.org/conda-forge/linux-64",
              "files": ["include/cudnn.h", "lib/libcudnn.so.9"],
              "paths_data": {"paths_version": 1, "paths": [
                  {"_path": "include/cudnn.h", "path_type": "hardlink", "size_in_bytes": 1},
                  {"_path": "lib/libcudnn.so.9", "path_type": "hardlink", "size_in_bytes": 1}]}}
    with open(os.path.join(prefix, "conda-meta", "cudnn-9.1.1.17-cuda12_0.json"), "w") as f:
        json.dump(record, f, indent=2)
    dist_info(site, "torch", "2.5.1", [], ["torch/lib/libtorch_cuda.so"], installer="conda")
    fix = missing("--root", root, "--profile", "dlopen",
                  os.path.join(lib, "libtorch_cuda.so")).get("libcudnn.so.9", "")
    want = "conda install -p /opt/env --force-reinstall conda-forge::cudnn=9.1.1.17=cuda12_0"
    check(fix.startswith(want), f"conda fix: {fix!r}, want {want!r}")


def check_cu12(t):
    """check names the same wheel for torch's import closure."""
    py, site = cudalayout.venv(os.path.join(t, "chk"))
    stub = os.path.join(site, "nvidia", "cu13", "lib")  # a link-time stub where torch_install links
    os.makedirs(stub)
    cc(os.path.join(stub, "libcublas.so.12"), "libcublas.so.12")
    cudalayout.torch_install(site, "2.1.2+cu121", "12.1", needs=("libcublas.so.12",))
    shutil.rmtree(os.path.join(site, "nvidia"))
    dist_info(site, "torch", "2.1.2+cu121", TORCH_212_REQUIRES,
              ["torch/version.py", "torch/lib/libtorch_cuda.so", "torch/_C.cpython-311-x86_64-linux-gnu.so"])
    p = subprocess.run([TD, "check", "--format", "json", "--no-gpu", "--python", py], capture_output=True,
                       text=True, env=dict(os.environ, HOME="/nonexistent"))
    check(p.returncode == 1, f"check exit {p.returncode}: {p.stderr[-300:]}")
    got = [f for f in json.loads(p.stdout)["findings"] if f["kind"] == "missing_library"] if p.stdout else []
    fixes.extend(f.get("fix") or "" for f in got)
    want = f"{py} -m pip install nvidia-cublas-cu12==12.1.3.1"
    check(any(f["library"].endswith("libcublas.so.12") and f["fix"].startswith(want) for f in got),
          f"check's libcublas.so.12 fix: {[f['fix'] for f in got]}, want {want!r}")


def system_libs(t):
    """libgomp.so.1 and libcuda.so.1 from the system, under --root."""
    truth = subprocess.run(["dpkg", "-S", "/usr/lib/x86_64-linux-gnu/libgomp.so.1"],
                           capture_output=True, text=True).stdout.split(":")[0]
    for distro, want in (("debian", f"sudo apt-get install {truth or 'libgomp1'}"),
                         ("fedora", "sudo dnf install 'libgomp.so.1()(64bit)'")):
        root = sysroot(t, f"root-{distro}")  # no system libraries at all
        with open(os.path.join(root, "etc", "os-release"), "w") as f:
            f.write(f"ID={distro}\nVERSION_ID=1\n")
        lib = os.path.join(root, "venv", "lib", "python3.11", "site-packages", "torch", "lib")
        os.makedirs(lib)
        with open(os.path.join(lib, "..", "version.py"), "w") as f:
            f.write("__version__ = '2.1.2+cu121'\ncuda: Optional[str] = '12.1'\nhip = None\n")
        stubs = os.path.join(t, f"stubs-{distro}")
        os.makedirs(stubs)
        cc(os.path.join(stubs, "libcuda.so.1"), "libcuda.so.1")
        cc(os.path.join(lib, "libtorch_cpu.so"), "libtorch_cpu.so", ["libgomp.so.1", "libcuda.so.1"],
           None, stubs)
        got = missing("--root", root, "--profile", "dlopen", os.path.join(lib, "libtorch_cpu.so"))
        check(got.get("libgomp.so.1", "").startswith(want), f"{distro} libgomp fix: {got.get('libgomp.so.1')!r}")
        drv = got.get("libcuda.so.1", "")
        check("NVIDIA driver (530.30.02 or newer for torch 2.1.2+cu121)" in drv,
              f"{distro} libcuda fix: {drv!r}")


def windows_vcruntime(t):
    if not shutil.which("x86_64-w64-mingw32-gcc") or not shutil.which("i686-w64-mingw32-gcc"):
        print("skipped: no mingw-w64")
        return
    for cc_name, arch in (("x86_64-w64-mingw32-gcc", "x64"), ("i686-w64-mingw32-gcc", "x86")):
        root = os.path.join(t, f"win-{arch}")
        lib = os.path.join(root, "venv", "Lib", "site-packages", "torch", "lib")
        src = os.path.join(t, f"win-src-{arch}")
        # a 32-bit process on 64-bit Windows sees SysWOW64 as its System32
        sys32 = os.path.join(root, "Windows", "System32" if arch == "x64" else "SysWOW64")
        os.makedirs(lib), os.makedirs(sys32), os.makedirs(src)
        wine = "/usr/lib/x86_64-linux-gnu/wine/" + ("x86_64" if arch == "x64" else "i386") + "-windows"
        for d in ("kernel32", "kernelbase", "ntdll", "msvcrt", "ucrtbase", "vcruntime140", "msvcp140"):
            if os.path.exists(f"{wine}/{d}.dll"):  # Wine's DLLs as System32 (C:\\ is ROOT)
                os.symlink(f"{wine}/{d}.dll", os.path.join(sys32, f"{d}.dll"))
        with open(os.path.join(src, "rt.c"), "w") as f:
            f.write("__declspec(dllexport) int __CxxFrameHandler4(void) { return 0; }\n")
        with open(os.path.join(src, "c10.c"), "w") as f:
            f.write("int __CxxFrameHandler4(void);\n"
                    "__declspec(dllexport) int c10_ok(void) { return __CxxFrameHandler4(); }\n")
        subprocess.run([cc_name, "-shared", "-o", os.path.join(src, "vcruntime140_1.dll"),
                        os.path.join(src, "rt.c")], check=True)
        subprocess.run([cc_name, "-shared", "-o", os.path.join(lib, "c10.dll"), os.path.join(src, "c10.c"),
                        f"-L{src}", "-l:vcruntime140_1.dll"], check=True)
        got = missing("--root", root, os.path.join(lib, "c10.dll")).get("vcruntime140_1.dll", "")
        for part in (f"winget install Microsoft.VCRedist.2015+.{arch}",
                     f"https://aka.ms/vc14/vc_redist.{arch}.exe", "Visual C++ Redistributable"):
            check(part in got, f"{arch} vcruntime140_1.dll fix lacks {part!r}: {got!r}")
    # An API-set name of the UCRT with no ucrtbase.dll in System32: the UCRT update.
    lib = os.path.join(t, "win-x64", "venv", "Lib", "site-packages", "torch", "lib")
    src = os.path.join(t, "win-src-x64")
    with open(os.path.join(src, "crt.c"), "w") as f:
        f.write("__declspec(dllexport) int td_crt_probe(void) { return 0; }\n")
    with open(os.path.join(src, "crt_user.c"), "w") as f:
        f.write("int td_crt_probe(void);\n__declspec(dllexport) int user(void) { return td_crt_probe(); }\n")
    crt = "api-ms-win-crt-runtime-l1-1-0.dll"
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", os.path.join(src, crt),
                    os.path.join(src, "crt.c")], check=True)
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", os.path.join(lib, "crt_user.dll"),
                    os.path.join(src, "crt_user.c"), f"-L{src}", f"-l:{crt}"], check=True)
    os.unlink(os.path.join(t, "win-x64", "Windows", "System32", "ucrtbase.dll"))
    got = missing("--root", os.path.join(t, "win-x64"), "--profile", "dlopen",
                  os.path.join(lib, "crt_user.dll")).get(crt, "")
    check("Universal C Runtime" in got and "KB2999226" in got, f"UCRT fix: {got!r}")
    # nvcuda.dll is the driver's, with the Windows minimum of torch's CUDA.
    with open(os.path.join(lib, "..", "version.py"), "w") as f:
        f.write("__version__ = '2.5.1+cu121'\ncuda = '12.1'\n")
    with open(os.path.join(src, "cu.c"), "w") as f:
        f.write("__declspec(dllexport) int cuInit(int f) { return f; }\n")
    with open(os.path.join(src, "cu_user.c"), "w") as f:
        f.write("int cuInit(int);\n__declspec(dllexport) int user(void) { return cuInit(0); }\n")
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", os.path.join(src, "nvcuda.dll"),
                    os.path.join(src, "cu.c")], check=True)
    subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", os.path.join(lib, "c10_cuda.dll"),
                    os.path.join(src, "cu_user.c"), f"-L{src}", "-l:nvcuda.dll"], check=True)
    got = missing("--root", os.path.join(t, "win-x64"), "--profile", "dlopen",
                  os.path.join(lib, "c10_cuda.dll")).get("nvcuda.dll", "")
    check("NVIDIA driver (531.14 or newer for torch 2.5.1+cu121)" in got, f"nvcuda.dll fix: {got!r}")


with tempfile.TemporaryDirectory() as t:
    for case in (cu13_record, pip_round_trip, cu12_table, conda_meta, check_cu12, system_libs, windows_vcruntime):
        case(t)
for fix in fixes:
    check("package that ships" not in fix, f"a generic fix: {fix!r}")
if os.environ.get("TD_VERBOSE"):
    print("\n".join(sorted(set(fixes))))
finish("providers", f", {len(fixes)} fixes seen")
