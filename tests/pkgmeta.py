"""Package metadata the Python test scripts write: torch 2.1.2's
Requires-Dist lines as its cu121 wheel on PyPI declares them (its pinned
nvidia-*-cu12 wheels), and a writer of a pip-style .dist-info."""
import base64
import hashlib
import os

_LINUX = 'platform_system == "Linux" and platform_machine == "x86_64"'
TORCH_212_PINS = {
    "nvidia-cuda-nvrtc-cu12": "12.1.105", "nvidia-cuda-runtime-cu12": "12.1.105",
    "nvidia-cuda-cupti-cu12": "12.1.105", "nvidia-cudnn-cu12": "8.9.2.26",
    "nvidia-cublas-cu12": "12.1.3.1", "nvidia-cufft-cu12": "11.0.2.54",
    "nvidia-curand-cu12": "10.3.2.106", "nvidia-cusolver-cu12": "11.4.5.107",
    "nvidia-cusparse-cu12": "12.1.0.106", "nvidia-nccl-cu12": "2.18.1",
    "nvidia-nvtx-cu12": "12.1.105", "triton": "2.1.0",
}
TORCH_212_REQUIRES = (["filelock", "typing-extensions", "sympy", "networkx", "jinja2", "fsspec"] +
                      [f"{n} =={v} ; {_LINUX}" for n, v in TORCH_212_PINS.items()] +
                      ["opt-einsum >=3.3 ; extra == 'opt-einsum'"])


def record_line(site, rel):
    data = open(os.path.join(site, rel), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{rel},sha256={digest},{len(data)}"


def dist_info(site, name, version, requires=(), files=(), installer="pip", crlf=False):
    """Writes NAME-VERSION.dist-info (METADATA, INSTALLER, RECORD listing
    FILES, paths relative to SITE, and itself) and returns its path."""
    di = os.path.join(site, f"{name.replace('-', '_')}-{version}.dist-info")
    os.makedirs(di, exist_ok=True)
    with open(os.path.join(di, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")
        for r in requires:
            f.write(f"Requires-Dist: {r}\n")
        f.write("\nlong description\n")
    with open(os.path.join(di, "INSTALLER"), "w") as f:
        f.write(installer + "\n")
    rel_di = os.path.basename(di)
    end = "\r\n" if crlf else "\n"
    with open(os.path.join(di, "RECORD"), "w", newline="") as f:
        for rel in list(files) + [f"{rel_di}/METADATA", f"{rel_di}/INSTALLER"]:
            f.write(record_line(site, rel) + end)
        f.write(f"{rel_di}/RECORD,," + end)
    return di
