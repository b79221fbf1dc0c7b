#!/usr/bin/python3
"""torchdoctor check, end to end: Debian's real python3-torch, fake pip
installations in a venv built here, and the stand-in NVIDIA driver
(tests/fixtures/fake_cuda.sh) answering for a chosen driver and GPU. Each
case asserts the finding's kind, severity and library, and what the JSON
sections say; expected values come from the data tables, read here."""
import hashlib
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import GPU_VARS, TD, check, env_without, finish, kinds, table, td_json  # noqa: E402

FX = os.environ["TD_FIXTURES"]
FAKE_LIB = os.path.join(FX, "fake_cuda", "lib")


def run(args, env_extra=None, home=None, fmt="json"):
    env = {**env_without(*GPU_VARS), "HOME": home or "/nonexistent-home", **(env_extra or {})}
    if fmt == "json":
        return td_json("check", *args, env=env, timeout=120, schema=True, what=f"check {args}", tail=500)
    p = subprocess.run([TD, "check", "--format", fmt, *args], capture_output=True, text=True, env=env,
                       timeout=120)
    check(p.returncode in (0, 1), f"check {args}: exit {p.returncode}: {p.stderr[-500:]}")
    return p.returncode, p.stdout


def errors(doc):
    return [f for f in doc["findings"] if f["severity"] == "error"]


