"""The CUDA fat binaries, end to end. Ground truth by construction: nvcc
(-gencode arch=compute_75,code=sm_75, compute_80 as PTX, sm_90a) and
fatbinary (the same images with --compress-all, --compress=false and
--compress-mode=speed) write fatbins whose entries are known; embedded in
an ELF (.nv_fatbin) and a PE (.nv_fatb), `inspect` must list exactly
those. Then the real NVIDIA CUDA 13 libraries: inspect lists their
entries without error, and check, over them laid out as pip does beside a
torch (tests/cudalayout.py) with the stand-in driver faking the GPU, names
cuBLAS's and cuDNN's libraries for a GPU they were not built for (sm_61:
CUDA 13 dropped Pascal) and nothing for one they were (sm_86)."""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import cudalayout  # noqa: E402
from casekit import TD, check, env_without, finish, kinds, td_json, validate  # noqa: E402

FX = os.environ["TD_FIXTURES"]
CUDA_BIN = os.path.join(cudalayout.CUDA, "bin")
KERNEL = "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n"


def inspect(*files, fmt="json"):
    p = subprocess.run([TD, "inspect", "--format", fmt, *files], capture_output=True, text=True)
    doc = json.loads(p.stdout) if fmt == "json" else p.stdout
    if fmt == "json":
        validate(doc)
    return p.returncode, doc, p.stderr


def entries(doc, i=0):
    fb = doc["files"][i]["fatbin"]
    return [(e["kind"], e["arch"], e["compression"]) for e in fb["entries"]] if fb else None


def tool(name):
    path = os.path.join(CUDA_BIN, name)
    return path if os.access(path, os.X_OK) else None


def build_fatbins(t):
    """nvcc's own fatbin, then fatbinary's three repackings of its images."""
    kd = os.path.join(t, "keep")
    os.makedirs(kd)
    with open(os.path.join(t, "k.cu"), "w") as f:
        f.write(KERNEL)
    out = {"nvcc": os.path.join(t, "nvcc.fatbin")}
    subprocess.run([tool("nvcc"), "-fatbin", "--keep", "--keep-dir", kd,
                    "-gencode", "arch=compute_75,code=sm_75", "-gencode", "arch=compute_80,code=compute_80",
                    "-gencode", "arch=compute_90a,code=sm_90a", "-o", out["nvcc"], os.path.join(t, "k.cu")],
                   check=True, capture_output=True)
    images = [f"--image3=kind=elf,sm=75,file={kd}/k.compute_75.cubin",
              f"--image3=kind=ptx,sm=80,file={kd}/k.compute_80.ptx",
              f"--image3=kind=elf,sm=90a,file={kd}/k.compute_90a.cubin"]
    for name, opts in (("zstd", ["--compress-all"]), ("plain", ["--compress=false"]),
                       ("lz4", ["--compress-all", "--compress-mode=speed"])):
        out[name] = os.path.join(t, name + ".fatbin")
        subprocess.run([tool("fatbinary"), "--64", *opts, "--create=" + out[name], *images], check=True,
                       capture_output=True)
    return out, {a: os.path.getsize(f"{kd}/k.compute_{a}.cubin") for a in ("75", "90a")}


def embed_elf(t, fatbin, name):
    base = os.path.join(t, "base.so")
    if not os.path.exists(base):
        subprocess.run(["gcc", "-shared", "-fPIC", "-o", base, "-x", "c", "-"], input="int f(void){return 0;}\n",
                       text=True, check=True)
    out = os.path.join(t, name)
    subprocess.run(["objcopy", "--add-section", f".nv_fatbin={fatbin}", base, out], check=True)
    return out


def embed_pe(t, fatbin):
    gcc, objcopy = shutil.which("x86_64-w64-mingw32-gcc"), shutil.which("x86_64-w64-mingw32-objcopy")
    if not gcc or not objcopy:
        print("PE case skipped: no mingw-w64")
        return None
    base, out = os.path.join(t, "base.dll"), os.path.join(t, "fat.dll")
    subprocess.run([gcc, "-shared", "-o", base, "-x", "c", "-"], input="int f(void){return 0;}\n", text=True,
                   check=True)
    subprocess.run([objcopy, "--add-section", f".nv_fatb={fatbin}", base, out], check=True,
                   capture_output=True)  # it warns that the section lies below the image base
    return out


