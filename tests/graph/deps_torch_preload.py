#!/usr/bin/python3
"""torch-import on Linux models _load_global_deps' fallback
(data/torch_cuda_preloads.tsv): a slim CUDA wheel whose libtorch_global_deps.so
cannot find libcudart.so.12 through its own RPATH makes torch preload every
listed CUDA library from sys.path (site-packages/nvidia/<folder>/lib), after
which the load succeeds; one required library absent from every entry is the
ValueError torch raises. Real ELF files built here with gcc."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import SRC, TD, check, env_without, finish  # noqa: E402


def table():
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(SRC, "data", "torch_cuda_preloads.tsv"))
            if l.strip() and not l.startswith("#")]
    h = rows[0]
    return [dict(zip(h, r)) for r in rows[1:]]


def so(out, soname, needs=(), rpath=None, libdirs=()):
    src = out + ".c"
    with open(src, "w") as f:
        f.write("int f_%d(void){return 0;}\n" % abs(hash(out)))
    cmd = ["gcc", "-shared", "-fPIC", "-o", out, src, "-Wl,-soname," + soname, "-Wl,--no-as-needed"]
    for d in libdirs:
        cmd += ["-L" + d]
    for n in needs:
        cmd += ["-l:" + n]
    if rpath:
        cmd += ["-Wl,--disable-new-dtags,-rpath," + rpath]
    subprocess.run(cmd, check=True)
    os.unlink(src)


def build(site, skip=None):
    """site/torch (a CUDA 12.1 build) and site/nvidia/* wheels, one library per row."""
    torch = os.path.join(site, "torch")
    os.makedirs(os.path.join(torch, "lib"))
    with open(os.path.join(torch, "version.py"), "w") as f:
        f.write("__version__ = '2.5.1+cu121'\ncuda: Optional[str] = '12.1'\nhip = None\n")
    for r in table():
        if r["folder"] == skip:
            continue
        name = r["pattern"].replace(".*[0-9]", ".12")
        d = os.path.join(site, "nvidia", r["folder"], "lib")
        os.makedirs(d, exist_ok=True)
        so(os.path.join(d, name), name)
    rt = os.path.join(site, "nvidia", "cuda_runtime", "lib")
    tmp = os.path.join(site, "..", "link")
    os.makedirs(tmp, exist_ok=True)
    # Linked against a copy elsewhere, with an RPATH that misses the wheel
    # (torch in venv/lib64, nvidia-* in venv/lib: pytorch issue 165812).
    so(os.path.join(tmp, "libcudart.so.12"), "libcudart.so.12")
    so(os.path.join(torch, "lib", "libtorch_global_deps.so"), "libtorch_global_deps.so",
       needs=["libcudart.so.12"], rpath="$ORIGIN/../../../lib64/nvidia/cuda_runtime/lib", libdirs=[tmp])
    so(os.path.join(torch, "_C.cpython-311-x86_64-linux-gnu.so"), "_C.cpython-311-x86_64-linux-gnu.so",
       needs=["libcudart.so.12"], rpath="$ORIGIN/lib", libdirs=[tmp])
    return torch, rt


def deps(path):
    p = subprocess.run([TD, "deps", "--format", "json", "--no-symbols", path], capture_output=True,
                       text=True, env=env_without("LD_LIBRARY_PATH"))
    assert p.returncode in (0, 1), p.stderr
    return p.returncode, json.loads(p.stdout)


with tempfile.TemporaryDirectory() as t:
    site = os.path.join(t, "ok", "site-packages")
    torch, rt = build(site)
    rc, doc = deps(os.path.join(torch, "_C.cpython-311-x86_64-linux-gnu.so"))
    cudart = [l for l in doc["libraries"] if l["name"] == "libcudart.so.12" or
              (l["path"] or "").endswith("/libcudart.so.12")]
    check(rc == 0, f"slim wheel with every nvidia-* wheel: exit {rc}, findings {doc['findings']}")
    check(cudart and cudart[0]["path"] == os.path.join(rt, "libcudart.so.12") and
          cudart[0]["found_via"] == "sys.path (torch _preload_cuda_deps)",
          f"libcudart.so.12 found via torch's fallback: {cudart}")
    pre = [l for l in doc["libraries"] if l["found_via"] == "sys.path (torch _preload_cuda_deps)"]
    check(len(pre) == len(table()), f"{len(pre)} libraries preloaded, table has {len(table())}")
    order = [os.path.basename(l["path"]) for l in pre]
    want = [r["pattern"].replace(".*[0-9]", ".12") for r in table()]
    check(order == want, f"preload order {order} != table order {want}")

    site = os.path.join(t, "nocudnn", "site-packages")
    torch, _ = build(site, skip="cudnn")
    rc, doc = deps(os.path.join(torch, "_C.cpython-311-x86_64-linux-gnu.so"))
    f = [x for x in doc["findings"] if x["kind"] == "missing_library" and x["library"] == "libcudnn.so.*[0-9]"]
    check(rc == 1 and f and f[0]["needed_by"] == "torch/__init__.py" and f[0]["severity"] == "error",
          f"nvidia-cudnn wheel absent -> ValueError as missing_library: rc {rc}, {doc['findings']}")

    site = os.path.join(t, "nowheels", "site-packages")
    torch, _ = build(site, skip="cuda_runtime")
    rc, doc = deps(os.path.join(torch, "_C.cpython-311-x86_64-linux-gnu.so"))
    names = {x["library"] for x in doc["findings"] if x["kind"] == "missing_library"}
    check(rc == 1 and "libcudart.so.*[0-9]" in names,
          f"nvidia-cuda-runtime wheel absent -> reported: rc {rc}, {names}")

finish("torch preload cases")
