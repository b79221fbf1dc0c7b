"""GPU truth on NVIDIA's real libraries (issue 26): every fat binary
container of a file, wherever it lies, and the verdict for each GPU.

1. Every NVIDIA library under /usr/local/cuda: `inspect`'s architecture
   union and container count equal an independent header scan
   (tests/fatbin_oracle.py).
2. nvcc-built fixtures for every placement and rule: two objects (several
   containers), a relocatable device link (__nv_relfatbin), containers
   placed in .ldata and .lrodata by gcc's medium code model, sm_90a only,
   sm_100f, PTX only, LTO-IR only, compressed and not; check's verdict of
   each for GPUs of several compute capabilities, against the rules
   written out in the oracle.
3. The CUDA 13 wheels laid out as pip does, under a torch that loads every
   one of them, against GPUs of compute capability 6.1 ... 12.1 and a
   future 13.0: for every (library, GPU) check's verdict equals the
   oracle's, no gpu_arch_unsupported error where the oracle finds code,
   and the error where it finds none (Pascal: CUDA 13 dropped it)."""
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import cudalayout  # noqa: E402
import fatbin_oracle as oracle  # noqa: E402
from casekit import TD, check, env_without, finish, kinds, td_json  # noqa: E402

FX = os.environ["TD_FIXTURES"]
NVCC = os.path.join(cudalayout.CUDA, "bin", "nvcc")
DRIVER_CUDA = (13, 1)  # the stand-in driver's cuDriverGetVersion below
GPUS = [("NVIDIA GeForce GTX 1080", 6, 1), ("Tesla V100", 7, 0), ("NVIDIA T4", 7, 5),
        ("NVIDIA A100", 8, 0), ("NVIDIA GeForce RTX 3090", 8, 6), ("NVIDIA Jetson AGX Orin", 8, 7),
        ("NVIDIA GeForce RTX 4090", 8, 9), ("NVIDIA H100", 9, 0), ("NVIDIA B200", 10, 0),
        ("NVIDIA B300", 10, 3), ("NVIDIA Jetson Thor", 11, 0), ("NVIDIA GeForce RTX 5090", 12, 0),
        ("NVIDIA GB10", 12, 1), ("NVIDIA Future GPU", 13, 0)]
# What torch 2.10+cu130's libtorch_cuda.so and its friends load from the
# nvidia-* wheels (cuDNN's sub-libraries come through data/cuda_sublibraries.tsv).
TORCH_NEEDS = ("libcudart.so.13", "libcublas.so.13", "libcublasLt.so.13", "libcufft.so.12",
               "libcurand.so.10", "libcusparse.so.12", "libcusolver.so.12", "libnvJitLink.so.13",
               "libcupti.so.13", "libnvrtc.so.13", "libcudnn.so.9", "libnccl.so.2")


def inspect(*files):
    p = subprocess.run([TD, "inspect", "--format", "json", *files], capture_output=True, text=True)
    return p.returncode, json.loads(p.stdout), p.stderr


def real_unions():
    lib = os.path.join(cudalayout.CUDA, "lib")
    files = sorted(os.path.join(lib, f) for f in os.listdir(lib)
                   if ".so" in f and not os.path.islink(os.path.join(lib, f)))
    rc, doc, err = inspect(*files)
    check(rc == 0, f"inspect of {len(files)} NVIDIA libraries: exit {rc} {err[-300:]}")
    agree = 0
    for f in doc["files"]:
        want, containers = oracle.read(f["path"])
        fb = f.get("fatbin")
        got = set(fb["archs"]) if fb else set()
        n = fb["containers"] if fb else 0
        same = got == set(want) and n == containers
        check(same, f"{os.path.basename(f['path'])}: inspect {sorted(got)} in {n} containers, "
                    f"the header scan {sorted(want)} in {containers}")
        agree += same
    print(f"architecture unions: {agree}/{len(files)} NVIDIA libraries agree with the header scan")


# ---- nvcc fixtures -------------------------------------------------------