def embed_rodata(t, fatbin, name):
    """A library whose .rodata holds FATBIN after 16 MiB of zeros, with 5,000
    exported functions: enough for inspect to search its data sections on a
    thread of its own beside the symbol listing (report/inspect_elf.c), and
    a search that lasts longer than the listing, whose end must be waited for."""
    src = os.path.join(t, name + ".c")
    with open(src, "w") as f:
        f.write('__asm__(".section .rodata\\n.balign 8\\n.skip 16777216\\n.balign 8\\n'
                f'.incbin \\"{fatbin}\\"\\n.previous");\n')
        f.write("".join(f"int f{i}(void) {{ return {i}; }}\n" for i in range(5000)))
    out = os.path.join(t, name)
    subprocess.run(["gcc", "-shared", "-fPIC", "-o", out, src], check=True)
    return out


def searched_beside_symbols(t, fatbin, want):
    """The search's entries reach the report, whether its thread searched
    (the caller waits for it) or the caller did, the thread not yet running:
    which of the two happens is the scheduler's choice, so a few runs."""
    lib = embed_rodata(t, fatbin, "libmany.so")
    for args in (["--symbols"], []) * 4:
        rc, doc, err = inspect(*args, lib)
        f = doc["files"][0]
        fb = f["fatbin"]
        got = entries(doc)
        check(rc == 0 and got == want and fb["section"] == ".rodata" and fb["containers"] == 1,
              f"a container in .rodata beside 5,000 symbols {args}: exit {rc}, {got}, {err}")
        check(f["symbols"]["defined"] >= 5000 and len(f.get("symbol_list", [0] * 5000)) >= 5000,
              f"{args}: {f['symbols']}")
    rc, text, _ = inspect(lib, fmt="text")
    check("fatbin           .rodata: 1 container, 3 entries" in text, f"text view:\n{text}")


def constructed(t):
    fatbins, cubin = build_fatbins(t)
    want = {"nvcc": [("sass", "sm_75", "none"), ("ptx", "compute_80", "zstd"), ("sass", "sm_90a", "none")],
            "zstd": [("sass", "sm_75", "zstd"), ("ptx", "compute_80", "zstd"), ("sass", "sm_90a", "zstd")],
            "plain": [("sass", "sm_75", "none"), ("ptx", "compute_80", "none"), ("sass", "sm_90a", "none")],
            "lz4": [("sass", "sm_75", "lz4"), ("ptx", "compute_80", "lz4"), ("sass", "sm_90a", "lz4")]}
    libs = {name: embed_elf(t, path, f"lib{name}.so") for name, path in fatbins.items()}
    rc, doc, err = inspect(*libs.values())
    check(rc == 0, f"inspect of the nvcc fixtures: exit {rc} {err}")
    by = {os.path.basename(f["path"]): f for f in doc["files"]}
    for name in want:
        fb = by[f"lib{name}.so"]["fatbin"]
        got = [(e["kind"], e["arch"], e["compression"]) for e in fb["entries"]]
        check(got == want[name], f"{name}: entries {got}, built {want[name]}")
        check(fb["archs"] == ["sm_75", "compute_80", "sm_90a"] and fb["containers"] == 1 and not fb["error"],
              f"{name}: {fb['archs']} in {fb['containers']} containers, error {fb['error']}")
        for e in fb["entries"]:
            check(e["compressed"] == (e["compression"] != "none"), f"{name}: {e}")
            if e["kind"] == "sass":  # the cubin nvcc kept, stored whole or inflated to its size
                size = cubin[e["arch"][3:]]
                stored = e["uncompressed_size"] if e["compressed"] else e["size"]
                check(size <= stored < size + 8, f"{name} {e['arch']}: {stored} bytes for a {size}-byte cubin")
            check(e["version"] == ("9.0" if e["kind"] == "ptx" else e["version"]), f"{name}: PTX ISA {e}")
    plain_ptx = [e for e in by["libplain.so"]["fatbin"]["entries"] if e["kind"] == "ptx"][0]
    zstd_ptx = [e for e in by["libzstd.so"]["fatbin"]["entries"] if e["kind"] == "ptx"][0]
    check(zstd_ptx["size"] < plain_ptx["size"] and plain_ptx["size"] - 8 < zstd_ptx["uncompressed_size"]
          <= plain_ptx["size"], f"PTX: {zstd_ptx} against the plain {plain_ptx}")

    rc, text, _ = inspect(libs["nvcc"], fmt="text")
    rows = [line.split() for line in text.splitlines()]
    check("fatbin           .nv_fatbin: 1 container, 3 entries" in text and
          "gpu archs        sm_75 compute_80 sm_90a" in text and
          ["sm_75", "SASS", "1", "entry"] in [r[:4] for r in rows] and
          ["compute_80", "PTX", "1", "entry"] in [r[:4] for r in rows] and
          any(r[:2] == ["compute_80", "PTX"] and "zstd" in r for r in rows), f"text view:\n{text}")
    dll = embed_pe(t, fatbins["zstd"])
    if dll:
        rc, doc, err = inspect(dll)
        check(rc == 0 and doc["files"][0]["fatbin"]["section"] == ".nv_fatb" and
              entries(doc) == want["zstd"], f"PE: exit {rc}, {entries(doc)} {err}")
    searched_beside_symbols(t, fatbins["zstd"], want["zstd"])
    plain = os.path.join(t, "base.so")
    rc, doc, _ = inspect(plain)
    check(rc == 0 and doc["files"][0]["fatbin"] is None, "a library without a fatbin: fatbin null")
    # A section cut inside its second entry: the first is listed, exit 2, a message.
    data = open(fatbins["plain"], "rb").read()
    cut = os.path.join(t, "cut.fatbin")
    open(cut, "wb").write(data[:16 + 64 + 3000])
    rc, doc, err = inspect(embed_elf(t, cut, "libcut.so"))
    fb = doc["files"][0]["fatbin"]
    check(rc == 2 and fb and len(fb["entries"]) == 0 and "fatbin header at offset 0x0" in (fb["error"] or "")
          and "libcut.so" in err, f"truncated: exit {rc}, {fb}, {err}")
    lying = bytearray(data)
    struct.pack_into("<Q", lying, 16 + 8, 1 << 40)  # the first entry's payload size past the end
    open(cut, "wb").write(bytes(lying))
    rc, doc, err = inspect(embed_elf(t, cut, "liblying.so"))
    check(rc == 2 and "run past the container end" in err, f"lying size: exit {rc}, {err}")


