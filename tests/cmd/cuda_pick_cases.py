"""Which CUDA line a fix picks. The rule (issue 13): the newest CUDA line
whose arch list has the GPU and whose driver minimum this driver meets --
for a GPU that cubins serve, the CUDA major's minor-version-compatibility
floor (cuda_minor_compat.tsv). The expected pick is computed here from the
tables, independently of the C code, and check (with the stand-in NVIDIA
driver, tests/fixtures/fake_cuda.sh, faking the GPU) and compat must name
it in their fixes."""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import GPU_VARS, TD, check, env_without, finish, table, td_json  # noqa: E402
from pkgmeta import dist_info  # noqa: E402

FAKE_LIB = os.path.join(os.environ["TD_FIXTURES"], "fake_cuda", "lib")
T4 = "Tesla T4:7.5:16106127360"
RTX5090 = "NVIDIA GeForce RTX 5090:12.0:34190917632"


def ver(s):
    return tuple(int(x) for x in re.findall(r"\d+", s))


def arches(torch, cuda):
    """The release's own row, else what every build-script snapshot of that
    CUDA shares (rows with torch "-"), as docs/knowledge.md says."""
    rows = [r for r in table("torch_cuda_arch_list") if r["cuda"] == cuda and r["platform"] == "linux_x86_64"]
    own = [r for r in rows if r["torch"] == torch] or [r for r in rows if r["torch"] == "-"]
    return set.intersection(*(set(r["arches"].split(";")) for r in own)) if own else None


def has_cubin(arch_list, cc):
    major, minor = ver(cc)
    return any(ver(a)[0] == major and ver(a)[1] <= minor for a in arch_list)


def floor(cuda):
    """The minor-version-compatibility floor of CUDA's major (a driver branch)."""
    major = cuda.split(".")[0]
    row = next(r for r in table("cuda_minor_compat") if r["cuda_major"] == major)
    return ver(row["branch_min"])


def python_ok(torch, python="3.11"):
    r = next(r for r in table("torch_releases") if r["torch"] == torch)
    return ver(r["python_min"]) <= ver(python) <= ver(r["python_max"])


def expected(cc, driver, torch=None):
    """(torch, cuda) of the newest build with a cubin for CC whose floor DRIVER meets."""
    builds = [r for r in table("torch_cuda_builds") if (torch is None or r["torch"] == torch) and python_ok(r["torch"])]
    builds.sort(key=lambda r: (ver(r["torch"]), ver(r["cuda"])), reverse=True)
    for r in builds:
        a = arches(r["torch"], r["cuda"])
        if a and has_cubin(a, cc) and ver(driver)[:1] >= floor(r["cuda"])[:1]:
            return r["torch"], r["cuda"]
    return None


def venv(t, name, version, cuda):
    root = os.path.join(t, name)
    site = os.path.join(root, "lib", "python3.11", "site-packages")
    os.makedirs(os.path.join(site, "torch"))
    os.makedirs(os.path.join(root, "bin"))
    os.symlink("/usr/bin/python3.11", os.path.join(root, "bin", "python3"))
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    with open(os.path.join(site, "torch", "version.py"), "w") as f:
        f.write(f"__version__ = '{version}'\ncuda: Optional[str] = {repr(cuda) if cuda else 'None'}\nhip = None\n")
    with open(os.path.join(site, "torch", "__init__.py"), "w") as f:
        f.write("# torch\n")
    dist_info(site, "torch", version, files=["torch/version.py", "torch/__init__.py"])
    return os.path.join(root, "bin", "python3")


def run_check(py, cuda_int, driver, gpus):
    env = env_without(*GPU_VARS)
    env.update({"HOME": "/nonexistent", "LD_LIBRARY_PATH": FAKE_LIB, "TD_FAKE_CUDA_VERSION": str(cuda_int),
                "TD_FAKE_NVML_DRIVER": driver, "TD_FAKE_GPUS": gpus})
    return td_json("check", "--python", py, env=env, timeout=120, tail=300)[1]["findings"]


def index(cuda):
    return "https://download.pytorch.org/whl/cu" + cuda.replace(".", "")


