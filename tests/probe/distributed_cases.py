"""check's distributed-training readiness (src/probe/distributed/): every fact
read under the probe root, so each is faked here. A root with interfaces
lo, eth0, ib0 and an InfiniBand device, a 64 MB /dev/shm (Docker's default)
and a 64 KiB memlock limit; then the environment: NCCL_SOCKET_IFNAME in
NCCL's syntax (prefixes, ^ to exclude, = for exact), GLOO_SOCKET_IFNAME,
MASTER_ADDR that cannot resolve (RFC 6761's .invalid) and localhost,
MASTER_PORT, incoherent ranks, NCCL_IB_DISABLE. Last, a venv whose fake
torch has ProcessGroupNCCL in libtorch_cuda.so's symbols, needs
libnccl.so.2 from nvidia/nccl/lib, and pins nvidia-nccl-cu12==2.20.5 while
the wheel beside it is 2.19.3. And NCCL_P2P_DISABLE against the NVLink
NVML reports."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, finish, td_json  # noqa: E402
from pkgmeta import dist_info  # noqa: E402

BASE_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent"}


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def fake_root(top):
    root = os.path.join(top, "root")
    for iface in ("lo", "eth0", "ib0"):
        os.makedirs(os.path.join(root, "sys/class/net", iface))
    os.makedirs(os.path.join(root, "sys/class/infiniband/mlx5_0"))
    write(os.path.join(root, "proc/self/mountinfo"),
          "22 1 0:21 / / rw - overlay overlay rw\n"
          "33 22 0:30 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,size=65536k\n")
    # MASTER_ADDR is looked up in the root's files (no glibc NSS; see
    # resolve_cases.py): localhost in its /etc/hosts, asked first.
    write(os.path.join(root, "etc/hosts"), "127.0.0.1 localhost\n")
    write(os.path.join(root, "etc/nsswitch.conf"), "hosts: files dns\n")
    write(os.path.join(root, "proc/self/limits"),
          "Limit                     Soft Limit           Hard Limit           Units     \n"
          "Max locked memory         65536                65536                bytes     \n")
    return root


def run(root, **env):
    rc, doc = td_json("check", "--root", root, "--no-gpu", env=dict(BASE_ENV, **env), schema=True)
    return doc, rc


def about(doc, symbol):
    return [f for f in doc["findings"] if f.get("symbol") == symbol]


def roots_and_env(top):
    root = fake_root(top)
    doc, rc = run(root)
    d = doc["distributed"]
    check(d["interfaces"] == ["eth0", "ib0", "lo"], f"interfaces under the root: {d['interfaces']}")
    # /dev/shm and memlock are the environment probe's facts, judged there
    # once (container_limit): shown here, not a second finding.
    check(d["shm_bytes"] == 64 << 20, f"shm: {d}")
    check(d["memlock_bytes"] == 65536 and d["infiniband"], f"memlock: {d}")
    shm = [f for f in doc["findings"] if "/dev/shm" in f["detail"]]
    check(len(shm) == 1 and shm[0]["kind"] == "container_limit", f"one /dev/shm finding: {shm}")

    cases = [  # (NCCL_SOCKET_IFNAME, bad?)
        ("eth9", True), ("eth", False), ("=eth", True), ("=eth0", False), ("^eth,ib,lo", True),
        ("^docker,lo", False), ("ib0,eth0", False)]
    for value, bad in cases:
        doc, rc = run(root, NCCL_SOCKET_IFNAME=value)
        got = about(doc, "NCCL_SOCKET_IFNAME")
        check(bool(got) == bad, f"NCCL_SOCKET_IFNAME={value}: finding expected {bad}, got {got}")
        if bad and got:
            check(got[0]["kind"] == "env_var_invalid" and got[0]["severity"] == "error" and rc == 1,
                  f"NCCL_SOCKET_IFNAME={value} is an error: {got} rc {rc}")
            check("eth0" in got[0]["fix"], f"the fix names an interface that exists: {got[0]['fix']}")
    doc, rc = run(root, GLOO_SOCKET_IFNAME="eth0,bond0")
    got = about(doc, "GLOO_SOCKET_IFNAME")
    check(len(got) == 1 and "bond0" in got[0]["detail"], f"GLOO_SOCKET_IFNAME: {got}")

    doc, rc = run(root, MASTER_ADDR="no-such-host.invalid", MASTER_PORT="29500")
    got = about(doc, "MASTER_ADDR")
    check(len(got) == 1 and got[0]["kind"] == "env_var_invalid" and rc == 1,
          f"MASTER_ADDR that does not resolve: {got} rc {rc}")
    check(doc["distributed"]["master_addr_resolves"] is False, "master_addr_resolves false")
    doc, rc = run(root, MASTER_ADDR="localhost", MASTER_PORT="70000")
    check(not about(doc, "MASTER_ADDR") and doc["distributed"]["master_addr_resolves"] is True,
          "localhost resolves")
    check(len(about(doc, "MASTER_PORT")) == 1, "MASTER_PORT 70000 is not a port")
    doc, rc = run(root, WORLD_SIZE="2", RANK="2")
    check(any("RANK is not below WORLD_SIZE" in f["detail"] for f in about(doc, "RANK")), "RANK >= WORLD_SIZE")
    doc, rc = run(root, WORLD_SIZE="4", RANK="3", LOCAL_RANK="1", LOCAL_WORLD_SIZE="2")
    check(not about(doc, "RANK"), f"coherent ranks: {about(doc, 'RANK')}")
    doc, rc = run(root, NCCL_IB_DISABLE="1")
    got = about(doc, "NCCL_IB_DISABLE")
    check(len(got) == 1 and got[0]["severity"] == "warning" and "TCP" in got[0]["detail"], f"IB off: {got}")


def shared(out, code, needs=(), rpath=None, libdirs=()):
    args = ["gcc", "-shared", "-fPIC", "-o", out, "-x", "c", "-", "-Wl,--no-as-needed",
            "-Wl,-soname," + os.path.basename(out)]
    if rpath:
        args.append("-Wl,--disable-new-dtags,-rpath," + rpath)
    args += [f"-L{d}" for d in libdirs] + [f"-l:{n}" for n in needs]
    subprocess.run(args, input=code, text=True, check=True)


def fake_torch(top):
    venv = os.path.join(top, "venv")
    site = os.path.join(venv, "lib", "python3.11", "site-packages")
    os.makedirs(os.path.join(venv, "bin"))
    os.symlink("/usr/bin/python3.11", os.path.join(venv, "bin", "python3"))
    write(os.path.join(venv, "pyvenv.cfg"), "home = /usr/bin\ninclude-system-site-packages = false\n")
    ncl = os.path.join(site, "nvidia", "nccl", "lib")
    os.makedirs(ncl)
    shared(os.path.join(ncl, "libnccl.so.2"), "int ncclGetVersion(int *v) { *v = 21903; return 0; }\n")
    dist_info(site, "nvidia-nccl-cu12", "2.19.3", [], ["nvidia/nccl/lib/libnccl.so.2"])
    lib = os.path.join(site, "torch", "lib")
    os.makedirs(lib)
    # c10d's process groups by their mangled names, as the real library exports them.
    shared(os.path.join(lib, "libtorch_cuda.so"),
           "void _ZN4c10d16ProcessGroupNCCLC1Ev(void) {}\nvoid _ZN4c10d16ProcessGroupGlooC1Ev(void) {}\n",
           needs=("libnccl.so.2",), rpath="$ORIGIN/../../nvidia/nccl/lib", libdirs=(ncl,))
    ext = "_C.cpython-311-x86_64-linux-gnu.so"
    shared(os.path.join(site, "torch", ext), "int PyInit__C(void) { return 0; }\n",
           needs=("libtorch_cuda.so",), rpath="$ORIGIN/lib", libdirs=(lib,))
    write(os.path.join(site, "torch", "__init__.py"), "")
    write(os.path.join(site, "torch", "version.py"),
          "__version__ = '2.3.1+cu121'\ncuda: Optional[str] = '12.1'\nhip = None\n")
    dist_info(site, "torch", "2.3.1+cu121",
              ["nvidia-nccl-cu12==2.20.5; platform_system == \"Linux\" and platform_machine == \"x86_64\""],
              ["torch/__init__.py", "torch/version.py", "torch/lib/libtorch_cuda.so", f"torch/{ext}"])
    rc, doc = td_json("check", "--python", os.path.join(venv, "bin", "python3"), "--no-gpu",
                      env=BASE_ENV, schema=True)
    d = doc["distributed"]
    check(d["backends"] == {"nccl": True, "gloo": True, "mpi": False}, f"backends: {d['backends']}")
    n = d["nccl"]
    check(n["path"] and n["path"].endswith("nvidia/nccl/lib/libnccl.so.2"), f"nccl path: {n}")
    check(n["version"] == "2.19.3" and n["version_from"] == "nvidia-nccl-cu12", f"nccl version: {n}")
    check(n["torch_pin"] == "nvidia-nccl-cu12==2.20.5" and n["matches_pin"] is False, f"pin: {n}")
    got = [f for f in doc["findings"] if f["kind"] == "companion_mismatch" and "NCCL" in f["detail"]]
    check(len(got) == 1 and "2.20.5" in got[0]["detail"], f"pin mismatch finding: {got}")


def topology():
    """NCCL_P2P_DISABLE=1 against NVML's topology (the stand-in driver of
    tests/fixtures/fake_cuda answers for three H100s): with NVLink between
    them the finding names the pairs it turns off; without, the plain
    cost; one finding either way."""
    lib = os.path.join(os.environ["TD_FIXTURES"], "fake_cuda", "lib")
    gpus = ";".join(["NVIDIA H100:9.0:85899345920"] * 3)
    for topo, p2p, nvlink in [("3 10 1", "1", True), ("3 20 0", "1", False), ("3 10 1", None, False)]:
        env = dict(BASE_ENV, LD_LIBRARY_PATH=lib, TD_FAKE_CUDA_VERSION="12040",
                   TD_FAKE_NVML_DRIVER="550.54.15", TD_FAKE_GPUS=gpus, TD_FAKE_NVML_TOPO=topo)
        if p2p:
            env["NCCL_P2P_DISABLE"] = p2p
        doc, rc = run_env(env)
        links = doc["distributed"]["topology"]
        check(len(links) == 3 and all(x["nvlink"] is (topo.endswith("1")) for x in links),
              f"topology {topo}: {links}")
        got = about(doc, "NCCL_P2P_DISABLE")
        check(len(got) == (1 if p2p else 0), f"P2P off with {topo}: {got}")
        if got:
            said = "NVLink joins GPUs 0-1, 0-2, 1-2" in got[0]["detail"]
            check(said is nvlink and got[0]["severity"] == "warning", f"{topo}: {got[0]['detail']}")


def run_env(env):
    rc, doc = td_json("check", env=env, schema=True)
    return doc, rc


with tempfile.TemporaryDirectory() as top:
    roots_and_env(top)
    fake_torch(top)
topology()
finish("distributed")