def real_libraries():
    lib = os.path.join(cudalayout.CUDA, "lib")
    names = ["libcublas.so.13", "libcublasLt.so.13", "libcudnn_ops.so.9", "libcudnn_engines_precompiled.so.9",
             "libnccl.so.2", "libcudnn.so.9"]
    paths = [os.path.join(lib, n) for n in names if os.path.exists(os.path.join(lib, n))]
    rc, doc, err = inspect(*paths)
    check(rc == 0, f"inspect of the real CUDA libraries: exit {rc}: {err}")
    for f in doc["files"]:
        name, fb = os.path.basename(f["path"]), f["fatbin"]
        if name == "libcudnn.so.9":  # the shim: its kernels are in the sub-libraries
            check(fb is None, f"{name}: {fb and fb['archs']}")
            continue
        check(fb and not fb["error"] and len(fb["entries"]) > 10 and
              all(e["kind"] in ("sass", "ptx") for e in fb["entries"]), f"{name}: {fb and fb['error']}")
        print(f"{name}: {fb['containers']} containers, {len(fb['entries'])} entries: {' '.join(fb['archs'])}")
        # What NVIDIA's CUDA 13 builds target: Turing (sm_75) and newer, no Pascal.
        check("sm_75" in fb["archs"] and not any(a in fb["archs"] for a in ("sm_60", "sm_61", "compute_61")),
              f"{name}: {fb['archs']}")


def gpu_env(gpus):
    return {"LD_LIBRARY_PATH": os.path.join(FX, "fake_cuda", "lib"), "TD_FAKE_CUDA_VERSION": "13000",
            "TD_FAKE_NVML_DRIVER": "580.82.07", "TD_FAKE_GPUS": gpus}


