"""A Windows conda env under Wine, mingw-built DLLs: torch\\lib\\torch_cuda.dll
imports cudnn64_9.dll, which the cudnn package put in Library\\bin (torch
adds that folder for conda). Intact: no corrupted_file, also with --verify
(TorchConfig.cmake, a placeholder file conda rewrote with the env's
prefix, is no alarm). cudnn64_9.dll edited after install is named, with
the conda fix for that exact build. Ground truth: every row hashed here."""
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests", "probe"))
from conda_integrity_cases import PLACEHOLDER, Package, truth  # noqa: E402
import casekit  # noqa: E402  (on sys.path now: conda_integrity_cases put it there)
from casekit import check, failures, td_json  # noqa: E402

casekit.show_ok = True

tmp = sys.argv[1]
drive = os.path.join(os.environ["WINEPREFIX"], "drive_c")
env = os.path.join(drive, "conda", "envs", "ml")
target = "C:\\conda\\envs\\ml"


def mingw(out, code, *args):
    os.makedirs(os.path.dirname(out), exist_ok=True)
    src = os.path.join(tmp, os.path.basename(out) + ".c")
    with open(src, "w") as f:
        f.write(code)
    subprocess.run(["x86_64-w64-mingw32-gcc", *(["-shared"] if out.endswith(".dll") else []),
                    "-o", out, src, *args], check=True)


def lay_out():
    os.makedirs(os.path.join(env, "conda-meta"))
    open(os.path.join(env, "conda-meta", "history"), "w").close()
    mingw(os.path.join(env, "python.exe"), "int main(void) { return 0; }\n")
    mingw(os.path.join(env, "python311.dll"), "__declspec(dllexport) int Py_IsInitialized(void) { return 0; }\n")
    bin_ = os.path.join(env, "Library", "bin")
    mingw(os.path.join(bin_, "cudnn64_9.dll"), "__declspec(dllexport) int cudnnGetVersion(void) { return 9; }\n")
    tl = os.path.join(env, "Lib", "site-packages", "torch", "lib")
    mingw(os.path.join(tl, "torch_cuda.dll"),
          "int cudnnGetVersion(void);\n__declspec(dllexport) int torch_cuda_ok(void) { return cudnnGetVersion(); }\n",
          f"-L{bin_}", "-l:cudnn64_9.dll")
    cudnn = Package(env, "cudnn", "9.1.0.70", "h0000000_0", "https://conda.anaconda.org/conda-forge/win-64",
                    target_prefix=target)
    cudnn.file("Library/bin/cudnn64_9.dll")
    pt = Package(env, "pytorch", "2.4.0", "py3.11_cuda12.1_cudnn9_0", "pytorch",
                 "https://conda.anaconda.org/pytorch/win-64/pytorch-2.4.0-py3.11_cuda12.1_cudnn9_0.tar.bz2",
                 target_prefix=target)
    rel = "Lib/site-packages/torch"
    pt.file(f"{rel}/lib/torch_cuda.dll")
    pt.file(f"{rel}/__init__.py", b"")
    pt.file(f"{rel}/version.py", b"__version__ = '2.4.0'\ndebug = False\ncuda = '12.1'\nhip = None\n")
    pt.file(f"{rel}/share/cmake/Torch/TorchConfig.cmake",
            placeholder_text=f'set(TORCH_INSTALL_PREFIX "{PLACEHOLDER}")\n')
    installed = time.time() - 3600
    for dp, dirs, files in os.walk(env):
        for n in files + dirs:
            os.utime(os.path.join(dp, n), (installed, installed))
    for pkg in (cudnn, pt):
        pkg.write(installed + 10)
    return cudnn, pt, os.path.join(bin_, "cudnn64_9.dll")


def run(*extra):
    return td_json("check", "--python", target + "\\python.exe", "--no-gpu", *extra,
                   prog=["wine", os.environ["TD_EXE"]], what="", tail=300)[1]


def corrupted(doc):
    return {f["library"].replace("\\", "/").lower(): f for f in doc["findings"] if f["kind"] == "corrupted_file"}


cudnn, pt, dll = lay_out()
doc = run()
torch = doc["torch"][0] if doc["torch"] else {}
check(torch.get("installer") == "conda", f"installer {torch.get('installer')}")
check(not corrupted(doc), f"intact: {list(corrupted(doc))}")
check(torch.get("record_files", 0) >= 5, f"rows checked: {torch.get('record_files')}")
bad = corrupted(run("--verify"))
check(not bad, f"intact with --verify (the placeholder file is no alarm): {[(k, v['detail']) for k, v in bad.items()]}")
data = bytearray(open(dll, "rb").read())
at = data.index(b"GCC:") if b"GCC:" in data else len(data) - 1
data[at] ^= 0xFF
open(dll, "wb").write(data)  # newer than the record now
check(truth([cudnn, pt]) == {dll}, f"ground truth {truth([cudnn, pt])}")
named = corrupted(run())
want = "c:/conda/envs/ml/library/bin/cudnn64_9.dll"
check(set(named) == {want}, f"named {list(named)}")
fix = named.get(want, {}).get("fix") or ""
print(fix)
check("--force-reinstall conda-forge::cudnn=9.1.0.70=h0000000_0" in fix, f"fix {fix}")
sys.exit(1 if failures else 0)
