#!/usr/bin/python3
"""torchdoctor snapshot / diff / log / --restore-script, end to end. A real
venv (python3 -m venv) gets fake torch wheels from a local package index
(tests/cmd/fake_wheels.py) installed by pip itself, and the stand-in NVIDIA
driver (tests/fixtures/fake_cuda.sh) answers for a GPU. The venv is then
changed the ways users break it — +cu121 torch replaced by +cpu, torchvision
upgraded past its torch, an nvidia-* wheel changed, a driver that reports an
older version, LD_LIBRARY_PATH gaining an entry that shadows a library of
Debian's torch — and diff must rank the breaking change first with the
finding it causes. The restore script is run in a fresh venv against the
local index, and pip's own `pip list` is the oracle of what it restored."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fake_wheels  # noqa: E402

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish, validate  # noqa: E402

FX = os.environ["TD_FIXTURES"]
FAKE_LIB = os.path.join(FX, "fake_cuda", "lib")
GPU = {"LD_LIBRARY_PATH": FAKE_LIB, "TD_FAKE_CUDA_VERSION": "12040", "TD_FAKE_NVML_DRIVER": "550.54.14",
       "TD_FAKE_GPUS": "NVIDIA GeForce RTX 4090:8.9:25757220864"}


def env_with(extra, home):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("TD_FAKE", "LD_LIBRARY_PATH", "CUDA_VISIBLE", "PYTORCH", "PIP_", "VIRTUAL_ENV"))}
    env["HOME"] = home
    env.update(extra)
    return env


def td(args, extra=None, home="/nonexistent-home"):
    return subprocess.run([TD, *args], capture_output=True, text=True, env=env_with(extra or {}, home),
                          timeout=120)


def snapshot(py, path, extra=None, args=()):
    p = td(["snapshot", "--python", py, "-o", path, *args], extra)
    check(p.returncode in (0, 1), f"snapshot {py}: exit {p.returncode}: {p.stderr[-400:]}")
    doc = json.load(open(path))
    validate(doc)
    return doc


def diff(old, new, extra=None, fmt="json"):
    args = ["diff", old] + ([new] if new else []) + ["--format", fmt]
    p = td(args, extra)
    check(p.returncode in (0, 1), f"diff {old} {new}: exit {p.returncode}: {p.stderr[-400:]}")
    if fmt != "json":
        return p.returncode, p.stdout
    doc = json.loads(p.stdout)
    validate(doc)
    return p.returncode, doc


def pip(py, *args, index):
    subprocess.run([py, "-m", "pip", "-q", "--disable-pip-version-check", *args, "--no-index", "--find-links",
                    index], check=True, env=env_with({}, os.environ.get("HOME", "/")))


def pip_list(py):
    out = subprocess.run([py, "-m", "pip", "list", "--format", "json", "--disable-pip-version-check"],
                         capture_output=True, text=True, check=True).stdout
    return sorted((p["name"].lower(), p["version"]) for p in json.loads(out))


def make_venv(t, name, index):
    root = os.path.join(t, name)
    subprocess.run(["/usr/bin/python3", "-m", "venv", root], check=True)
    py = os.path.join(root, "bin", "python")
    pip(py, "install", "--no-deps", "torch==2.5.1+cu121", "torchvision==0.20.1+cu121",
        "nvidia-cudnn-cu12==9.1.0.70", "nvidia-nvtx-cu12==2.20.5", "tqdm==4.66.1", index=index)
    return py


def first(doc):
    return doc["changes"][0] if doc["changes"] else {}


def same_with_itself(base):
    rc, doc = diff(base, base)
    check(rc == 0 and doc["changes"] == [] and doc["findings"] == [], f"a snapshot against itself: {doc}")
    rc, text = diff(base, base, fmt="text")
    check(text.strip() == "no change", f"text view of no change: {text!r}")


def cpu_over_cuda(t, py, base, index):
    pip(py, "install", "--no-deps", "torch==2.5.1+cpu", index=index)
    new = os.path.join(t, "cpu.json")
    snapshot(py, new, GPU)
    rc, doc = diff(base, new)
    c = first(doc)
    check(c.get("impact") == "breaks" and c.get("item") == "torch" and c.get("before") == "2.5.1+cu121" and
          c.get("after") == "2.5.1+cpu" and "torch_variant_mismatch" in c.get("finding_kinds", []) and
          c.get("environment") == py, f"+cu121 -> +cpu with a GPU: {doc['changes']}")
    check([f["kind"] for f in doc["findings"]] == ["torch_variant_mismatch"], f"new findings: {doc['findings']}")
    pip(py, "install", "--no-deps", "torch==2.5.1+cu121", index=index)


def torchvision_past_torch(t, py, base, index):
    pip(py, "install", "--no-deps", "torchvision==0.21.0+cu121", index=index)
    new = os.path.join(t, "tv.json")
    snapshot(py, new, GPU)
    rc, doc = diff(base, new)
    c = first(doc)
    check(c.get("impact") == "breaks" and c.get("item") == "torchvision" and
          c.get("finding_kinds") == ["companion_mismatch"], f"torchvision 0.21 on torch 2.5: {doc['changes']}")
    pip(py, "install", "--no-deps", "torchvision==0.20.1+cu121", index=index)


def nvidia_wheel(t, py, base, index):
    pip(py, "install", "--no-deps", "nvidia-nvtx-cu12==2.21.5", index=index)
    new = os.path.join(t, "nv.json")
    snapshot(py, new, GPU)
    rc, doc = diff(base, new)
    c = first(doc)
    check(rc == 0 and c.get("impact") == "risky" and c.get("item") == "nvidia-nvtx-cu12" and
          c.get("before") == "2.20.5" and c.get("after") == "2.21.5" and not doc["findings"],
          f"an nvidia-* wheel changed, no new finding: {doc['changes']}")
    pip(py, "install", "--no-deps", "nvidia-nvtx-cu12==2.20.5", index=index)


def pin_violated(t, py, base, index):
    """torch 2.5.1+cu121 pins nvidia-cudnn-cu12==9.1.0.70: another version
    is a violated pin (pip check agrees), so the change breaks."""
    pip(py, "install", "--no-deps", "nvidia-cudnn-cu12==9.5.0.50", index=index)
    pc = subprocess.run([py, "-m", "pip", "check"], capture_output=True, text=True)
    check(pc.returncode != 0 and "nvidia-cudnn-cu12" in pc.stdout, f"pip check: {pc.stdout}")
    new = os.path.join(t, "pin.json")
    snapshot(py, new, GPU)
    rc, doc = diff(base, new)
    c = first(doc)
    check(rc == 1 and c.get("impact") == "breaks" and c.get("item") == "nvidia-cudnn-cu12" and
          "companion_mismatch" in c.get("finding_kinds", []),
          f"a violated pin breaks: {doc['changes']}")
    check(any(f["kind"] == "companion_mismatch" and "nvidia-cudnn-cu12==9.1.0.70" in (f.get("fix") or "")
              for f in doc["findings"]), f"the pin's finding and fix: {doc['findings']}")
    pip(py, "install", "--no-deps", "nvidia-cudnn-cu12==9.1.0.70", index=index)


def older_driver(py, base):
    old = dict(GPU, TD_FAKE_CUDA_VERSION="11040", TD_FAKE_NVML_DRIVER="470.82.01")
    p = td(["diff", base, "--python", py, "--format", "json"], old)  # NEW: this machine now
    doc = json.loads(p.stdout)
    validate(doc)
    c = first(doc)
    check(p.returncode == 1 and c.get("impact") == "breaks" and c.get("area") == "driver" and
          "cuda_driver_too_old" in c.get("finding_kinds", []), f"driver 470 against 550: {doc['changes']}")
    check(all(x["area"] == "driver" for x in doc["changes"]), f"only the driver changed: {doc['changes']}")


def shadowing_entry(t):
    """Debian's torch, then LD_LIBRARY_PATH holding a broken copy of libc10."""
    soname = subprocess.run("objdump -p /usr/lib/x86_64-linux-gnu/libtorch_cpu.so.* | "
                            "awk '/NEEDED/ && /c10/ {print $2; exit}'", shell=True,
                            capture_output=True, text=True).stdout.strip()
    if not soname:
        print("skipped: shadowing case: no Debian libtorch_cpu.so (python3-torch)")
        return
    before = os.path.join(t, "deb.json")
    snapshot("/usr/bin/python3", before, args=["--no-gpu"])
    shadow = os.path.join(t, "shadow")
    os.makedirs(shadow)
    with open(os.path.join(shadow, soname), "w") as f:
        f.write("not a library\n")
    after = os.path.join(t, "deb-shadow.json")
    snapshot("/usr/bin/python3", after, {"LD_LIBRARY_PATH": shadow}, args=["--no-gpu"])
    rc, doc = diff(before, after)
    c = first(doc)
    check(rc == 1 and c.get("impact") == "breaks" and c.get("area") == "env" and
          c.get("item") == "LD_LIBRARY_PATH" and c.get("after") == shadow and
          "not_a_library" in c.get("finding_kinds", []), f"LD_LIBRARY_PATH shadows {soname}: {doc['changes'][:3]}")


