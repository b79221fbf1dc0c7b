#!/usr/bin/python3
"""Tiny wheels for the snapshot tests: a local package index (a folder for
pip --no-index --find-links) holding fake torch builds (+cu121, +cpu: a
torch/version.py as the real wheel's, no native code), torchvision and an
nvidia-* wheel, each a valid wheel pip installs and records like the real
one (METADATA, WHEEL, RECORD with SHA-256)."""
import base64
import hashlib
import os
import sys
import zipfile


def record_line(name, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def wheel(out_dir, dist, version, files, requires=()):
    """dist-version-py3-none-any.whl with FILES {path: text} and the
    Requires-Dist lines REQUIRES."""
    escaped = dist.replace("-", "_")
    info = f"{escaped}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = (f"Metadata-Version: 2.1\nName: {dist}\nVersion: {version}\n" +
                                 "".join(f"Requires-Dist: {r}\n" for r in requires))
    files[f"{info}/WHEEL"] = "Wheel-Version: 1.0\nGenerator: torchdoctor-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    lines = [record_line(p, t.encode()) for p, t in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = "\n".join(lines) + "\n"
    path = os.path.join(out_dir, f"{escaped}-{version}-py3-none-any.whl")
    with zipfile.ZipFile(path, "w") as z:
        for p, t in files.items():
            z.writestr(p, t)
    return path


def torch(out_dir, version, cuda, requires=()):
    cuda_line = repr(cuda) if cuda else "None"
    return wheel(out_dir, "torch", version, requires=requires, files={
        "torch/__init__.py": "from torch.version import __version__\n",
        "torch/version.py": f"from typing import Optional\n__version__ = '{version}'\ndebug = False\n"
                            f"cuda: Optional[str] = {cuda_line}\ngit_version = 'test'\nhip: Optional[str] = None\n",
    })


def build(out_dir):
    os.makedirs(out_dir, exist_ok=True)
    # As the real 2.5.1+cu121 wheel, which pins nvidia-cudnn-cu12==9.1.0.70 on Linux x86-64.
    torch(out_dir, "2.5.1+cu121", "12.1",
          requires=['nvidia-cudnn-cu12==9.1.0.70; platform_system == "Linux" and '
                    'platform_machine == "x86_64"'])
    torch(out_dir, "2.5.1+cpu", None)
    for v in ("0.20.1+cu121", "0.21.0+cu121"):
        wheel(out_dir, "torchvision", v, {"torchvision/__init__.py": f"__version__ = '{v}'\n"})
    for v in ("9.1.0.70", "9.5.0.50"):
        wheel(out_dir, "nvidia-cudnn-cu12", v, {"nvidia/cudnn/__init__.py": ""})
    for v in ("2.20.5", "2.21.5"):  # not pinned by the fake torch
        wheel(out_dir, "nvidia-nvtx-cu12", v, {"nvidia/nvtx/__init__.py": ""})
    wheel(out_dir, "tqdm", "4.66.1", {"tqdm/__init__.py": ""})


if __name__ == "__main__":
    build(sys.argv[1])
