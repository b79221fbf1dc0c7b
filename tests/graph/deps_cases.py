#!/usr/bin/python3
"""Graph-level findings of `torchdoctor deps` on real binaries built here:
runpath_not_inherited, shadowed_library, duplicate_runtime, stub_library,
missing_symbol, missing_symbol_version, wrong_architecture, and the JSON
report against the contract's schema. Each case asserts kind, library,
needed_by and found_via."""
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, env_without, finish, kinds, sh, validate  # noqa: E402


def deps(path, *args):
    p = subprocess.run([TD, "deps", "--format", "json", *args, path], capture_output=True,
                       text=True, env=env_without("LD_LIBRARY_PATH"))
    assert p.returncode in (0, 1), p.stderr
    doc = json.loads(p.stdout)
    validate(doc)
    return p.returncode, doc


def lib(doc, name):
    m = [l for l in doc["libraries"] if l["name"] == name]
    return m[0] if m else None


def build(t):
    files = {
        "c.c": "int c(void){return 1;}\n",
        "c2.c": "int c(void){return 2;}\n",
        "b.c": "int c(void); int b(void){return c();}\n",
        "a.c": "int b(void); int a(void){return b();}\n",
        "omp.c": "int omp_get_max_threads(void){return 1;}\n",
        "useomp.c": "int omp_get_max_threads(void); int f(void){return omp_get_max_threads();}\n",
        "cuda.c": "int cuInit(unsigned f){return 34;}\n",
        "usecuda.c": "int cuInit(unsigned); int g(void){return cuInit(0);}\n",
        "new.c": "int b(void){return 0;} int only_in_new(void){return 1;}\n",
        "usenew.c": "int only_in_new(void); int h(void){return only_in_new();}\n",
    }
    for n, text in files.items():
        open(os.path.join(t, n), "w").write(text)
    for d in ("sub", "lp", "own", "cuda/stubs", "old", "omp"):
        os.makedirs(os.path.join(t, d), exist_ok=True)
    cc = "gcc -shared -fPIC"
    # runpath_not_inherited: a (RUNPATH $ORIGIN/sub) -> sub/b (no runpath) -> sub/c
    sh(f"{cc} -o sub/libc_r.so -Wl,-soname,libc_r.so c.c", t)
    sh(f"{cc} -o sub/libb_r.so b.c -Lsub -lc_r", t)
    sh(f"{cc} -o liba_r.so a.c -Lsub -lb_r -Wl,--enable-new-dtags,-rpath,'$ORIGIN/sub'", t)
    # shadowed: own/libs.so needs libc_s.so shipped next to it; LD_LIBRARY_PATH has another
    sh(f"{cc} -o own/libc_s.so -Wl,-soname,libc_s.so c.c", t)
    sh(f"{cc} -o lp/libc_s.so -Wl,-soname,libc_s.so c2.c", t)
    sh(f"{cc} -o own/libs.so b.c -Lown -lc_s -Wl,--enable-new-dtags,-rpath,'$ORIGIN'", t)
    # duplicate_runtime: one library needs libgomp, another a libiomp5.so
    sh(f"{cc} -o omp/libiomp5.so -Wl,-soname,libiomp5.so omp.c", t)
    sh(f"{cc} -o omp/libuseiomp.so useomp.c -Lomp -liomp5 -Wl,--enable-new-dtags,-rpath,'$ORIGIN'", t)
    sh(f"{cc} -fopenmp -o omp/libusegomp.so useomp.c -Wl,--no-as-needed -lgomp", t)
    sh(f"{cc} -o omp/libboth.so c.c -Wl,--no-as-needed -Lomp -luseiomp -lusegomp "
       "-Wl,--enable-new-dtags,-rpath,'$ORIGIN'", t)
    # stub_library: cuda/stubs/libcuda.so (soname libcuda.so.1) picked up from LD_LIBRARY_PATH
    sh(f"{cc} -o cuda/stubs/libcuda.so -Wl,-soname,libcuda.so.1 cuda.c", t)
    sh("ln -sf libcuda.so cuda/stubs/libcuda.so.1", t)
    sh(f"{cc} -o libusecuda.so usecuda.c -Lcuda/stubs -lcuda", t)
    # missing_symbol: built against a newer libb_m.so, an older one (without the symbol) found
    sh(f"{cc} -o old/libb_m.so -Wl,-soname,libb_m.so b.c", t)
    sh(f"{cc} -o libb_m.so -Wl,-soname,libb_m.so new.c", t)
    sh(f"{cc} -o libusenew.so usenew.c -L. -lb_m -Wl,--enable-new-dtags,-rpath,'$ORIGIN/old'", t)


def cases(t):
    rc, doc = deps(os.path.join(t, "liba_r.so"))
    f = kinds(doc, "runpath_not_inherited")
    check(rc == 1 and f and f[0]["library"] == "libc_r.so" and
          f[0]["needed_by"].endswith("/sub/libb_r.so"), f"runpath_not_inherited: {f}")
    check(not kinds(doc, "missing_library"), "runpath_not_inherited also reported as missing_library")
    b = lib(doc, "libb_r.so")
    check(b and b["found_via"] == "runpath of liba_r.so", f"found_via of libb_r.so: {b and b['found_via']}")

    rc, doc = deps(os.path.join(t, "own/libs.so"), "--env", f"LD_LIBRARY_PATH={t}/lp")
    f = kinds(doc, "shadowed_library")
    check(rc == 0 and f and f[0]["library"] == f"{t}/lp/libc_s.so" and
          f[0]["needed_by"] == f"{t}/own/libs.so" and f[0]["severity"] == "warning",
          f"shadowed_library: {f}")
    c = lib(doc, "libc_s.so")
    check(c and c["found_via"] == "LD_LIBRARY_PATH", f"found_via of libc_s.so: {c and c['found_via']}")

    rc, doc = deps(os.path.join(t, "omp/libboth.so"))
    f = kinds(doc, "duplicate_runtime")
    check(f and "libgomp.so.1" in f[0]["detail"] and "libiomp5.so" in f[0]["detail"],
          f"duplicate_runtime: {f}")

    rc, doc = deps(os.path.join(t, "libusecuda.so"), "--env", f"LD_LIBRARY_PATH={t}/cuda/stubs")
    f = kinds(doc, "stub_library")
    check(rc == 1 and f and "/stubs/" in f[0]["library"] and
          f[0]["needed_by"] == f"{t}/libusecuda.so", f"stub_library: {f}")
    cu = lib(doc, "libcuda.so.1")
    check(cu and cu["status"] == "stub" and cu["found_via"] == "LD_LIBRARY_PATH",
          f"libcuda.so.1 entry: {cu}")

    rc, doc = deps(os.path.join(t, "libusenew.so"))
    f = kinds(doc, "missing_symbol")
    check(rc == 1 and f and f[0]["symbol"] == "only_in_new" and
          f[0]["needed_by"] == f"{t}/libusenew.so", f"missing_symbol: {f}")
    bm = lib(doc, "libb_m.so")
    check(bm and bm["path"] == f"{t}/old/libb_m.so" and bm["found_via"] == "runpath of libusenew.so",
          f"libb_m.so entry: {bm}")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as t:
        build(t)
        cases(t)
    finish("deps cases")
