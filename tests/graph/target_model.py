#!/usr/bin/python3
"""One model of a target, whoever asks (graph/target.h).

A torch built here (gcc) is broken one way: torch/_C needs lib/libtorch_fake.so
(DT_RUNPATH $ORIGIN/lib), which needs libc10_gone.so, which nothing holds.
Ground truth: the real ld.so (ctypes.CDLL of _C with RTLD_NOW) fails on
libc10_gone.so. Then:
1. `deps torch/_C...so` and `check --python venv/bin/python3` name the same
   kind, library and needed_by (explain's side: see EXPLAIN_HOOK below).
2. `check --root DIR` builds the same closure when the torch exists only
   under DIR (the import's roots are looked up under the root).
3. `deps torch/lib/libtorch_fake.so` adds no root beside the import's: the
   roots are the real import's (_C), the named file is found as _C needs it."""
import ctypes
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
import casekit  # noqa: E402
from casekit import check, env_without, failures, sh, td_json  # noqa: E402

casekit.show_ok = True
SO = "_C.cpython-311-x86_64-linux-gnu.so"


def run(cmd, args, env=None, cwd=None):
    env = env or env_without("LD_", "PYTHON")
    env.setdefault("HOME", "/nonexistent-home")
    if cwd:
        env["PWD"] = cwd
    return td_json(cmd, *args, env=env, cwd=cwd, timeout=120, strict=True, what=f"{cmd} {args}",
                   tail=800)


def venv(base, site_rel="lib/python3.11/site-packages"):
    """A venv on /usr/bin/python3.11 whose site-packages holds the broken torch."""
    site = os.path.join(base, site_rel)
    torch = os.path.join(site, "torch")
    os.makedirs(os.path.join(torch, "lib"))
    os.makedirs(os.path.join(base, "bin"))
    os.symlink("/usr/bin/python3.11", os.path.join(base, "bin", "python3"))
    with open(os.path.join(base, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    with open(os.path.join(torch, "version.py"), "w") as f:
        f.write("__version__ = '2.1.2+cpu'\ndebug = False\ncuda: Optional[str] = None\n")
    with open(os.path.join(torch, "__init__.py"), "w") as f:
        f.write("# torch\n")
    return torch


def build_torch(torch, tmp):
    with open(os.path.join(tmp, "gone.c"), "w") as f:
        f.write("int c10_gone(void) { return 1; }\n")
    with open(os.path.join(tmp, "fake.c"), "w") as f:
        f.write("int c10_gone(void);\nint torch_fake(void) { return c10_gone(); }\n")
    with open(os.path.join(tmp, "c.c"), "w") as f:
        f.write("int torch_fake(void);\nint PyInit__C(void) { return torch_fake(); }\n")
    sh(f"gcc -shared -fPIC -o {tmp}/libc10_gone.so -Wl,-soname,libc10_gone.so {tmp}/gone.c")
    sh(f"gcc -shared -fPIC -o {torch}/lib/libtorch_fake.so -Wl,-soname,libtorch_fake.so "
       f"{tmp}/fake.c -L{tmp} -lc10_gone")
    sh(f"gcc -shared -fPIC -o {torch}/{SO} {tmp}/c.c -L{torch}/lib -ltorch_fake "
       f"-Wl,--enable-new-dtags,-rpath,'$ORIGIN/lib'")
    os.remove(f"{tmp}/libc10_gone.so")


def ground_truth(torch):
    try:
        ctypes.CDLL(os.path.join(torch, SO), mode=os.RTLD_NOW)
        return None
    except OSError as e:
        return str(e)


def key(f):
    return (f["severity"], f["kind"], os.path.basename(f["library"] or ""),
            os.path.realpath(f["needed_by"]) if f["needed_by"] else None)


def errors(doc):
    return sorted({key(f) for f in doc["findings"] if f["severity"] == "error"
                   and f["kind"] in ("missing_library", "missing_symbol", "wrong_architecture",
                                     "shadowed_library")})


def same_finding(tmp):
    torch = venv(os.path.join(tmp, "venv"))
    build_torch(torch, tmp)
    truth = ground_truth(torch)
    check(truth and "libc10_gone.so" in truth, f"ld.so: {truth}")
    rc, d = run("deps", [os.path.join(torch, SO)])
    rc2, c = run("check", ["--python", os.path.join(tmp, "venv", "bin", "python3"), "--no-gpu"])
    want = [("error", "missing_library", "libc10_gone.so",
             os.path.realpath(os.path.join(torch, "lib", "libtorch_fake.so")))]
    check(errors(d) == want, f"deps names {errors(d)}")
    check(errors(c) == want, f"check names {errors(c)}")
    check(rc == 1 and rc2 == 1, f"deps exit {rc}, check exit {rc2}")
    # explain's side: the traceback `import torch` prints with ld.so's text
    # (TRUTH) names the same kind, library and needed_by.
    text = ("Traceback (most recent call last):\n"
            '  File "<string>", line 1, in <module>\n'
            f'  File "{torch}/__init__.py", line 1, in <module>\n'
            "    from torch._C import *\n"
            f"ImportError: {truth}\n")
    rc3, e = run("explain", [text])
    check(errors(e) == want, f"explain names {errors(e)}")
    check(rc3 == 1, f"explain exit {rc3}")
    return torch


def root_closure(tmp):
    """The same torch, under a root only: check --root must build its closure."""
    root = os.path.join(tmp, "root")
    torch = venv(os.path.join(root, "opt", "venv"))
    build_torch(torch, os.path.join(tmp))
    os.makedirs(os.path.join(root, "usr", "bin"))
    shutil.copy("/usr/bin/python3.11", os.path.join(root, "usr", "bin", "python3.11"))
    # A relative --root (from TMP, "root") must give the same closure (trial 2).
    for given, cwd in ((root, None), ("root", tmp), ("./root/../root/", tmp)):
        rc, c = run("check", ["--root", given, "--python", "/opt/venv/bin/python3", "--no-gpu"],
                    cwd=cwd)
        libs = {os.path.basename(l["name"]): l for l in c.get("deps", {}).get("libraries", [])}
        check("libtorch_fake.so" in libs and libs["libtorch_fake.so"]["path"],
              f"check --root {given}: closure {sorted(libs)[:8]}")
        missing = [f for f in c["findings"] if f["kind"] == "missing_library"
                   and f["library"] == "libc10_gone.so"]
        check(len(missing) == 1 and missing[0]["needed_by"].endswith("torch/lib/libtorch_fake.so"),
              f"check --root {given}: libc10_gone.so missing, needed by libtorch_fake.so: "
              f"{missing}")


def no_extra_root(torch):
    """deps on a file of torch/lib: the import's roots, and that file as _C finds it."""
    rc, d = run("deps", [os.path.join(torch, "lib", "libtorch_fake.so")])
    roots = [os.path.basename(l["path"]) for l in d["libraries"] if l["status"] == "root"]
    fake = [l for l in d["libraries"] if l["name"] == "libtorch_fake.so"]
    check(d["profile"] == "torch-import", f"profile {d['profile']}")
    check(roots == [SO], f"roots {roots}")
    check(len(fake) == 1 and fake[0]["found_via"].startswith("runpath"),
          f"libtorch_fake.so found via {[l['found_via'] for l in fake]}")


def main():
    if not shutil.which("gcc") or not os.path.exists("/usr/bin/python3.11"):
        print("skipped: gcc or /usr/bin/python3.11 absent")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        torch = same_finding(tmp)
        no_extra_root(torch)
        root_closure(tmp)
    print("FAILED" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
