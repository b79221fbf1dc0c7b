#!/usr/bin/python3
"""`torchdoctor deps` on Debian's real PyTorch (python3-torch).

1. The whole closure of torch/_C resolves with no error finding, and every
   library is the file ldd (the real ld.so) loads, and none is missing.
2. Copies of the torch libraries broken in six ways, each diagnosed with the
   right kind, library, needed_by and found_via:
   missing library, 32-bit and aarch64 files as the only candidates, a stub
   without the symbols, a library needing a symbol version that the system
   libstdc++ lacks, and a wrong-class file earlier in LD_LIBRARY_PATH (skipped,
   reported as info, the good copy used)."""
import glob
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, finish, sh, td_json  # noqa: E402
from casekit import kinds as findings  # noqa: E402

TORCH = "/usr/lib/python3/dist-packages/torch"
LIBDIR = "/usr/lib/x86_64-linux-gnu"


def deps(*args, env=None):
    return td_json("deps", *args, env=env, strict=True)


def whole_closure():
    c = glob.glob(f"{TORCH}/_C.cpython-*.so")[0]
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    rc, doc = deps(c, env=env)
    errors = [f for f in doc["findings"] if f["severity"] == "error"]
    check(rc == 0 and not errors, f"real torch _C: rc {rc}, errors {errors[:3]}")
    mine = {l["name"]: l["path"] for l in doc["libraries"] if l["status"] != "root"}
    check(all(p for p in mine.values()), "real torch _C: a library without a path")
    out = subprocess.run(["ldd", c], capture_output=True, text=True, env=env).stdout
    ldd = {}
    for line in out.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>" and parts[2].startswith("/"):
            ldd[parts[0]] = parts[2]
        elif len(parts) == 2 and parts[0].startswith("/"):  # the interpreter's own line
            ldd[os.path.basename(parts[0])] = parts[0]
    check(len(mine) == len(ldd), f"closure size {len(mine)} != ldd {len(ldd)}")
    differ = [(n, mine.get(n), p) for n, p in ldd.items()
              if not mine.get(n) or os.path.realpath(mine[n]) != os.path.realpath(p)]
    check(not differ, f"paths differ from ldd: {differ[:5]}")
    print(f"real torch _C: {len(mine)} libraries, same files as ldd: {not differ}, "
          f"{doc['symbols']['distinct_references']} distinct symbol references bound, "
          f"interpreter {doc['symbols']['interpreter']}")


def build_tree(tmp):
    """torch/_C and the libraries that need libc10, copied with RUNPATH
    $ORIGIN and their libc10.so.1.13 need renamed to libc10bk.so.1.13."""
    t = os.path.join(tmp, "tree", "torch")
    os.makedirs(os.path.join(t, "lib"))
    c = glob.glob(f"{TORCH}/_C.cpython-*.so")[0]
    shutil.copy(c, t)
    sh(f"patchelf --set-rpath '$ORIGIN/lib' {t}/{os.path.basename(c)}")
    for name in ("libtorch_python.so.1.13", "libtorch.so.1.13", "libtorch_cpu.so.1.13",
                 "libshm.so.1.13"):
        dst = os.path.join(t, "lib", name)
        shutil.copy(os.path.realpath(os.path.join(LIBDIR, name)), dst)
        # Two runs: patchelf 0.14 given both options at once writes the
        # needed name into the runpath.
        sh(f"patchelf --replace-needed libc10.so.1.13 libc10bk.so.1.13 {dst}")
        sh(f"patchelf --set-rpath '$ORIGIN' {dst}")
    return t, os.path.join(t, os.path.basename(c))


def needers(f):
    n = f["needed_by"]
    return {os.path.basename(x) for x in (n if isinstance(n, list) else [n])}