def restore(t, py, base_doc, index):
    script = os.path.join(t, "restore.sh")
    p = td(["snapshot", "--python", py, "--restore-script", script], GPU)
    check(p.returncode in (0, 1) and os.path.exists(script), f"--restore-script: {p.stderr}")
    body = open(script).read()
    check("--index-url 'https://download.pytorch.org/whl/cu121' 'torch==2.5.1+cu121'" in body,
          f"torch from the cu121 index: {body}")
    check(body.index("uninstall") < body.index("install --no-deps"), "the stack is removed before installs")
    check("NVIDIA driver: it was 550.54.14" in body, f"the driver said in a comment: {body[:800]}")
    fresh = os.path.join(t, "fresh")
    subprocess.run(["/usr/bin/python3", "-m", "venv", fresh], check=True)
    fpy = os.path.join(fresh, "bin", "python")
    pip(fpy, "install", "--no-deps", "torch==2.5.1+cpu", index=index)  # a mixed variant to clear first
    run = subprocess.run(["sh", script, fpy], capture_output=True, text=True,
                         env=env_with({"PIP_NO_INDEX": "1", "PIP_FIND_LINKS": index,
                                       "PIP_DISABLE_PIP_VERSION_CHECK": "1"}, "/nonexistent-home"))
    check(run.returncode == 0, f"restore.sh: {run.stdout[-300:]} {run.stderr[-600:]}")
    want, got = pip_list(py), pip_list(fpy)
    check(want == got, f"restored package set: want {want}, got {got}")
    for ext in ("ps1", "bat"):
        other = os.path.join(t, "restore." + ext)
        td(["snapshot", "--python", py, "--restore-script", other], GPU)
        text = open(other).read()
        check("https://download.pytorch.org/whl/cu121" in text and "torch==2.5.1+cu121" in text and
              ("& $Py -m pip" in text if ext == "ps1" else '"%PY%" -m pip' in text), f"restore.{ext}: {text}")
    p = td(["snapshot", "--python", py, "--restore-script", os.path.join(t, "restore.txt")])
    check(p.returncode == 2 and "--restore-script" in p.stderr, f"restore.txt: exit {p.returncode}")