def fix_of(findings, kind):
    f = [x for x in findings if x["kind"] == kind]
    check(len(f) == 1, f"one {kind}: {findings}")
    return f[0]["fix"] if f else ""


def names(fix, want, what):
    torch, cuda = want
    check(f'"torch=={torch}.*"' in fix and fix.rstrip().endswith(index(cuda)), f"{what}: want {want}, fix {fix}")


def t4_cpu_torch(t):
    py = venv(t, "cpu", "2.5.1+cpu", None)
    # A new driver: the newest 2.5 line listing 7.5.
    want = expected("7.5", "580.65.06", "2.5")
    check(want == ("2.5", "12.4"), f"the tables' pick for a T4 on 580 with torch 2.5: {want}")
    names(fix_of(run_check(py, 13000, "580.65.06", T4), "torch_variant_mismatch"), want, "T4, driver 580")
    # A driver under the 12.x floor: the newest line whose floor it meets.
    want = expected("7.5", "520.61.05", "2.5")
    check(want == ("2.5", "11.8"), f"the tables' pick for a T4 on 520: {want}")
    names(fix_of(run_check(py, 11080, "520.61.05", T4), "torch_variant_mismatch"), want, "T4, driver 520")


def t4_compat():
    """compat's best pick follows the same rule: 2.14 lists 7.5 for cu132, cu130 and cu126."""
    for driver in ("580.65.06", "570.86.10"):
        p = subprocess.run([TD, "compat", "--gpu", "sm_75", "--driver", driver, "--format", "json"],
                           capture_output=True, text=True)
        doc = json.loads(p.stdout)
        best = doc.get("best") or {}
        want = expected("7.5", driver)
        got = (best.get("torch"), best.get("cuda"))
        check(got == want, f"compat --gpu sm_75 --driver {driver}: best {got}, the tables say {want}")


def rtx5090_old_torch(t):
    py = venv(t, "cu121", "2.5.1+cu121", "12.1")
    # 570.86.10 is under 12.8's full-feature minimum but above the 12.x floor.
    want = expected("12.0", "570.86.10")
    check(want and want[1] == "12.8", f"the tables' pick for an RTX 5090 on 570: {want}")
    fix = fix_of(run_check(py, 12080, "570.86.10", RTX5090), "gpu_arch_unsupported")
    names(fix, want, "RTX 5090, driver 570")
    # Under every floor of a line that lists 12.0: a driver update first, then the newest build.
    fix = fix_of(run_check(py, 11080, "520.61.05", RTX5090), "gpu_arch_unsupported")
    want = expected("12.0", "999")
    check(fix.startswith("update the NVIDIA driver to ") and "520.61.05" in fix, f"RTX 5090 on 520: {fix}")
    names(fix, want, "RTX 5090, driver 520, after the update")


def rtx5090_compat_torch25():
    """No 2.5 build lists 12.0 (torch_cuda_arch_list: the cu118/cu121/cu124 snapshots stop at 9.0 and
    do not all ship PTX): compat says so, and its fix names a build that has sm_120."""
    check(all(not has_cubin(arches("2.5", r["cuda"]) or [], "12.0")
              for r in table("torch_cuda_builds") if r["torch"] == "2.5"), "the table's 2.5 rows lack 12.0")
    p = subprocess.run([TD, "compat", "--torch", "2.5", "--gpu", "sm_120", "--format", "json"],
                       capture_output=True, text=True)
    doc = json.loads(p.stdout)
    f = [x for x in doc["findings"] if x["kind"] == "gpu_arch_unsupported"]
    check(p.returncode == 1 and len(f) == 1, f"compat --torch 2.5 --gpu sm_120: {doc['findings']}")
    want = expected("12.0", "999")
    if f:
        names(f[0]["fix"], want, "compat --torch 2.5 --gpu sm_120")


with tempfile.TemporaryDirectory() as t:
    t4_cpu_torch(t)
    t4_compat()
    rtx5090_old_torch(t)
    rtx5090_compat_torch25()
finish("cuda pick cases")