KERNEL = "__global__ void k{n}(float *x) {{ x[threadIdx.x] *= {n}.0f; }}\n" \
         "void launch{n}(float *x) {{ k{n}<<<1, 32>>>(x); }}\n"


def nvcc(t, out, sources, *gencode, extra=()):
    args = [NVCC, "-shared", "-Xcompiler", "-fPIC", *extra, "-o", out]
    for g in gencode:
        args += ["-gencode", g]
    subprocess.run(args + sources, check=True, capture_output=True, cwd=t)
    return out


def source(t, name, text):
    path = os.path.join(t, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def fatbin(t, name, *gencode, extra=()):
    out = os.path.join(t, name)
    args = [NVCC, "-fatbin", *extra, "-o", out]
    for g in gencode:
        args += ["-gencode", g]
    subprocess.run(args + [source(t, name + ".cu", KERNEL.format(n=7))], check=True,
                   capture_output=True)
    return open(out, "rb").read()


def embedded(t, out, blobs):
    """A shared library whose fat binaries are plain data arrays, placed by
    gcc's medium code model in .lrodata (const) and .ldata (writable), as
    cuFFT keeps its own."""
    c = ["#include <stddef.h>"]
    for i, (blob, const) in enumerate(blobs):
        c.append(f"{'const ' if const else ''}unsigned char blob{i}[] __attribute__((aligned(8))) = "
                 "{" + ",".join(str(b) for b in blob) + "};")
    c.append("const void *blobs[] = {" + ",".join(f"blob{i}" for i in range(len(blobs))) + "};")
    src = source(t, os.path.basename(out) + ".c", "\n".join(c) + "\n")
    subprocess.run(["gcc", "-shared", "-fPIC", "-mcmodel=medium", "-mlarge-data-threshold=0", "-o", out,
                    src], check=True)
    return out


def build_fixtures(t):
    two = nvcc(t, os.path.join(t, "libtwo.so"),
               [source(t, "a.cu", KERNEL.format(n=1)), source(t, "b.cu", KERNEL.format(n=2))],
               "arch=compute_75,code=sm_75", "arch=compute_80,code=compute_80")
    rdc = nvcc(t, os.path.join(t, "librdc.so"),
               [source(t, "d.cu", "extern __device__ float twice(float);\n"
                                  "__global__ void kd(float *x) { x[0] = twice(x[0]); }\n"
                                  "void launchd(float *x) { kd<<<1, 1>>>(x); }\n"),
                source(t, "e.cu", "__device__ float twice(float v) { return 2.0f * v; }\n")],
               "arch=compute_90a,code=sm_90a", extra=["-rdc=true"])
    family = fatbin(t, "family.fatbin", "arch=compute_100f,code=sm_100f", "arch=compute_120,code=compute_120")
    ptx_plain = fatbin(t, "ptx.fatbin", "arch=compute_80,code=compute_80", extra=["--no-compress"])
    ptx_lz4 = fatbin(t, "ptx4.fatbin", "arch=compute_86,code=compute_86", extra=["-Xfatbin=--compress-mode=speed"])
    lto = fatbin(t, "lto.fatbin", "arch=compute_75,code=lto_75")
    libs = {"libtwo.so": two, "librdc.so": rdc,
            "libfamily.so": embedded(t, os.path.join(t, "libfamily.so"), [(family, True)]),
            "libptx.so": embedded(t, os.path.join(t, "libptx.so"), [(ptx_plain, False), (ptx_lz4, True)]),
            "liblto.so": embedded(t, os.path.join(t, "liblto.so"), [(lto, True)])}
    return libs


def fixture_placements(libs):
    rc, doc, err = inspect(*libs.values())
    check(rc == 0, f"inspect of the nvcc fixtures: exit {rc} {err[-300:]}")
    none = {"archs": [], "containers": 0, "entries": [], "sections": []}
    by = {os.path.basename(f["path"]): f["fatbin"] or none for f in doc["files"]}
    for name, path in libs.items():
        want, n = oracle.read(path)
        fb = by.get(name)
        check(fb and set(fb["archs"]) == set(want) and fb["containers"] == n,
              f"{name}: {fb and (fb['archs'], fb['containers'])} against {sorted(want)} in {n}")
    secs = {name: {s["name"] for s in (fb or {}).get("sections", [])} for name, fb in by.items()}
    check(by["libtwo.so"]["containers"] >= 2 and secs["libtwo.so"] == {".nv_fatbin"},
          f"two objects: {by['libtwo.so']['containers']} containers in {secs['libtwo.so']}")
    check("__nv_relfatbin" in secs["librdc.so"] and set(by["librdc.so"]["archs"]) == {"sm_90a"},
          f"relocatable device link: {secs['librdc.so']} {by['librdc.so']['archs']}")
    check(secs["libfamily.so"] == {".lrodata"} and set(by["libfamily.so"]["archs"]) == {"sm_100f", "compute_120"},
          f"family-specific in .lrodata: {secs['libfamily.so']} {by['libfamily.so']['archs']}")
    check(secs["libptx.so"] == {".ldata", ".lrodata"} and
          {e["compression"] for e in by["libptx.so"]["entries"]} == {"none", "lz4"},
          f"PTX only in .ldata (plain) and .lrodata (lz4): {secs['libptx.so']} "
          f"{[(e['section'], e['compression']) for e in by['libptx.so']['entries']]}")
    check(by["liblto.so"]["archs"] == ["lto_75"], f"LTO-IR: {by['liblto.so']['archs']}")


# ---- check's verdicts ----------------------------------------------------

def torch_fatbin(path, ccs):
    """libtorch_cuda.so with SASS for every GPU of the sweep: torch itself
    runs on each, so only the libraries' verdicts are in question."""
    entries = b""
    for ma, mi in ccs:
        entries += struct.pack("<HHIQ8xII8xQ16x", 2, 0x0101, 64, 0, 0x10008, ma * 10 + mi, 0x11)
    blob = struct.pack("<IHHQ", 0xBA55ED50, 1, 16, len(entries)) + entries
    with open(path + ".fatbin", "wb") as f:
        f.write(blob)
    subprocess.run(["objcopy", "--add-section", f".nv_fatbin={path}.fatbin", path, path + ".new"], check=True)
    os.replace(path + ".new", path)


def every_library():
    """The file name of every NVIDIA shared library under /usr/local/cuda/lib."""
    lib = os.path.join(cudalayout.CUDA, "lib")
    return tuple(sorted(f for f in os.listdir(lib) if ".so" in f and not os.path.islink(os.path.join(lib, f))))


def layout(root, libs=None):
    """A venv with torch; LIBS (name: path) copied in as CUDA libraries it
    needs, else the real CUDA 13 wheels, torch needing every one of their
    libraries (not only those a real torch loads: each is judged)."""
    py, site = cudalayout.venv(root)
    if libs is None:
        cudalayout.lay_out(site)
        needs = TORCH_NEEDS + tuple(n for n in every_library() if n not in TORCH_NEEDS)
    else:
        d = os.path.join(site, "nvidia", "cu13", "lib")
        os.makedirs(d)
        for name, path in libs.items():
            shutil.copy(path, os.path.join(d, name))
            subprocess.run(["patchelf", "--set-soname", name, os.path.join(d, name)], check=True)
        needs = tuple(libs)
    cudalayout.torch_install(site, needs=needs)
    torch_fatbin(os.path.join(site, "torch", "lib", "libtorch_cuda.so"), [(g[1], g[2]) for g in GPUS])
    return py


def run_check(py, gpus, extra_env=None):
    env = env_without("TD_FAKE", "LD_LIBRARY_PATH", "CUDA_")
    env.update(HOME="/nonexistent", LD_LIBRARY_PATH=os.path.join(FX, "fake_cuda", "lib"),
               TD_FAKE_CUDA_VERSION="%d%03d" % (DRIVER_CUDA[0], DRIVER_CUDA[1] * 10),
               TD_FAKE_NVML_DRIVER="590.44.01",
               TD_FAKE_GPUS=";".join(f"{n}:{ma}.{mi}:8589934592" for n, ma, mi in gpus), **(extra_env or {}))
    _, doc = td_json("check", "--python", py, env=env, schema=True, tail=300)
    torch = [t for t in doc["torch"] if t.get("gpu_code") is not None]
    # torch's own libtorch_cuda.so is held to the GPU by torch's own rule
    return doc, [c for c in (torch[0]["gpu_code"] if torch else [])
                 if os.path.basename(c["library"]) != "libtorch_cuda.so"]


def named_in(detail, name):
    return re.search(r"(^|[\s,'(])" + re.escape(name) + r"($|[\s,:)])", detail) is not None


def compare(doc, code, gpus, oracle_archs, what):
    """check's verdicts and findings for GPUS against the oracle's; returns
    (pairs compared, pairs agreeing, false errors)."""
    pairs = agree = false_errors = 0
    errors = kinds(doc, "gpu_arch_unsupported", "error")
    for lib in code:
        name = os.path.basename(lib["library"])
        archs = oracle_archs[name]
        for v in lib["verdicts"]:
            _, ma, mi = gpus[v["gpu"]]
            want = oracle.verdict(archs, ma, mi, DRIVER_CUDA)
            pairs += 1
            agree += v["verdict"] == want
            check(v["verdict"] == want, f"{what}: {name} on {ma}.{mi}: check says {v['verdict']}, "
                                        f"the oracle {want} ({sorted(archs)})")
    for i, (gname, ma, mi) in enumerate(gpus):
        failing = {os.path.basename(lib["library"]) for lib in code
                   if oracle.verdict(oracle_archs[os.path.basename(lib["library"])], ma, mi, DRIVER_CUDA)
                   in ("no_code", "ptx_too_new")}
        named = {n for n in oracle_archs for f in errors
                 if f"(sm_{ma}{mi})" in f["detail"] and named_in(f["detail"], n)}
        false_errors += len(named - failing)
        check(named == failing, f"{what}: {gname} ({ma}.{mi}): errors name {sorted(named)}, "
                                f"the oracle finds no code in {sorted(failing)}")
    return pairs, agree, false_errors


def fixture_verdicts(t, libs):
    py = layout(os.path.join(t, "fx"), libs)
    archs = {name: oracle.read(path)[0] for name, path in libs.items()}
    sweep = [g for g in GPUS if (g[1], g[2]) in ((8, 6), (9, 0), (10, 0), (10, 3), (12, 0), (12, 1), (13, 0))]
    doc, code = run_check(py, sweep)
    check({os.path.basename(c["library"]) for c in code} == set(libs),
          f"fixtures judged: {[c['library'] for c in code]}")
    compare(doc, code, sweep, archs, "fixtures")
    by = {os.path.basename(c["library"]): {sweep[v["gpu"]][1:]: v["verdict"] for v in c["verdicts"]}
          for c in code}
    check(by["librdc.so"][(9, 0)] == "native" and by["librdc.so"][(10, 0)] == "no_code",
          f"sm_90a runs on 9.0 only: {by['librdc.so']}")
    check(by["libfamily.so"][(10, 3)] == "native" and by["libfamily.so"][(12, 0)] == "ptx_jit",
          f"sm_100f on 10.3, compute_120 JIT on 12.0: {by['libfamily.so']}")
    check(by["libptx.so"][(8, 6)] == "ptx_jit" and by["liblto.so"][(8, 6)] == "no_code",
          f"PTX only: JIT; LTO-IR only: no code: {by['libptx.so']} {by['liblto.so']}")
    notes = kinds(doc, "ptx_jit_only", "info")
    check(any("libptx.so" in f["detail"] and "first launch" in f["detail"] for f in notes),
          f"a PTX-only library is a note: {[f['detail'] for f in notes]}")
    # The driver's switches: CUDA_DISABLE_PTX_JIT leaves PTX-only code without
    # a way to run, CUDA_FORCE_PTX_JIT code without PTX.
    two = sweep[:2]  # 8.6 and 9.0
    doc, code = run_check(py, two, {"CUDA_DISABLE_PTX_JIT": "1"})
    v = {os.path.basename(c["library"]): [x["verdict"] for x in c["verdicts"]] for c in code}
    check(v.get("libptx.so") == ["no_code", "no_code"] and v.get("librdc.so") == ["no_code", "native"],
          f"CUDA_DISABLE_PTX_JIT=1 on 8.6 and 9.0: {v}")
    doc, code = run_check(py, two, {"CUDA_FORCE_PTX_JIT": "1"})
    v = {os.path.basename(c["library"]): [x["verdict"] for x in c["verdicts"]] for c in code}
    check(v.get("libtwo.so") == ["ptx_jit", "ptx_jit"] and v.get("librdc.so") == ["no_code", "no_code"],
          f"CUDA_FORCE_PTX_JIT=1 on 8.6 and 9.0: {v}")
    check(any(f["library"] == "CUDA_FORCE_PTX_JIT" or "CUDA_FORCE_PTX_JIT" in f["detail"]
              for f in kinds(doc, "env_var_invalid")), "CUDA_FORCE_PTX_JIT=1 is an env finding")


def real_verdicts(t):
    py = layout(os.path.join(t, "real"))
    lib = os.path.join(cudalayout.CUDA, "lib")
    archs = {}
    totals = [0, 0, 0]
    for batch in (GPUS[:7], GPUS[7:]):
        doc, code = run_check(py, batch)
        for c in code:
            name = os.path.basename(c["library"])
            if name not in archs:
                archs[name] = oracle.read(os.path.join(lib, name))[0]
        names = [os.path.basename(c["library"]) for c in code]
        check(len(names) == len(set(names)), f"each library judged once: {sorted(names)}")
        judged = set(names)
        with_code = {n for n in every_library() if oracle.read(os.path.join(lib, n))[1]}
        check(judged == with_code, f"every NVIDIA library with containers is judged: "
                                   f"missing {sorted(with_code - judged)}, extra {sorted(judged - with_code)}")
        for k, n in enumerate(compare(doc, code, batch, archs, "CUDA 13")):
            totals[k] += n
        if batch[0][1:] == (6, 1):
            pascal = [f for f in kinds(doc, "gpu_arch_unsupported", "error") if "(sm_61)" in f["detail"]]
            check(any("libcublas.so.13" in f["detail"] for f in pascal) and
                  any("libcufft.so.12" in f["detail"] for f in pascal),
                  f"Pascal under CUDA 13's libraries: {[f['detail'][:120] for f in pascal]}")
    print(f"CUDA 13 layout, {len(archs)} libraries: {totals[1]}/{totals[0]} (library, GPU) verdicts agree with the oracle, "
          f"{totals[2]} false gpu_arch_unsupported errors, over {len(GPUS)} GPUs {GPUS[0][1]}.{GPUS[0][2]}"
          f" ... {GPUS[-1][1]}.{GPUS[-1][2]}")
    check(totals[2] == 0, "no false gpu_arch_unsupported on the CUDA 13 layout")


def main(t):
    if not cudalayout.available():
        print("skipped: /usr/local/cuda holds no NVIDIA wheels (lib/, dist-info/)")
        return
    real_unions()
    if os.access(NVCC, os.X_OK) and shutil.which("patchelf"):
        libs = build_fixtures(t)
        fixture_placements(libs)
        fixture_verdicts(t, libs)
    else:
        print("skipped: the nvcc fixtures (no nvcc under /usr/local/cuda/bin or no patchelf)")
    real_verdicts(t)


with tempfile.TemporaryDirectory() as t:
    main(t)
finish("gpu truth")