def restore_debian(t):
    """Debian's python3 holds only Debian packages: its restore script has
    nothing for pip to do and must still run to the end (an empty `pip
    uninstall -y` stops with "You must give at least one requirement").
    Run against a fresh venv, never the system's interpreter."""
    script = os.path.join(t, "restore-debian.sh")
    p = td(["snapshot", "--python", "/usr/bin/python3", "--no-gpu", "--restore-script", script])
    check(p.returncode in (0, 1) and os.path.exists(script), f"--restore-script of Debian's python3: {p.stderr}")
    fresh = os.path.join(t, "fresh-debian")
    subprocess.run(["/usr/bin/python3", "-m", "venv", fresh], check=True)
    run = subprocess.run(["sh", script, os.path.join(fresh, "bin", "python")], capture_output=True, text=True,
                         env=env_with({"PIP_NO_INDEX": "1", "PIP_DISABLE_PIP_VERSION_CHECK": "1"},
                                      "/nonexistent-home"))
    check(run.returncode == 0, f"restore-debian.sh: exit {run.returncode}: {run.stderr[-400:]}")


def change_log(t, py, index):
    log = os.path.join(t, "changes.jsonl")
    p1 = td(["snapshot", "--python", py, "--log", log], GPU)
    pip(py, "install", "--no-deps", "torch==2.5.1+cpu", index=index)
    p2 = td(["snapshot", "--python", py, "--log", log], GPU)
    pip(py, "install", "--no-deps", "torch==2.5.1+cu121", index=index)
    lines = open(log).read().splitlines()
    check(len(lines) == 2 and all(json.loads(l)["command"] == "snapshot" for l in lines), f"two log lines: {len(lines)}")
    check("first entry" in p1.stdout and "1 breaks" in p2.stdout and "torch_variant_mismatch" in p2.stdout,
          f"--log prints what changed: {p1.stdout!r} {p2.stdout!r}")
    p = td(["log", log, "--format", "json"])
    doc = json.loads(p.stdout)
    validate(doc)
    e = doc["entries"]
    check(p.returncode == 0 and len(e) == 2 and e[0]["first"] and e[1]["breaks"] == 1 and
          "2.5.1+cpu" in e[1]["summary"], f"log entries: {e}")
    p = td(["log", log])
    check(p.returncode == 0 and len(p.stdout.splitlines()) == 2 and "torch" in p.stdout.splitlines()[1],
          f"log text: {p.stdout}")
    with open(log, "a") as f:
        f.write("{not json\n")
    p = td(["log", log])
    check(p.returncode == 2 and ":3:" in p.stderr, f"a bad log line: exit {p.returncode} {p.stderr}")