def broken_cases(tmp):
    t, c = build_tree(tmp)
    lib = os.path.join(t, "lib")
    env = {k: v for k, v in os.environ.items() if k != "LD_LIBRARY_PATH"}
    bk = os.path.join(lib, "libc10bk.so.1.13")

    # (a) missing library
    rc, doc = deps(c, env=env)
    miss = [f for f in findings(doc, "missing_library", "error") if f["library"] == "libc10bk.so.1.13"]
    check(rc == 1 and miss, "missing: no missing_library finding for libc10bk.so.1.13")
    check(miss and "libtorch_cpu.so.1.13" in set().union(*map(needers, miss)),
          "missing: needed_by does not name libtorch_cpu.so.1.13")
    entry = [l for l in doc["libraries"] if l["name"] == "libc10bk.so.1.13"]
    check(entry and entry[0]["path"] is None and any(
        s["rule"] == "runpath" and s["path"] == bk for s in entry[0]["searched"]),
        "missing: the runpath candidate is not among the places tried")

    # (b) a 32-bit file, (c) an aarch64 file as the only candidate
    src = os.path.join(tmp, "stub.c")
    open(src, "w").write("int bk_stub_marker(void) { return 1; }\n")
    for label, cmd in (("i386", f"gcc -m32 -shared -fPIC -o {bk} {src}"),
                       ("aarch64", f"clang --target=aarch64-linux-gnu -fuse-ld=lld -nostdlib "
                                   f"-shared -o {bk} {src}")):
        sh(cmd)
        rc, doc = deps(c, env=env)
        wrong = [f for f in findings(doc, "wrong_architecture", "error") if f["library"] == "libc10bk.so.1.13"]
        check(rc == 1 and wrong, f"{label}: no wrong_architecture error for libc10bk.so.1.13")
        check(not findings(doc, "missing_library"), f"{label}: reported as plainly missing")
        os.unlink(bk)

    # (d) a stub that loads but defines none of c10's symbols
    sh(f"gcc -shared -fPIC -Wl,-soname,libc10bk.so.1.13 -o {bk} {src}")
    rc, doc = deps(c, env=env)
    ms = findings(doc, "missing_symbol", "error")
    cpu = [f for f in ms if "libtorch_cpu.so.1.13" in needers(f)]
    check(rc == 1 and cpu and cpu[0]["symbol"].startswith("_ZN3c10") or (
        cpu and "c10" in cpu[0]["symbol"]), f"stub: no missing_symbol of c10 for libtorch_cpu: {ms[:2]}")
    found = [l for l in doc["libraries"] if l["name"] == "libc10bk.so.1.13"]
    check(found and found[0]["path"] == bk and found[0]["found_via"].startswith("runpath"),
          f"stub: found_via {found[0]['found_via'] if found else None}")
    os.unlink(bk)

    # (e) a library that needs GLIBCXX_3.4.99 from libstdc++.so.6
    fake = os.path.join(tmp, "fake")
    os.makedirs(fake)
    open(os.path.join(fake, "v.map"), "w").write("GLIBCXX_3.4.99 { global: bk_need_new_glibcxx; };\n")
    open(os.path.join(fake, "f.c"), "w").write("void bk_need_new_glibcxx(void) {}\n")
    sh(f"gcc -shared -fPIC -o libstdc++.so -Wl,-soname,libstdc++.so.6 "
       f"-Wl,--version-script=v.map f.c", cwd=fake)
    open(os.path.join(tmp, "proxy.c"), "w").write(
        "void bk_need_new_glibcxx(void);\nvoid bk_proxy(void) { bk_need_new_glibcxx(); }\n")
    sh(f"gcc -shared -fPIC -o {bk} -Wl,-soname,libc10bk.so.1.13 {tmp}/proxy.c "
       f"-Wl,--no-as-needed {LIBDIR}/libc10.so.1.13 -L{fake} -lstdc++")
    rc, doc = deps(c, env=env)
    ver = findings(doc, "missing_symbol_version", "error")
    check(rc == 1 and ver and ver[0]["symbol"] == "GLIBCXX_3.4.99" and
          "libc10bk.so.1.13" in needers(ver[0]) and "libstdc++.so.6" in (ver[0]["library"] or ""),
          f"version: {ver[:1]}")
    check(not findings(doc, "missing_symbol"), "version: c10 symbols should still bind through the real libc10")
    os.unlink(bk)

    # (f) a 32-bit libc10.so.1.13 first in LD_LIBRARY_PATH: skipped, the system copy used
    lp = os.path.join(tmp, "lp32")
    os.makedirs(lp)
    sh(f"gcc -m32 -shared -fPIC -o {lp}/libc10.so.1.13 {src}")
    sys_c = glob.glob(f"{TORCH}/_C.cpython-*.so")[0]
    rc, doc = deps(sys_c, "--env", f"LD_LIBRARY_PATH={lp}", env=env)
    info = [f for f in findings(doc, "wrong_architecture") if f["library"] == f"{lp}/libc10.so.1.13"]
    check(rc == 0 and info and info[0]["severity"] == "info",
          f"ldlp32: expected an info finding for the skipped file, got {info}, rc {rc}")
    c10 = [l for l in doc["libraries"] if l["name"] == "libc10.so.1.13"]
    check(c10 and os.path.realpath(c10[0]["path"]) == os.path.realpath(f"{LIBDIR}/libc10.so.1.13"),
          "ldlp32: libc10 is not the system copy")
    check(c10 and any(s["path"] == f"{lp}/libc10.so.1.13" and s["verdict"] == "wrong class"
                      for s in c10[0]["searched"]), "ldlp32: the skipped file is not in searched")


if __name__ == "__main__":
    if not os.path.isdir(TORCH):
        raise SystemExit("python3-torch is not installed (make test installs it)")
    whole_closure()
    with tempfile.TemporaryDirectory() as tmp:
        broken_cases(tmp)
    finish("deps on real torch")
