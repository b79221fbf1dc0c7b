#!/usr/bin/python3
"""`torchdoctor deps` given a relative path: the same answer as for the
absolute path of the same file, and the libraries ldd (the real ld.so,
which accepts every one of these spellings) loads.

Built here: a directory named torch holding only lib/libc10.so (needing
libdep.so beside it through $ORIGIN) and a link lib/liblink.so to a library
outside it; beside it a whole torch (lib/libtorch_global_deps.so, _C*.so).
A torch directory without _C is not an installation: its libraries are
analysed as themselves (it used to be "no file to analyse", exit 2). A
library of a whole torch means `import torch` however it is spelled
(torch/lib/x, ./x, ../lib/x from inside)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import check, finish, shared_lib  # noqa: E402

TD = os.environ["TD_BIN"]


def deps(path, cwd):
    p = subprocess.run([TD, "deps", "--format", "json", path], capture_output=True, text=True,
                       cwd=cwd)
    import json
    doc = json.loads(p.stdout) if p.returncode in (0, 1) else None
    return p.returncode, doc, p.stderr.strip()


def closure(doc, cwd):
    """The real paths of the loaded libraries, roots included, and the
    names of those not found."""
    return ({os.path.realpath(os.path.join(cwd, l["path"])) for l in doc["libraries"] if l["path"]},
            {l["name"] for l in doc["libraries"] if not l["path"]})


def ldd(path, cwd):
    """(exit status, real paths ldd loads, names it did not find)."""
    p = subprocess.run(["ldd", path], capture_output=True, text=True, cwd=cwd)
    found, missing = set(), set()
    for line in p.stdout.splitlines():
        parts = line.split()
        if len(parts) >= 3 and parts[1] == "=>" and parts[2].startswith("/"):
            found.add(os.path.realpath(parts[2]))
        elif len(parts) >= 3 and parts[1] == "=>" and parts[2] == "not":
            missing.add(parts[0])
        elif len(parts) == 2 and parts[0].startswith("/"):  # the interpreter
            found.add(os.path.realpath(parts[0]))
    return p.returncode, (found, missing)


def build(tmp):
    part = os.path.join(tmp, "partial", "torch", "lib")
    real = os.path.join(tmp, "elsewhere")
    whole = os.path.join(tmp, "site", "torch")
    for d in (part, real, os.path.join(whole, "lib")):
        os.makedirs(d)
    shared_lib(f"{part}/libdep.so", "libdep.so")
    shared_lib(f"{part}/libc10.so", "libc10.so", needs=["libdep.so"], libdirs=[part],
               rpath="$ORIGIN")
    shared_lib(f"{real}/libfar.so", "libfar.so")
    shared_lib(f"{real}/libreal.so", "libreal.so", needs=["libfar.so"], libdirs=[real],
               rpath="$ORIGIN")
    os.symlink("../../../elsewhere/libreal.so", f"{part}/liblink.so")
    lib = os.path.join(whole, "lib")
    shared_lib(f"{lib}/libtorch_global_deps.so", "libtorch_global_deps.so")
    shared_lib(f"{lib}/libc10.so", "libc10.so")
    shared_lib(f"{whole}/_C.cpython-311-x86_64-linux-gnu.so", "_C", needs=["libc10.so"],
               libdirs=[lib], rpath="$ORIGIN/lib")
    return os.path.join(tmp, "partial"), os.path.join(tmp, "site")


def main():
    with tempfile.TemporaryDirectory() as tmp:
        partial, site = build(tmp)
        lib = os.path.join(partial, "torch", "lib")
        # (cwd, spelling, the same file's absolute path)
        spellings = [
            (partial, "torch/lib/libc10.so", f"{lib}/libc10.so"),
            (partial, "./torch/lib/libc10.so", f"{lib}/libc10.so"),
            (lib, "libc10.so", f"{lib}/libc10.so"),
            (lib, "./libc10.so", f"{lib}/libc10.so"),
            (lib, "../lib/libc10.so", f"{lib}/libc10.so"),
            (partial, "torch/lib/liblink.so", f"{lib}/liblink.so"),
            (lib, "./liblink.so", f"{lib}/liblink.so"),
        ]
        for cwd, rel, absolute in spellings:
            rc, doc, err = deps(rel, cwd)
            what = f"deps {rel} (from {os.path.relpath(cwd, tmp)})"
            rca, docabs, _ = deps(absolute, "/")
            check(doc is not None and rc == rca, f"{what}: exit {rc} (absolute: {rca}) {err}")
            if doc is None:
                continue
            check(docabs is not None and closure(doc, cwd) == closure(docabs, "/"),
                  f"{what}: the same libraries as {absolute}")
            check(doc["profile"] == "dlopen", f"{what}: profile {doc['profile']}, not dlopen")
            lrc, seen = ldd(rel, cwd)
            found, missing = closure(doc, cwd)
            mine = (found - {os.path.realpath(absolute)}, missing)
            check(lrc == 0 and seen == mine, f"{what}: ldd {seen} != {mine}")
        # A library of a whole torch: `import torch`, whatever the spelling.
        wlib = os.path.join(site, "torch", "lib")
        for cwd, rel in ((site, "torch/lib/libc10.so"), (site, "./torch/lib/libc10.so"),
                         (wlib, "libc10.so"), (wlib, "../lib/libc10.so"),
                         (site, "torch/_C.cpython-311-x86_64-linux-gnu.so")):
            rc, doc, err = deps(rel, cwd)
            what = f"deps {rel} (from {os.path.relpath(cwd, tmp)}), a whole torch"
            check(rc == 0 and doc is not None and doc["profile"] == "torch-import",
                  f"{what}: exit {rc}, profile {doc and doc['profile']} {err}")
            names = {os.path.basename(p) for p in closure(doc, cwd)[0]} if doc else set()
            check({"libtorch_global_deps.so", "_C.cpython-311-x86_64-linux-gnu.so",
                   "libc10.so"} <= names, f"{what}: roots of the import {sorted(names)}")
    finish("deps relative paths")


main()