def bad_inputs(t, base):
    junk = os.path.join(t, "junk.json")
    with open(junk, "w") as f:
        f.write("{\"tool\": \"torchdoctor\", \"command\": \"check\"}")
    for args in (["diff", junk, base], ["diff", base, os.path.join(t, "absent.json")], ["diff"],
                 ["diff", base, "--format", "yaml"]):
        p = td(args)
        check(p.returncode == 2 and p.stderr, f"{args}: exit {p.returncode} {p.stderr!r}")
    # A FIFO (nobody writing) or a folder where a snapshot or a log is
    # expected: refused at once with what it is, never waited on.
    fifo = os.path.join(t, "snap.fifo")
    os.mkfifo(fifo)
    for args, what in ((["diff", fifo, base], "FIFO"), (["log", fifo], "FIFO"),
                       (["diff", t, base], "directory"), (["log", t], "directory")):
        try:
            p = subprocess.run([TD, *args], capture_output=True, text=True, timeout=10,
                               env=env_with({}, "/nonexistent-home"))
            check(p.returncode == 2 and what in p.stderr, f"{args}: exit {p.returncode} {p.stderr!r}")
        except subprocess.TimeoutExpired:
            check(False, f"{args}: no answer within 10 s (it waits for a writer)")


def home_folded(t):
    """Paths under the home folder are written ~/...: two homes, one snapshot."""
    home = os.path.join(t, "home")
    os.makedirs(home)
    p = td(["snapshot", "--python", os.path.join(t, "venv", "bin", "python"), "--no-gpu"], home=t)
    check(p.returncode in (0, 1) and t not in p.stdout and "~/venv/bin/python" in p.stdout,
          f"home folded to ~: {p.stdout[:300]}")
    doc = json.loads(p.stdout)
    check("elapsed_ms" not in doc and "ram_available" not in doc["system"], "no timing or free-memory noise")


with tempfile.TemporaryDirectory() as t:
    index = os.path.join(t, "index")
    fake_wheels.build(index)
    py = make_venv(t, "venv", index)
    base = os.path.join(t, "base.json")
    base_doc = snapshot(py, base, GPU)
    pk = {p["name"]: p for e in base_doc["snapshot"]["environments"] for p in e["packages"]}
    check(pk.get("torch", {}).get("index_url") == "https://download.pytorch.org/whl/cu121" and
          pk["torch"]["installer"] == "pip" and pk["torch"]["local"] == "cu121",
          f"torch's index from its variant: {pk.get('torch')}")
    check(set(pk) >= {"torch", "torchvision", "nvidia-cudnn-cu12", "tqdm", "pip"}, f"every distribution: {sorted(pk)}")
    same_with_itself(base)
    cpu_over_cuda(t, py, base, index)
    torchvision_past_torch(t, py, base, index)
    nvidia_wheel(t, py, base, index)
    pin_violated(t, py, base, index)
    older_driver(py, base)
    shadowing_entry(t)
    restore(t, py, base_doc, index)
    restore_debian(t)
    change_log(t, py, index)
    bad_inputs(t, base)
    home_folded(t)

finish("snapshot cases")