def record_line(root, rel):
    data = open(os.path.join(root, rel), "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{rel},sha256={digest},{len(data)}"


def venv(t, name, version, cuda):
    """A venv on /usr/bin/python3.11 holding a pip-installed torch VERSION."""
    root = os.path.join(t, name)
    site = os.path.join(root, "lib", "python3.11", "site-packages")
    os.makedirs(os.path.join(site, "torch", "lib"))
    os.makedirs(os.path.join(root, "bin"))
    os.symlink("/usr/bin/python3.11", os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write(f"__version__ = '{version}'\ndebug = False\n"
                f"cuda: Optional[str] = {repr(cuda) if cuda else 'None'}\nhip: Optional[str] = None\n")
    with open(os.path.join(site, "torch", "__init__.py"), "w") as f:
        f.write("# torch\n")
    dist = f"torch-{version}.dist-info"
    os.makedirs(os.path.join(site, dist))
    with open(os.path.join(site, dist, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: torch\nVersion: {version}\n")
    with open(os.path.join(site, dist, "INSTALLER"), "w") as f:
        f.write("pip\n")
    files = ["torch/version.py", "torch/__init__.py", f"{dist}/METADATA", f"{dist}/INSTALLER"]
    with open(os.path.join(site, dist, "RECORD"), "w") as f:
        for rel in files:
            f.write(record_line(site, rel) + "\n")
        f.write(f"{dist}/RECORD,,\n")
    return os.path.join(root, "bin", "python3"), site


def gpu_env(version, driver, gpus):
    return {"LD_LIBRARY_PATH": FAKE_LIB, "TD_FAKE_CUDA_VERSION": str(version),
            "TD_FAKE_NVML_DRIVER": driver, "TD_FAKE_GPUS": gpus}


def min_driver(cuda):
    """The newest Linux minimum among CUDA X.Y's rows of cuda_driver_minimums."""
    rows = [r for r in table("cuda_driver_minimums")
            if re.match(re.escape(cuda) + r"(\.|$)", r["cuda"]) and r["linux_min"] != "-"]
    key = lambda s: tuple(int(x) for x in re.findall(r"\d+", s))
    return max((r["linux_min"].lstrip(">=") for r in rows), key=key)


def arch_list(torch, cuda):
    """The release's row, else what every build-script snapshot for that CUDA
    shares (rows with torch "-"), as docs/knowledge.md says kb reads them."""
    rows = [r for r in table("torch_cuda_arch_list") if r["cuda"] == cuda and r["platform"] == "linux_x86_64"]
    own = [r for r in rows if r["torch"] == torch] or [r for r in rows if r["torch"] == "-"]
    if not own:
        return None
    return sorted(set.intersection(*(set(r["arches"].split(";")) for r in own)))


def debian_torch():
    text = open("/usr/lib/python3/dist-packages/torch/version.py").read()
    version = re.search(r"__version__ = '([^']+)'", text).group(1)
    rc, doc = run(["--python", "/usr/bin/python3", "--no-gpu"])
    t = doc["torch"]
    check(len(t) == 1 and t[0]["version"] == version and t[0]["variant"] == "cpu" and
          t[0]["installer"] == "debian", f"Debian torch: {[(x['version'], x['variant'], x['installer']) for x in t]}")
    check(rc == 0 and not errors(doc), f"Debian torch: exit {rc}, errors {errors(doc)}")
    libs = doc.get("deps", {}).get("libraries", [])
    check(len(libs) > 200 and all(l["path"] for l in libs),
          f"Debian torch closure: {len(libs)} libraries, missing {[l['name'] for l in libs if not l['path']]}")
    check(doc["system"]["glibc"] and doc["cpu"]["x86_level"] >= 1, "system/cpu sections filled")
    check(doc["driver"]["status"] == "not_probed", f"--no-gpu: driver status {doc['driver']['status']}")


def driver_too_old(py):
    env = gpu_env(11040, "470.82.01", "NVIDIA GeForce RTX 3090:8.6:25447170048")
    rc, doc = run(["--python", py], env)
    f = kinds(doc, "cuda_driver_too_old")
    check(rc == 1 and f and f[0]["severity"] == "error" and f[0]["library"] == "libcuda.so.1",
          f"470 driver, torch +cu121: {doc['findings']}")
    need = min_driver("12.1")
    check(f and need in f[0]["fix"] and "470.82.01" in f[0]["detail"],
          f"fix names the 12.1 minimum {need}: {f and f[0]['fix']}")
    check(doc["driver"]["cuda_driver_version"] == 11040 and doc["driver"]["driver_version"] == "470.82.01",
          f"driver section: {doc['driver']}")
    g = doc["gpus"]
    check(len(g) == 1 and g[0]["name"] == "NVIDIA GeForce RTX 3090" and g[0]["compute_capability"] == "8.6"
          and g[0]["memory"] == 25447170048, f"gpus section: {g}")
    return doc


def arch_unsupported(py):
    arches = arch_list("2.5", "12.1")
    check(arches and "12.0" not in arches, f"the 2.5 cu121 row lacks sm_120: {arches}")
    env = gpu_env(12080, "570.86.10", "NVIDIA GeForce RTX 5090:12.0:34190917632")
    rc, doc = run(["--python", py], env)
    f = kinds(doc, "gpu_arch_unsupported")
    check(rc == 1 and f and f[0]["severity"] == "error" and "sm_120" in f[0]["detail"],
          f"RTX 5090 with 2.5 cu121: {doc['findings']}")
    check(not kinds(doc, "cuda_driver_too_old"), "a 12.8 driver runs 12.1 builds")


def healthy(py):
    env = gpu_env(12040, "550.54.14", "NVIDIA GeForce RTX 4090:8.9:25757220864")
    rc, doc = run(["--python", py], env)
    check(rc == 0 and not errors(doc), f"RTX 4090, driver 12.4, torch cu121: exit {rc}, {errors(doc)}")
    check(doc["driver"]["status"] == "ok" and doc["gpus"][0]["compute_capability"] == "8.9",
          f"driver ok: {doc['driver']['status']}")
    return env


def cpu_build_on_gpu(py):
    env = gpu_env(12040, "550.54.14", "NVIDIA GeForce RTX 4090:8.9:25757220864")
    rc, doc = run(["--python", py], env)
    f = kinds(doc, "torch_variant_mismatch")
    check(f and f[0]["severity"] == "warning" and "download.pytorch.org/whl/cu" in (f[0]["fix"] or "")
          and "pip uninstall" in f[0]["fix"], f"+cpu torch on a GPU machine: {doc['findings']}")


def broken_driver(py):
    env = gpu_env(12040, "550.54.14", "NVIDIA GeForce RTX 4090:8.9:25757220864")
    env["TD_FAKE_CUDA_MODE"] = "crash"
    rc, doc = run(["--python", py], env)
    f = kinds(doc, "gpu_not_visible")
    check(rc == 1 and f and "SIGSEGV" in f[0]["detail"] and doc["driver"]["status"] == "crashed",
          f"crashing driver: {doc['driver']}, {doc['findings']}")
    env["TD_FAKE_CUDA_MODE"] = "hang"
    rc, doc = run(["--python", py, "--timeout", "500"], env)
    f = kinds(doc, "gpu_not_visible")
    check(rc == 1 and f and doc["driver"]["status"] == "timeout" and len(doc["torch"]) == 1,
          f"hanging driver: {doc['driver']}, {doc['findings']}")


def stub_driver(py):
    stubs = os.path.join(FX, "fake_cuda", "cuda", "lib64", "stubs")
    rc, doc = run(["--python", py], {"LD_LIBRARY_PATH": stubs})
    f = kinds(doc, "stub_library")
    check(rc == 1 and f and f[0]["library"] == os.path.join(stubs, "libcuda.so.1") and stubs in f[0]["fix"],
          f"toolkit stub on LD_LIBRARY_PATH: {doc['findings']}")


def corrupted(t):
    py, site = venv(t, "broken", "2.5.1+cu121", "12.1")
    with open(os.path.join(site, "torch", "__init__.py"), "a") as f:
        f.write("# edited by a blog post\n")
    rc, doc = run(["--python", py, "--no-gpu"])
    f = kinds(doc, "corrupted_file")
    check(f and f[0]["library"].endswith("torch/__init__.py"), f"edited __init__.py: {doc['findings']}")


def workload(py):
    for gpus, ready in (("NVIDIA GeForce RTX 3060:8.6:8589934592", False),):
        env = gpu_env(12040, "550.54.14", gpus)
        rc, doc = run(["--python", py, "--workload", "flux-lora"], env)
        check(doc["workload"]["slug"] == "flux-lora" and doc["workload"]["ready"] is ready and
              kinds(doc, "insufficient_memory"), f"flux-lora on 8 GB: {doc.get('workload')}, {doc['findings']}")
    p = subprocess.run([TD, "check", "--workload", "list"], capture_output=True, text=True)
    slugs = [r["slug"] for r in table("workloads")]
    check(p.returncode == 0 and all(s in p.stdout for s in slugs), f"--workload list: {p.stdout[:300]}")
    p = subprocess.run([TD, "check", "--workload", "no-such-job"], capture_output=True, text=True)
    check(p.returncode == 2, f"unknown workload: exit {p.returncode}")


def views(t, py):
    env = gpu_env(11040, "470.82.01", "NVIDIA GeForce RTX 3090:8.6:25447170048")
    rc, md = run(["--python", py], env, fmt="markdown")
    check("### torch" in md and "### Findings" in md and "`cuda_driver_too_old`" in md,
          f"markdown view: {md[:400]}")
    rc, text = run(["--python", py, "--redact"], env, home=t, fmt="text")
    check(t not in text and "~/cu121" in text, f"--redact hides {t}: {text[:600]}")
    script = os.path.join(t, "fix.sh")
    e = {k: v for k, v in os.environ.items() if not k.startswith(("TD_FAKE", "LD_LIBRARY_PATH"))}
    e.update(env)
    subprocess.run([TD, "check", "--python", py, "-o", script], env=e, capture_output=True)
    body = open(script).read()
    check(body.startswith("#!/bin/sh") and "cuda_driver_too_old" in body, f"fix script: {body[:300]}")


def redact_short_host():
    """--redact hides the host name even when it is too short (2 letters, as
    "vm") to be replaced in the text without mangling words: the JSON's
    "host" field is <host>. A UTS namespace gives the run its own name."""
    cmd = ["unshare", "-u", "sh", "-c", 'hostname vm && exec "$@"', "sh",
           TD, "check", "--redact", "--no-gpu", "--python", "/usr/bin/python3", "--format", "json"]
    p = subprocess.run(cmd, capture_output=True, text=True, env={**env_without(*GPU_VARS), "HOME": "/nonexistent-home"})
    if p.returncode not in (0, 1) and "unshare" in p.stderr + p.stdout:
        print("skipped: --redact of a 2-letter host name (no UTS namespace here:", p.stderr.strip()[-120:], ")")
        return
    import json
    doc = json.loads(p.stdout)
    check(doc.get("host") == "<host>", f"--redact with host name 'vm': host {doc.get('host')!r}")
    cmd[cmd.index("check")] = "snapshot"
    cmd.remove("--format"), cmd.remove("json")
    p = subprocess.run(cmd, capture_output=True, text=True, env={**env_without(*GPU_VARS), "HOME": "/nonexistent-home"})
    doc = json.loads(p.stdout) if p.returncode in (0, 1) else {}
    check(doc.get("system", {}).get("hostname") == "<host>",
          f"snapshot --redact with host name 'vm': exit {p.returncode}, hostname {doc.get('system', {}).get('hostname')!r}")


def live(t):
    """--live: import torch for real under trace, and a copy broken on LD_LIBRARY_PATH."""
    text = open("/usr/lib/python3/dist-packages/torch/version.py").read()
    version = re.search(r"__version__ = '([^']+)'", text).group(1)
    rc, doc = run(["--python", "/usr/bin/python3", "--no-gpu", "--live"])
    lv = doc.get("live", {})
    check(rc == 0 and lv.get("imported") is True and lv.get("torch_version") == version and
          lv.get("libraries", 0) > 100 and lv.get("agreements", 0) > 100 and not lv.get("divergences"),
          f"--live on Debian torch: {dict((k, v) for k, v in lv.items() if k != 'divergences')}")
    soname = subprocess.run("objdump -p /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.* | "
                            "awk '/NEEDED/ && /c10/ {print $2; exit}'", shell=True,
                            capture_output=True, text=True).stdout.strip()
    broken = os.path.join(t, "broken-lib")
    os.makedirs(broken)
    with open(os.path.join(broken, soname), "w") as f:
        f.write("not a library\n")
    rc, doc = run(["--python", "/usr/bin/python3", "--no-gpu", "--live"], {"LD_LIBRARY_PATH": broken})
    lv = doc.get("live", {})
    f = kinds(doc, "not_a_library")
    check(rc == 1 and lv.get("imported") is False and soname in (lv.get("failed") or "") and f and
          all(x["library"].endswith(soname) for x in f),
          f"--live with a broken {soname}: {lv.get('failed')}, {doc['findings']}")


def active_without_torch(t):
    """The python3 a shell runs (PATH's first, or the active venv) has no
    torch while /usr/bin/python3 imports Debian's: `python3 -c 'import
    torch'` fails with "No module named 'torch'", which check must say
    (a warning naming both), not "no problem found"."""
    root = os.path.join(t, "notorch")
    os.makedirs(os.path.join(root, "lib", "python3.11", "site-packages"))
    os.makedirs(os.path.join(root, "bin"))
    for name in ("python", "python3"):  # as python3 -m venv makes them
        os.symlink("/usr/bin/python3.11", os.path.join(root, "bin", name))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    exe = os.path.join(root, "bin", "python3")
    real = subprocess.run([exe, "-c", "import torch"], capture_output=True, text=True)
    check(real.returncode != 0 and "No module named 'torch'" in real.stderr,
          f"oracle: {exe} -c 'import torch' fails: {real.stderr[-200:]}")
    for what, env in (("first on PATH", {"PATH": f"{root}/bin:/usr/bin:/bin"}),
                      ("VIRTUAL_ENV", {"PATH": "/usr/bin:/bin", "VIRTUAL_ENV": root})):
        rc, doc = run(["--no-gpu"], env)
        f = kinds(doc, "torch_not_on_path")
        check(rc == 0 and len(f) == 1 and f[0]["severity"] == "warning"
              and f[0]["needed_by"] in (exe, os.path.join(root, "bin", "python"))
              and "/usr/bin/python3" in f[0]["detail"]
              and f"{f[0]['needed_by']} -m pip install" in (f[0]["fix"] or ""),
              f"active python without torch ({what}): exit {rc}, {f or doc['findings']}")
    rc, doc = run(["--no-gpu"], {"PATH": "/usr/bin:/bin"})
    check(not kinds(doc, "torch_not_on_path"), f"python3 on PATH imports torch: {kinds(doc, 'torch_not_on_path')}")
    # A system python3 without torch that pip refuses to install into (PEP
    # 668, as Debian 12 marks its own), and a venv later on PATH with torch:
    # the fix runs the venv's interpreter, never pip into the system's.
    root = os.path.join(t, "pep668")
    for d in ("usr/bin", "usr/lib/python3.11", "opt/venv/bin",
              "opt/venv/lib/python3.11/site-packages/torch"):
        os.makedirs(os.path.join(root, d))
    shutil.copy(os.path.join(FX, "torch_layouts", "multi", "usr", "bin", "python3.11"),
                os.path.join(root, "usr", "bin", "python3.11"))
    os.symlink("python3.11", os.path.join(root, "usr", "bin", "python3"))
    open(os.path.join(root, "usr", "lib", "python3.11", "EXTERNALLY-MANAGED"), "w").write("[externally-managed]\n")
    for name in ("python", "python3"):
        os.symlink("/usr/bin/python3.11", os.path.join(root, "opt", "venv", "bin", name))
    open(os.path.join(root, "opt", "venv", "pyvenv.cfg"), "w").write("home = /usr/bin\nversion = 3.11.2\n")
    site = os.path.join(root, "opt", "venv", "lib", "python3.11", "site-packages", "torch")
    open(os.path.join(site, "__init__.py"), "w").write("# torch\n")
    open(os.path.join(site, "version.py"), "w").write("__version__ = '2.5.1+cpu'\n")
    rc, doc = run(["--no-gpu", "--root", root], {"PATH": "/usr/bin:/opt/venv/bin"})
    f = kinds(doc, "torch_not_on_path")
    check(len(f) == 1 and f[0]["needed_by"] == "/usr/bin/python3" and "pip install" not in f[0]["fix"]
          and f[0]["fix"].startswith("/opt/venv/bin/python") and "EXTERNALLY-MANAGED" in f[0]["fix"],
          f"system python3 under PEP 668 without torch: {f or doc['findings']}")


with tempfile.TemporaryDirectory() as t:
    active_without_torch(t)
    redact_short_host()
    debian_torch()
    live(t)
    cu121, _ = venv(t, "cu121", "2.5.1+cu121", "12.1")
    cpu, _ = venv(t, "cpu", "2.5.1+cpu", None)
    driver_too_old(cu121)
    arch_unsupported(cu121)
    healthy(cu121)
    cpu_build_on_gpu(cpu)
    broken_driver(cu121)
    stub_driver(cu121)
    corrupted(t)
    workload(cu121)
    views(t, cu121)

finish("check cases")
