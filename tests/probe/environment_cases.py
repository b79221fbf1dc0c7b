#!/usr/bin/python3
"""check's environment section (issue 29) over whole fake systems: one root
per environment (bare metal, VM, Docker, Podman, Kubernetes, containerd,
Apptainer, LXC, WSL1, WSL2), each recognised with its evidence, and one per
failure (GPU not passed through, the toolkit's variables, device nodes,
driver libraries against the kernel module, the image's CUDA and cuda-compat,
WSL2's libcuda shadowed by a Linux driver, /dev/dxg, ldconfig's "not a
symbolic link", /dev/shm, CPU quota, memlock), each named with its fix. The
clean bare-metal and container layouts have no finding at all. The driver
libraries are real shared objects (gcc); WSL's ld.so.cache is built by the
real ldconfig, whose own warning is the oracle for the copies."""
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish, kinds, shared_lib, table, td_json  # noqa: E402

BASE_ENV = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "LANG": "C"}
LIBDIR = "usr/lib/x86_64-linux-gnu"


def write(root, rel, text="", mode=None):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(text.encode() if isinstance(text, str) else text)
    if mode is not None:
        os.chmod(path, mode)


def link(root, rel, target):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    os.symlink(target, path)


def base(root, cpus="0-15", cgroup="0::/user.slice/user-1000.slice/session-1.scope\n", shm_opts="rw"):
    """A Debian system: os-release, 32 GiB of RAM, a CPU without the
    hypervisor flag, /dev/shm at tmpfs's default, cgroup v2 without limits."""
    write(root, "etc/os-release", 'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nID=debian\nVERSION_ID="12"\n')
    write(root, "proc/meminfo", "MemTotal:       32768000 kB\nMemAvailable:   30000000 kB\n")
    write(root, "proc/cpuinfo", "processor\t: 0\nflags\t\t: fpu sse sse2 avx2\n")
    write(root, "proc/self/mountinfo",
          "26 1 254:0 / / rw,relatime - ext4 /dev/nvme0n1p2 rw\n"
          f"30 26 0:25 / /dev/shm rw,nosuid,nodev - tmpfs tmpfs {shm_opts}\n")
    write(root, "proc/self/cgroup", cgroup)
    write(root, "proc/self/limits", "Limit                     Soft Limit           Hard Limit           Units\n"
          "Max locked memory         8388608              8388608              bytes\n")
    write(root, "sys/fs/cgroup/memory.max", "max\n")
    write(root, "sys/fs/cgroup/cpu.max", "max 100000\n")
    write(root, "sys/devices/system/cpu/online", cpus + "\n")


def gpu_host(root, libs, driver="550.54.15", gpu="NVIDIA A100-SXM4-80GB", uvm=True, mode=0o666, lib_driver=None):
    """The NVIDIA driver as the kernel module and the toolkit give it: the
    version file, the GPU's information, the device nodes, libcuda and NVML."""
    write(root, "proc/driver/nvidia/version",
          f"NVRM version: NVIDIA UNIX x86_64 Kernel Module  {driver}  Thu Feb 22 01:44:30 UTC 2024\n"
          "GCC version:  gcc version 12.2.0 (Debian 12.2.0-14)\n")
    write(root, "proc/driver/nvidia/gpus/0000:01:00.0/information", f"Model: \t\t {gpu}\nIRQ:   \t\t 140\n")
    nodes = ["nvidiactl", "nvidia0"] + (["nvidia-uvm"] if uvm else [])
    for n in nodes:
        write(root, f"dev/{n}", "", mode)
    v = lib_driver or driver
    os.makedirs(os.path.join(root, LIBDIR), exist_ok=True)
    for soname, stem in (("libcuda.so.1", "libcuda"), ("libnvidia-ml.so.1", "libnvidia-ml")):
        shutil.copy(libs[stem], os.path.join(root, LIBDIR, f"{stem}.so.{v}"))
        link(root, f"{LIBDIR}/{soname}", f"{stem}.so.{v}")