def torch_fatbin(path):
    """libtorch_cuda.so with a fatbin built for sm_61 and sm_86, and
    compute_86 PTX of ISA 9.0 (hand-made headers, src/format/fatbin.c's
    layout): torch itself runs on every GPU of these cases."""
    entries = b""
    for kind, arch, version in ((2, 61, 0x10008), (2, 86, 0x10008), (1, 86, 0x90000)):
        entries += struct.pack("<HHIQ8xII8xQ16x", kind, 0x0101, 64, 0, version, arch, 0x11)
    blob = struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entries)) + entries
    fb = path + ".fatbin"
    open(fb, "wb").write(blob)
    subprocess.run(["objcopy", "--add-section", f".nv_fatbin={fb}", path, path + ".new"], check=True)
    os.replace(path + ".new", path)


def check_real_layout(t):
    py, site = cudalayout.venv(os.path.join(t, "v"))
    cudalayout.lay_out(site)
    cudalayout.torch_install(site)
    torch_fatbin(os.path.join(site, "torch", "lib", "libtorch_cuda.so"))
    env = env_without("TD_FAKE", "LD_LIBRARY_PATH")
    env["HOME"] = "/nonexistent"

    def run(gpus, cuda="13000"):
        _, doc = td_json("check", "--python", py, env=dict(env, **dict(gpu_env(gpus), TD_FAKE_CUDA_VERSION=cuda)),
                         schema=True, tail=300)
        return kinds(doc, "gpu_arch_unsupported")

    pascal = run("NVIDIA GeForce GTX 1080:6.1:8589934592")
    named = {os.path.basename(f["library"]): f for f in pascal}
    print("sm_61:", *(f"\n  {f['library']}: {f['detail']}" for f in pascal))
    check("libtorch_cuda.so" not in " ".join(named) and not any(f["library"].endswith("/torch") for f in pascal),
          f"torch itself has sm_61: {list(named)}")
    cublas = [f for f in pascal if "nvidia-cublas" in f["detail"]]
    check(len(cublas) == 1 and "libcublas.so.13" in cublas[0]["detail"] and
          "libcublasLt.so.13" in cublas[0]["detail"], f"one finding for cuBLAS's two libraries: {cublas}")
    cudnn = [f for f in pascal if "nvidia-cudnn" in f["detail"]]
    check(len(cudnn) == 1 and "libcudnn_ops.so.9" in cudnn[0]["detail"] and
          "loaded by libcudnn.so.9" in cudnn[0]["detail"], f"one finding for cuDNN's sub-libraries: {cudnn}")
    check(all(f["severity"] == "error" and f["fix"] for f in pascal), f"severity and fix: {pascal}")
    check(len(pascal) == len({f["detail"].split("'s ")[0] for f in pascal}), "one finding per wheel")
    # A GPU torch's own code lacks too: one finding, torch's, naming the libraries.
    maxwell = run("NVIDIA GeForce GTX 980:5.2:4294967296")
    check(len(maxwell) == 1 and maxwell[0]["library"].endswith("/torch") and
          "lack it too: " in maxwell[0]["detail"] and "libcublasLt.so.13" in maxwell[0]["detail"] and
          "libcudnn_ops.so.9" in maxwell[0]["detail"], f"sm_52: {[(f['library'], f['detail']) for f in maxwell]}")
    # A GPU newer than every cubin: PTX must JIT, and cuDNN 9.19's (PTX ISA
    # 9.1) needs a CUDA 13.1 driver, cuBLAS's (ISA 9.0) does not.
    future = "NVIDIA Future GPU:13.0:8589934592"
    old_driver = run(future, "13000")
    check(len(old_driver) == 1 and "libcudnn_ops.so.9" in old_driver[0]["detail"] and
          "CUDA 13.1" in old_driver[0]["detail"] and "driver" in old_driver[0]["fix"],
          f"sm_130, CUDA 13.0 driver: {[(f['library'], f['detail'], f['fix']) for f in old_driver]}")
    check(run(future, "13010") == [], "sm_130 under a CUDA 13.1 driver: every PTX loads")
    ampere = run("NVIDIA GeForce RTX 3090:8.6:25447170048")
    check(ampere == [], f"sm_86: {[(f['library'], f['detail']) for f in ampere]}")


def main(t):
    if tool("nvcc") and tool("fatbinary"):
        constructed(t)
    else:
        print("skipped: no nvcc/fatbinary under", CUDA_BIN)
    if cudalayout.available():
        real_libraries()
        check_real_layout(t)
    else:
        print("skipped: /usr/local/cuda holds no NVIDIA wheels (lib/, dist-info/)")


with tempfile.TemporaryDirectory() as t:
    main(t)
finish("fatbin cases")
