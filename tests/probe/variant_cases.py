"""check holds torch's build variant (+cu124, +cpu, +rocm6.2, +xpu) against
its companions' and the CUDA major of the nvidia-*-cuNN wheels beside it.
Real venvs get fake wheels (tests/cmd/fake_wheels.py) from local indexes
standing in for download.pytorch.org/whl/<variant>, installed by pip
itself. Ground truth is pip's own behaviour: a bare `torchvision==0.20.1`
keeps an installed 0.20.1+cpu (PEP 440 ignores the local tag), and each fix
torchdoctor prints is run with its --index-url pointed at the local index,
after which the installed versions (importlib.metadata, what pip list
reads) and a second check must agree it is fixed."""
import json
import os
import shlex
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests", "cmd"))
import fake_wheels as fw  # noqa: E402

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, check_py, finish  # noqa: E402

URL = "https://download.pytorch.org/whl/"


def env():
    e = {k: v for k, v in os.environ.items()
         if not k.startswith(("PIP_", "VIRTUAL_ENV", "TD_FAKE", "LD_LIBRARY_PATH", "PYTHON"))}
    e["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    e["PIP_CONFIG_FILE"] = os.devnull  # no site-wide find-links or index of this machine
    return e


def torch_wheel(index, version, cuda=None, hip=None, requires=()):
    line = lambda v: repr(v) if v else "None"
    fw.wheel(index, "torch", version, requires=requires, files={
        "torch/__init__.py": "from torch.version import __version__\n",
        "torch/version.py": f"from typing import Optional\n__version__ = '{version}'\n"
                            f"cuda: Optional[str] = {line(cuda)}\nhip: Optional[str] = {line(hip)}\n"})


def pkg(index, name, version, requires=()):
    top = name.replace("-", "_")
    fw.wheel(index, name, version, {f"{top}/__init__.py": ""}, requires=requires)


# CUDA 13's wheels: no -cuNN suffix, a version of the library's own (cufft
# 12.0 is CUDA 13's), installed into nvidia/cu13/ (their RECORDs, checked
# against the real ones below where /usr/local/cuda/dist-info has them).
CU13_WHEELS = [("nvidia-cuda-runtime", "13.0.96", "nvidia/cu13/lib/libcudart.so.13"),
               ("nvidia-cufft", "12.0.0.61", "nvidia/cu13/lib/libcufft.so.12"),
               ("nvidia-curand", "10.4.0.35", "nvidia/cu13/lib/libcurand.so.10")]
REAL_DIST_INFO = "/usr/local/cuda/dist-info"


def nvidia(index, name, version, lib):
    fw.wheel(index, name, version, {lib: ""})


def indexes(t):
    """Local stand-ins for download.pytorch.org/whl/<variant>."""
    idx = {v: os.path.join(t, "idx", v) for v in ("cu124", "cpu", "cu128", "cu130", "rocm6.2", "xpu")}
    for d in idx.values():
        os.makedirs(d)
    torch_wheel(idx["cu124"], "2.5.1+cu124", cuda="12.4")
    pkg(idx["cu124"], "torchvision", "0.20.1+cu124", ["torch==2.5.1"])
    pkg(idx["cpu"], "torchvision", "0.20.1+cpu", ["torch==2.5.1"])
    pkg(idx["cpu"], "torchaudio", "2.6.0+cpu", ["torch==2.6.0"])
    torch_wheel(idx["cu128"], "2.7.1+cu128", cuda="12.8", requires=["nvidia-cudnn-cu12==9.7.1.26"])
    pkg(idx["cu128"], "nvidia-cudnn-cu12", "9.7.1.26")
    pkg(idx["cu128"], "nvidia-cudnn-cu13", "9.13.0.50")
    # As the real wheels: 2.9.0+cu128 pins nvidia-cuda-runtime-cu12==12.8.90,
    # 2.9.0+cu130 the unsuffixed nvidia-cuda-runtime==13.0.96.
    torch_wheel(idx["cu128"], "2.9.0+cu128", cuda="12.8", requires=["nvidia-cuda-runtime-cu12==12.8.90"])
    nvidia(idx["cu128"], "nvidia-cuda-runtime-cu12", "12.8.90", "nvidia/cuda_runtime/lib/libcudart.so.12")
    torch_wheel(idx["cu130"], "2.9.0+cu130", cuda="13.0", requires=["nvidia-cuda-runtime==13.0.96"])
    for name, version, lib in CU13_WHEELS:
        nvidia(idx["cu130"], name, version, lib)
    torch_wheel(idx["rocm6.2"], "2.5.1+rocm6.2", hip="6.2.41133")
    pkg(idx["rocm6.2"], "torchvision", "0.20.1+rocm6.2", ["torch==2.5.1"])
    torch_wheel(idx["xpu"], "2.6.0+xpu")
    pkg(idx["xpu"], "torchaudio", "2.6.0+xpu", ["torch==2.6.0"])
    return idx


def make_venv(t, name):
    root = os.path.join(t, name)
    subprocess.run(["/usr/bin/python3", "-m", "venv", "--without-pip", root], check=True)
    return os.path.join(root, "bin", "python")


def pip(py, *args, index, deps=False):
    """The host's pip (the venv has none) installing into PY's venv from the
    local INDEX folders (a str or a list)."""
    links = []
    for d in [index] if isinstance(index, str) else index:
        links += ["--find-links", d]
    p = subprocess.run(["/usr/bin/python3", "-m", "pip", "-q", "--python", py, *args,
                        *([] if deps else ["--no-deps"]), "--no-index", *links],
                       capture_output=True, text=True, env=env())
    check(p.returncode == 0, f"pip {' '.join(args)}: {p.stderr[-300:]}")
    return p


def pip_list(py):
    """What is installed, read as pip list reads it (importlib.metadata), without pip's start-up."""
    out = subprocess.run([py, "-c", "import importlib.metadata as m, json; print(json.dumps("
                          "{d.metadata['Name'].lower(): d.version for d in m.distributions()}))"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def run_check(py):
    return check_py(py, env=dict(env(), HOME="/nonexistent"), timeout=120)[1]["findings"]


def run_fix(fix, py, idx):
    """The printed command with its --index-url sent to the local index."""
    argv = shlex.split(fix)
    at = argv.index("--index-url")
    variant = argv[at + 1][len(URL):]
    argv[at:at + 2] = ["--no-index", "--find-links", idx[variant]]
    check(argv[0] == py and argv[1:3] == ["-m", "pip"], f"the fix runs the venv's pip: {fix}")
    # The venv has no pip of its own here: the host's pip, told which interpreter.
    p = subprocess.run(["/usr/bin/python3", "-m", "pip", "-q", "--python", py] + argv[3:],
                       capture_output=True, text=True, env=env())
    check(p.returncode == 0, f"{fix}: {p.stderr[-400:]}")


def of_kind(findings, kind, library=None):
    return [f for f in findings if f["kind"] == kind and (library is None or f["library"] == library)]


def cpu_vision_on_cuda_torch(t, idx):
    py = make_venv(t, "cu124")
    pip(py, "install", "torch==2.5.1+cu124", "torchvision==0.20.1+cpu", index=[idx["cu124"], idx["cpu"]])
    # Ground truth: asked for the release alone, pip keeps the +cpu build.
    p = pip(py, "install", "torchvision==0.20.1", index=idx["cu124"], deps=True)
    check(p.returncode == 0 and pip_list(py)["torchvision"] == "0.20.1+cpu",
          f"pip install torchvision==0.20.1 keeps 0.20.1+cpu: {pip_list(py)} {p.stderr[-200:]}")
    f = of_kind(run_check(py), "companion_mismatch", "torchvision")
    check(len(f) == 1 and f[0]["severity"] == "error" and "cpu build" in f[0]["detail"],
          f"torchvision +cpu beside torch +cu124: {f}")
    if not f:
        return
    fix = f[0]["fix"]
    check("torchvision==0.20.1+cu124" in fix and fix.endswith("--index-url " + URL + "cu124") and
          "torch==2.5.1+cu124" in fix, f"one command from the cu124 index: {fix}")
    run_fix(fix, py, idx)
    got = pip_list(py)
    check(got["torchvision"] == "0.20.1+cu124" and got["torch"] == "2.5.1+cu124", f"after the fix: {got}")
    check(not of_kind(run_check(py), "companion_mismatch"), "no mismatch after the fix")


def cu13_wheel_beside_cu12_torch(t, idx):
    py = make_venv(t, "cu128")
    pip(py, "install", "torch==2.7.1+cu128", "nvidia-cudnn-cu13==9.13.0.50", index=idx["cu128"])
    f = of_kind(run_check(py), "cuda_runtime_mismatch", "nvidia-cudnn-cu13")
    check(len(f) == 1 and f[0]["severity"] == "error" and "CUDA 13" in f[0]["detail"],
          f"nvidia-cudnn-cu13 without torch's cu12 copy: {f}")
    if not f:
        return
    check(f[0]["fix"].endswith("torch==2.7.1+cu128 --index-url " + URL + "cu128"), f"the fix: {f[0]['fix']}")
    # Ground truth: pip keeps the installed torch and installs the pinned wheel it lacks.
    run_fix(f[0]["fix"], py, idx)
    check(pip_list(py).get("nvidia-cudnn-cu12") == "9.7.1.26", f"after the fix: {pip_list(py)}")
    f = of_kind(run_check(py), "cuda_runtime_mismatch")
    check(len(f) == 1 and f[0]["severity"] == "warning" and "uninstall" in f[0]["fix"] and
          f[0]["fix"].endswith("nvidia-cudnn-cu13"), f"the cu13 copy is now a leftover: {f}")


def real_cu13_records():
    """Ground truth for CU13_WHEELS: the real wheels' RECORDs list the same files."""
    if not os.path.isdir(REAL_DIST_INFO):
        print("skipped: no real CUDA 13 wheel metadata in", REAL_DIST_INFO)
        return
    for name, version, lib in CU13_WHEELS:
        record = os.path.join(REAL_DIST_INFO, f"{name.replace('-', '_')}-{version}.dist-info", "RECORD")
        rows = open(record).read().split("\n") if os.path.exists(record) else []
        check(any(r.startswith(lib + ",") for r in rows), f"{record} lists {lib}")


def pip_check(py):
    return subprocess.run(["/usr/bin/python3", "-m", "pip", "--python", py, "check"],
                          capture_output=True, text=True, env=env()).stdout


def unsuffixed_cu13_beside_cu12_torch(t, idx):
    py = make_venv(t, "cu128-cu13")
    pip(py, "install", "torch==2.9.0+cu128", index=idx["cu128"])
    pip(py, "install", *[f"{n}=={v}" for n, v, _ in CU13_WHEELS], index=idx["cu130"])
    # Ground truth: pip too says torch's own (cu12) runtime is missing.
    check("nvidia-cuda-runtime-cu12, which is not installed" in pip_check(py), f"pip check: {pip_check(py)}")
    found = run_check(py)
    for name, version, _ in CU13_WHEELS:
        f = of_kind(found, "cuda_runtime_mismatch", name)
        check(len(f) == 1 and f[0]["severity"] == "error" and f"{version} is built for CUDA 13" in f[0]["detail"]
              and f[0]["fix"].endswith("torch==2.9.0+cu128 --index-url " + URL + "cu128"),
              f"unsuffixed {name} {version} beside torch +cu128: {f}")
    # With torch's own copy installed, the CUDA 13 one is an unused leftover.
    pip(py, "install", "nvidia-cuda-runtime-cu12==12.8.90", index=idx["cu128"])
    f = of_kind(run_check(py), "cuda_runtime_mismatch", "nvidia-cuda-runtime")
    check(len(f) == 1 and f[0]["severity"] == "warning" and f[0]["fix"].endswith("uninstall nvidia-cuda-runtime"),
          f"nvidia-cuda-runtime beside nvidia-cuda-runtime-cu12: {f}")


def unsuffixed_cu13_beside_cu13_torch(t, idx):
    py = make_venv(t, "cu130")
    pip(py, "install", "torch==2.9.0+cu130", *[f"{n}=={v}" for n, v, _ in CU13_WHEELS], index=idx["cu130"])
    check("No broken requirements" in pip_check(py), f"pip check: {pip_check(py)}")
    f = of_kind(run_check(py), "cuda_runtime_mismatch")
    check(not f, f"CUDA 13 wheels beside torch +cu130: {f}")


def rocm_torch_with_cuda_vision(t, idx):
    py = make_venv(t, "rocm")
    pip(py, "install", "torch==2.5.1+rocm6.2", "torchvision==0.20.1+cu124", index=[idx["rocm6.2"], idx["cu124"]])
    f = of_kind(run_check(py), "companion_mismatch", "torchvision")
    check(len(f) == 1 and "torchvision==0.20.1+rocm6.2" in f[0]["fix"] and
          f[0]["fix"].endswith("--index-url " + URL + "rocm6.2"), f"+rocm6.2 torch, +cu124 torchvision: {f}")
    if f:
        run_fix(f[0]["fix"], py, idx)
        check(pip_list(py)["torchvision"] == "0.20.1+rocm6.2", f"after the fix: {pip_list(py)}")


def xpu_torch_with_cpu_audio(t, idx):
    py = make_venv(t, "xpu")
    pip(py, "install", "torch==2.6.0+xpu", "torchaudio==2.6.0+cpu", index=[idx["xpu"], idx["cpu"]])
    f = of_kind(run_check(py), "companion_mismatch", "torchaudio")
    check(len(f) == 1 and "torchaudio==2.6.0+xpu" in f[0]["fix"] and "torchvision" not in f[0]["fix"] and
          f[0]["fix"].endswith("--index-url " + URL + "xpu"), f"+xpu torch, +cpu torchaudio: {f}")
    if f:
        run_fix(f[0]["fix"], py, idx)
        check(pip_list(py)["torchaudio"] == "2.6.0+xpu", f"after the fix: {pip_list(py)}")


p = os.path.exists("/usr/bin/python3") and subprocess.run(["/usr/bin/python3", "-m", "pip", "--version"],
                                                           capture_output=True, text=True)
if not p or p.returncode != 0:
    print("skipped: Debian's python3-pip (the ground truth) is not installed")
    sys.exit(0)
if tuple(int(x) for x in p.stdout.split()[1].split(".")[:2]) < (22, 3):
    print("skipped: pip older than 22.3 has no --python")
    sys.exit(0)
with tempfile.TemporaryDirectory() as t:
    idx = indexes(t)
    cpu_vision_on_cuda_torch(t, idx)
    cu13_wheel_beside_cu12_torch(t, idx)
    real_cu13_records()
    unsuffixed_cu13_beside_cu12_torch(t, idx)
    unsuffixed_cu13_beside_cu13_torch(t, idx)
    rocm_torch_with_cuda_vision(t, idx)
    xpu_torch_with_cpu_audio(t, idx)
finish("variant cases")