def docker(root, shm="size=16777216k", cgroup="12:memory:/docker/0123abcd\n11:cpu,cpuacct:/docker/0123abcd\n"):
    write(root, ".dockerenv")
    write(root, "proc/self/mountinfo",
          "500 400 0:52 / / rw,relatime - overlay overlay rw,lowerdir=/var/lib/docker/overlay2/l/A,"
          "upperdir=/var/lib/docker/overlay2/x/diff\n"
          f"510 500 0:55 / /dev/shm rw,nosuid,nodev,noexec,relatime - tmpfs shm rw,{shm}\n")
    write(root, "proc/1/cgroup", cgroup)
    write(root, "proc/self/cgroup", cgroup)
    write(root, "sys/fs/cgroup/memory/memory.limit_in_bytes", "9223372036854771712\n")
    write(root, "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "-1\n")
    write(root, "sys/fs/cgroup/cpu/cpu.cfs_period_us", "100000\n")


def cuda_image(root, version="12.4.1", compat=None, libs=None):
    write(root, "usr/local/cuda/version.json",
          '{\n   "cuda" : {\n      "name" : "CUDA SDK",\n      "version" : "%s"\n   },\n'
          '   "cuda_cudart" : {\n      "name" : "CUDA Runtime (cudart)",\n      "version" : "12.4.127"\n   }\n}\n'
          % version)
    if compat:
        d = os.path.join(root, "usr/local/cuda/compat")
        os.makedirs(d, exist_ok=True)
        shutil.copy(libs["libcuda"], os.path.join(d, f"libcuda.so.{compat}"))
        os.symlink(f"libcuda.so.{compat}", os.path.join(d, "libcuda.so.1"))


def run(root, env=None, user=None, what=""):
    e = {**BASE_ENV, **(env or {})}
    prog = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", TD] if user else None
    rc, doc = td_json("check", "--root", root, "--no-gpu", env=e, schema=True, what=what, timeout=120,
                      prog=prog)
    return rc, doc


def env_of(doc):
    return doc.get("environment") or {}


def evidence(doc):
    return [(x["probe"], x["value"], x["evidence"]) for x in env_of(doc).get("evidence", [])]


def one(doc, kind, what):
    f = kinds(doc, kind)
    check(len(f) == 1, f"{what}: one {kind} finding, got {[(x['kind'], x['detail']) for x in doc['findings']]}")
    return f[0] if f else {"severity": None, "detail": "", "fix": "", "library": None}


def environments(t, libs):
    """Every environment from its fake root, with its evidence."""
    cases = []

    def case(name, build, env, kind, probe, value, says):
        root = os.path.join(t, "env-" + name)
        os.makedirs(root)
        base(root)
        build(root)
        cases.append((name, root, env, kind, probe, value, says))

    case("bare", lambda r: None, {}, "bare_metal", None, None, None)
    case("vm", lambda r: write(r, "sys/class/dmi/id/sys_vendor", "QEMU\n"), {}, "vm", "vm", "kvm",
         "/sys/class/dmi/id/sys_vendor")
    case("docker", lambda r: docker(r), {}, "docker", "container", "docker", "/.dockerenv exists")
    case("podman", lambda r: write(r, "run/.containerenv", 'engine="podman-4.3.1"\n'), {}, "podman", "container",
         "podman", "/run/.containerenv exists")
    case("kubernetes", lambda r: write(r, "var/run/secrets/kubernetes.io/serviceaccount/token", "x"),
         {"KUBERNETES_SERVICE_HOST": "10.96.0.1"}, "kubernetes", "container", "kubernetes",
         "KUBERNETES_SERVICE_HOST=10.96.0.1 is set")
    case("containerd", lambda r: write(r, "proc/self/mountinfo",
                                       "700 600 0:60 / / rw - overlay overlay rw,lowerdir=/var/lib/containerd/"
                                       "io.containerd.snapshotter.v1.overlayfs/snapshots/1/fs\n"),
         {}, "containerd", "container", "containerd", "/containerd/")
    case("apptainer", lambda r: os.makedirs(os.path.join(r, ".singularity.d")),
         {"APPTAINER_CONTAINER": "/home/u/torch.sif"}, "apptainer", "container", "apptainer",
         "APPTAINER_CONTAINER=/home/u/torch.sif is set")
    case("lxc", lambda r: write(r, "proc/1/environ", b"PATH=/usr/bin\0container=lxc\0TERM=dumb"), {}, "lxc",
         "container", "lxc", "/proc/1/environ has container=lxc")
    case("wsl1", lambda r: (write(r, "proc/sys/kernel/osrelease", "4.4.0-19041-Microsoft\n"),
                            write(r, "proc/version", "Linux version 4.4.0-19041-Microsoft (Microsoft@Microsoft.com)\n")),
         {"WSL_DISTRO_NAME": "Ubuntu"}, "wsl1", "wsl", "1", "/proc/sys/kernel/osrelease")
    case("wsl2", lambda r: (write(r, "proc/version", "Linux version 5.15.153.1-microsoft-standard-WSL2 (root@x)\n"),
                            write(r, "dev/dxg")),
         {"WSL_DISTRO_NAME": "Ubuntu"}, "wsl2", "wsl", "2", "/proc/version contains \"microsoft-standard\"")
    for name, root, env, kind, probe, value, says in cases:
        rc, doc = run(root, env, what=f"environment {name}")
        e = env_of(doc)
        ev = evidence(doc)
        check(e.get("kind") == kind, f"{name}: kind {e.get('kind')}, want {kind}; evidence {ev}")
        if probe:
            check(any(p == probe and v == value and says in x for p, v, x in ev),
                  f"{name}: evidence names {says!r}: {ev}")
        else:
            check(ev == [], f"{name}: no marker at all: {ev}")
        p = subprocess.run([TD, "check", "--root", root, "--no-gpu", "--format", "text", "--color", "never"],
                           capture_output=True, text=True, env={**BASE_ENV, **env})
        check(probe is None or says in p.stdout, f"{name}: the text report prints the evidence: {p.stdout[:800]}")


def clean(t, libs):
    """A GPU machine and a GPU container as they should be: no finding."""
    root = os.path.join(t, "clean-bare")
    base(root)
    gpu_host(root, libs)
    rc, doc = run(root, what="clean bare metal")
    pt = env_of(doc).get("passthrough", {})
    check(rc == 0 and doc["findings"] == [], f"clean bare metal: no finding: {doc['findings']}")
    check(pt.get("kernel_module") == "550.54.15" and pt["libcuda"]["driver_version"] == "550.54.15" and
          pt["libcuda"]["file"].endswith("libcuda.so.550.54.15") and
          pt["libnvidia_ml"]["driver_version"] == "550.54.15" and pt.get("gpu_name") == "NVIDIA A100-SXM4-80GB",
          f"clean bare metal: the driver's libraries and module: {pt}")
    check(all(n["exists"] and n["openable"] for n in pt.get("nodes", [])) and len(pt.get("nodes", [])) == 3,
          f"clean bare metal: nodes {pt.get('nodes')}")
    lim = env_of(doc).get("limits", {})
    check(lim.get("shm_bytes") == 32768000 * 1024 // 2 and "half of RAM" in (lim.get("shm_from") or ""),
          f"tmpfs without size=: half of RAM: {lim}")
    check(lim.get("cgroup") == 2 and lim.get("online_cpus") == 16 and lim.get("cpu_quota") is None,
          f"cgroup v2 without limits: {lim}")

    root = os.path.join(t, "clean-docker")
    base(root)
    docker(root)
    gpu_host(root, libs)
    cuda_image(root, "12.4.1")
    rc, doc = run(root, {"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "compute,utility"},
                  what="clean docker")
    check(rc == 0 and doc["findings"] == [], f"clean GPU container: no finding: {doc['findings']}")
    pt = env_of(doc).get("passthrough", {})
    check(pt.get("image_cuda") == "12.4.1" and pt.get("nvidia_visible_devices") == "all",
          f"clean docker: the image's CUDA and the toolkit's variables: {pt}")
    check(env_of(doc)["limits"]["shm_bytes"] == 16 << 30, f"--shm-size=16g read: {env_of(doc)['limits']}")


def failure(t, name, build, env=None, user=None):
    root = os.path.join(t, "fail-" + name)
    os.makedirs(root)
    base(root)
    build(root)
    return run(root, env, user=user, what=name)


def passthrough_failures(t, libs):
    rc, doc = failure(t, "docker-no-gpu", lambda r: (docker(r), cuda_image(r)), {"NVIDIA_VISIBLE_DEVICES": "all"})
    f = one(doc, "gpu_not_visible", "docker without --gpus")
    check(rc == 1 and f["severity"] == "error" and "docker run --gpus all" in f["fix"] and
          "nvidia-ctk runtime configure --runtime=docker" in f["fix"], f"docker without --gpus: {f}")
    rc, doc = failure(t, "podman-no-gpu", lambda r: (write(r, "run/.containerenv"), cuda_image(r)))
    f = one(doc, "gpu_not_visible", "podman without the GPU")
    check("podman run --device nvidia.com/gpu=all" in f["fix"] and "nvidia-ctk cdi generate" in f["fix"],
          f"podman without the GPU: {f}")
    rc, doc = failure(t, "apptainer-no-gpu", lambda r: cuda_image(r), {"APPTAINER_CONTAINER": "/x.sif"})
    f = one(doc, "gpu_not_visible", "apptainer without --nv")
    check("apptainer exec --nv" in f["fix"], f"apptainer without --nv: {f}")

    rc, doc = failure(t, "void", lambda r: (docker(r), cuda_image(r)), {"NVIDIA_VISIBLE_DEVICES": "void"})
    f = one(doc, "gpu_not_visible", "NVIDIA_VISIBLE_DEVICES=void")
    check(f["library"] == "NVIDIA_VISIBLE_DEVICES" and "NVIDIA_VISIBLE_DEVICES=all" in f["fix"] and
          "docker run --gpus all" in f["fix"], f"void: {f}")
    rc, doc = failure(t, "caps", lambda r: (docker(r), gpu_host(r, libs)),
                      {"NVIDIA_VISIBLE_DEVICES": "all", "NVIDIA_DRIVER_CAPABILITIES": "graphics,video"})
    f = one(doc, "env_var_invalid", "capabilities without compute")
    check(f["severity"] == "error" and "compute" in f["detail"] and
          "NVIDIA_DRIVER_CAPABILITIES=compute,utility" in f["fix"], f"capabilities: {f}")

    rc, doc = failure(t, "no-uvm", lambda r: gpu_host(r, libs, uvm=False))
    f = one(doc, "gpu_not_visible", "no nvidia-uvm")
    check(f["library"] == "/dev/nvidia-uvm" and "modprobe nvidia-uvm" in f["fix"], f"no nvidia-uvm: {f}")

    if os.geteuid() == 0 and shutil.which("setpriv"):
        rc, doc = failure(t, "nodes-0600", lambda r: gpu_host(r, libs, mode=0o600), user="nobody")
        f = one(doc, "device_not_accessible", "nodes 0600 root, user nobody")
        check("/dev/nvidiactl" in f["library"] and "usermod -aG" in f["fix"], f"nodes not openable: {f}")
        pt = env_of(doc).get("passthrough", {})
        check(all(n["exists"] and not n["openable"] for n in pt.get("nodes", [])), f"nodes: {pt.get('nodes')}")
    else:
        print("skipped: device nodes this user cannot open (needs root to run check as nobody via setpriv)")

    def mismatch(r):
        docker(r)
        gpu_host(r, libs, lib_driver="535.104.05")
        write(r, "var/lib/dpkg/info/libnvidia-compute-535:amd64.list",
              f"/.\n/usr\n/usr/lib\n/{LIBDIR}\n/{LIBDIR}/libcuda.so.535.104.05\n/{LIBDIR}/libcuda.so.1\n")
    rc, doc = failure(t, "mismatch", mismatch, {"NVIDIA_VISIBLE_DEVICES": "all"})
    f = one(doc, "driver_library_mismatch", "libcuda 535 vs module 550")
    check(f["severity"] == "error" and "Driver/library version mismatch" in f["detail"] and "535.104.05" in
          f["detail"] and "550.54.15" in f["detail"] and "apt-get remove --purge libnvidia-compute-535" in f["fix"]
          and f["library"].endswith("libcuda.so.535.104.05"), f"mismatch: {f}")
    check(env_of(doc)["passthrough"]["libcuda"]["package"] == "libnvidia-compute-535",
          f"the package is read from /var/lib/dpkg/info: {env_of(doc)['passthrough']['libcuda']}")


def cuda_failures(t, libs):
    rc, doc = failure(t, "image-too-new", lambda r: (docker(r), gpu_host(r, libs, driver="470.82.01"),
                                                     cuda_image(r, "12.4.1")), {"NVIDIA_VISIBLE_DEVICES": "all"})
    f = one(doc, "cuda_driver_too_old", "CUDA 12.4 image on a 470 driver")
    need = [r for r in table("cuda_driver_minimums") if r["cuda"].startswith("12.4")]
    check(f["severity"] == "error" and "470.82.01" in f["detail"] and "update the NVIDIA driver" in f["fix"] and
          "on the host" in f["fix"] and need, f"image too new: {f}")
    rc, doc = failure(t, "compat-geforce", lambda r: (docker(r), gpu_host(r, libs, driver="470.82.01",
                                                                         gpu="NVIDIA GeForce RTX 3090"),
                                                      cuda_image(r, "12.4.1", compat="550.54.15", libs=libs)))
    f = one(doc, "cuda_driver_too_old", "cuda-compat on a GeForce")
    check(f["severity"] == "error" and "data-center" in f["detail"] and "804" in f["detail"] and
          "GeForce RTX 3090" in f["detail"], f"compat on GeForce: {f}")
    rc, doc = failure(t, "compat-a100", lambda r: (docker(r), gpu_host(r, libs, driver="470.82.01"),
                                                   cuda_image(r, "12.4.1", compat="550.54.15", libs=libs)))
    check(rc == 0 and doc["findings"] == [] and env_of(doc)["passthrough"]["cuda_compat_driver"] == "550.54.15",
          f"cuda-compat on an A100 bridges the gap: {doc['findings']}")


def wsl_root(t, name, libs, copies=False, linux_driver=False, dxg=True, wsl_lib=True, driver_ver="31.0.15.4633"):
    root = os.path.join(t, "wsl-" + name)
    os.makedirs(root)
    base(root)
    write(root, "proc/sys/kernel/osrelease", "5.15.153.1-microsoft-standard-WSL2\n")
    if dxg:
        write(root, "dev/dxg")
    wl = os.path.join(root, "usr/lib/wsl/lib")
    os.makedirs(wl)
    if wsl_lib:
        shutil.copy(libs["libcuda_wsl"], os.path.join(wl, "libcuda.so.1.1"))
        for n in ("libcuda.so.1", "libcuda.so"):
            if copies:
                shutil.copy(libs["libcuda_wsl"], os.path.join(wl, n))
            else:
                os.symlink("libcuda.so.1.1", os.path.join(wl, n))
    inf = f"[Version]\r\nSignature=\"$Windows NT$\"\r\nDriverVer = 12/05/2023,{driver_ver}\r\n"
    write(root, "usr/lib/wsl/drivers/nv_dispi.inf_amd64_0123456789abcdef/nv_dispi.inf",
          b"\xff\xfe" + inf.encode("utf-16-le"))
    write(root, "etc/ld.so.conf", "include /etc/ld.so.conf.d/*.conf\n")
    write(root, "etc/ld.so.conf.d/ld.wsl.conf", "/usr/lib/wsl/lib\n")
    if linux_driver:
        d = os.path.join(root, LIBDIR)
        os.makedirs(d, exist_ok=True)
        shutil.copy(libs["libcuda"], os.path.join(d, "libcuda.so.535.104.05"))
        os.symlink("libcuda.so.535.104.05", os.path.join(d, "libcuda.so.1"))
        # A conf file sorting before ld.wsl.conf (ldconfig reads an include
        # glob in name order) puts the Linux driver's folder first.
        write(root, "etc/ld.so.conf.d/00-nvidia-linux.conf", f"/{LIBDIR}\n")
        write(root, "var/lib/dpkg/info/libnvidia-compute-535:amd64.list",
              f"/{LIBDIR}/libcuda.so.535.104.05\n/{LIBDIR}/libcuda.so.1\n")
    os.makedirs(os.path.join(root, "var/cache/ldconfig"), exist_ok=True)
    p = subprocess.run(["/sbin/ldconfig", "-r", root, "-X"], capture_output=True, text=True)
    return root, p


def wsl_failures(t, libs):
    env = {"WSL_DISTRO_NAME": "Ubuntu", "CUDA_VERSION": "12.3.2"}  # 546.33 runs CUDA 12.3
    root, ld = wsl_root(t, "clean", libs)
    rc, doc = run(root, env, what="clean WSL2")
    w = env_of(doc).get("wsl2", {})
    check(rc == 0 and doc["findings"] == [], f"clean WSL2: no finding: {doc['findings']}")
    check(w.get("windows_driver") == "546.33" and w.get("dxg") and w.get("libcuda") and
          env_of(doc)["passthrough"]["libcuda"]["path"] == "/usr/lib/wsl/lib/libcuda.so.1",
          f"clean WSL2: the Windows driver from the .inf (UTF-16), libcuda first: {w}, "
          f"{env_of(doc)['passthrough']['libcuda']}")

    root, ld = wsl_root(t, "shadow", libs, linux_driver=True)
    rc, doc = run(root, env, what="WSL2 with a Linux driver")
    lc = env_of(doc)["passthrough"]["libcuda"]
    first = subprocess.run(["/sbin/ldconfig", "-p", "-C", os.path.join(root, "etc/ld.so.cache")],
                           capture_output=True, text=True).stdout
    first = [l.split("=> ")[-1] for l in first.splitlines() if "libcuda.so.1 " in l][:1]
    check(first and first[0] == os.path.join("/", LIBDIR, "libcuda.so.1"),
          f"ldconfig's own cache lists the Linux libcuda first: {first}")
    f = one(doc, "shadowed_library", "WSL2 with a Linux libcuda")
    check(f["severity"] == "error" and lc["package"] == "libnvidia-compute-535" and
          "apt-get remove --purge libnvidia-compute-535" in f["fix"] and "/usr/lib/wsl/lib/libcuda.so.1" in
          f["detail"], f"WSL2 shadowed: {f}")

    root, ld = wsl_root(t, "copies", libs, copies=True)
    check("libcuda.so.1 is not a symbolic link" in ld.stderr, f"real ldconfig warns about the copies: {ld.stderr}")
    rc, doc = run(root, env, what="WSL2 copies")
    f = one(doc, "ldconfig_warning", "WSL2 libcuda copies")
    check(f["severity"] == "info" and "is not a symbolic link" in f["detail"] and "mklink" in f["fix"] and
          "lxss" in f["fix"], f"copies: {f}")

    root, ld = wsl_root(t, "nodxg", libs, dxg=False)
    rc, doc = run(root, env, what="WSL2 without /dev/dxg")
    f = one(doc, "gpu_not_visible", "no /dev/dxg")
    check(f["library"] == "/dev/dxg" and "wsl --update" in f["fix"], f"no dxg: {f}")

    root, ld = wsl_root(t, "nolib", libs, wsl_lib=False)
    rc, doc = run(root, env, what="WSL2 without libcuda")
    f = one(doc, "gpu_not_visible", "no WSL libcuda")
    check("Windows driver" in f["fix"] or "Windows NVIDIA driver" in f["fix"], f"no wsl libcuda: {f}")

    root, ld = wsl_root(t, "old-windows-driver", libs, driver_ver="30.0.14.7212")
    rc, doc = run(root, env, what="WSL2 with a 472.12 Windows driver")
    f = one(doc, "cuda_driver_too_old", "CUDA 12.3 under a 472.12 Windows driver")
    check(env_of(doc)["wsl2"]["windows_driver"] == "472.12" and "472.12" in f["detail"] and f["severity"] == "error" and
          f["fix"].startswith("in Windows: update the NVIDIA driver"), f"old Windows driver: {f}")

    root = os.path.join(t, "wsl1-gpu")
    base(root)
    write(root, "proc/sys/kernel/osrelease", "4.4.0-19041-Microsoft\n")
    rc, doc = run(root, env, what="WSL1 with a CUDA image")
    f = one(doc, "gpu_not_visible", "WSL1")
    check("wsl --set-version Ubuntu 2" in f["fix"], f"WSL1: {f}")


def limit_failures(t, libs):
    rc, doc = failure(t, "shm-64m", lambda r: docker(r, shm="size=65536k"))
    f = one(doc, "container_limit", "docker's 64 MiB /dev/shm")
    check(f["library"] == "/dev/shm" and "64 MiB" in f["detail"] and "runtime's default" in f["detail"] and
          "docker run --shm-size=16g" in f["fix"], f"shm: {f}")

    def v2_quota(r):
        base(r, cpus="0-63", cgroup="0::/\n")
        write(r, "sys/fs/cgroup/cpu.max", "400000 100000\n")
        write(r, "sys/fs/cgroup/memory.max", "8589934592\n")
    rc, doc = failure(t, "v2-quota", v2_quota)
    f = one(doc, "container_limit", "cgroup v2 quota of 4 CPUs of 64")
    lim = env_of(doc)["limits"]
    check("OMP_NUM_THREADS=4" in f["fix"] and "64" in f["detail"] and lim["cpu_quota"] == 4.0 and
          lim["memory_limit"] == 8 << 30 and lim["cgroup"] == 2, f"v2 quota: {f}, {lim}")
    rc, doc = failure(t, "v2-quota-omp", v2_quota, {"OMP_NUM_THREADS": "4"})
    check(not kinds(doc, "container_limit"), f"OMP_NUM_THREADS set: no finding: {doc['findings']}")

    def v1_quota(r):
        base(r, cpus="0-31")
        docker(r)
        write(r, "sys/fs/cgroup/cpu/cpu.cfs_quota_us", "200000\n")
        write(r, "sys/fs/cgroup/memory/memory.limit_in_bytes", "17179869184\n")
    rc, doc = failure(t, "v1-quota", v1_quota)
    f = one(doc, "container_limit", "cgroup v1 quota of 2 CPUs of 32")
    lim = env_of(doc)["limits"]
    check("OMP_NUM_THREADS=2" in f["fix"] and lim["cgroup"] == 1 and lim["memory_limit"] == 16 << 30,
          f"v1 quota: {f}, {lim}")

    def rdma(r):
        docker(r)
        write(r, "sys/class/infiniband/mlx5_0/node_type", "1: CA\n")
        write(r, "proc/self/limits", "Max locked memory         65536                65536                bytes\n")
    rc, doc = failure(t, "memlock", rdma)
    f = one(doc, "container_limit", "memlock 64 KiB with RDMA")
    check("docker run --ulimit memlock=-1" in f["fix"] and "64 KiB" in f["detail"], f"memlock: {f}")


def build_libs(t):
    d = os.path.join(t, "libs")
    os.makedirs(d)
    libs = {"libcuda": os.path.join(d, "libcuda.so"), "libnvidia-ml": os.path.join(d, "libnvidia-ml.so"),
            "libcuda_wsl": os.path.join(d, "libcuda_wsl.so")}
    shared_lib(libs["libcuda"], "libcuda.so.1", fn="cuInit")
    shared_lib(libs["libnvidia-ml"], "libnvidia-ml.so.1", fn="nvmlInit_v2")
    shared_lib(libs["libcuda_wsl"], "libcuda.so.1", fn="cuDriverGetVersion")
    return libs


with tempfile.TemporaryDirectory() as t:
    os.chmod(t, 0o755)  # the nobody case reads it
    libs = build_libs(t)
    environments(t, libs)
    clean(t, libs)
    passthrough_failures(t, libs)
    cuda_failures(t, libs)
    wsl_failures(t, libs)
    limit_failures(t, libs)

finish("environment cases")
