#!/usr/bin/python3
"""shadowed_library, with the real ld.so as the oracle.

1. A stub libc10.so.1.13 (right soname, no exports) first on LD_LIBRARY_PATH
   against Debian's torch: `import torch` fails (undefined c10 symbols);
   check --python /usr/bin/python3 reports one error shadowed_library,
   needed_by libtorch_cpu.so, the fix naming the LD_LIBRARY_PATH entry, the
   symbol misses folded into it (no separate missing_symbol finding).
2. A program with DT_RUNPATH $ORIGIN/own needing libx.so, and another libx.so
   on LD_LIBRARY_PATH: glibc searches LD_LIBRARY_PATH before DT_RUNPATH, so
   the other copy loads (the program says which) and binds (LD_BIND_NOW=1):
   a warning. With a copy on LD_LIBRARY_PATH that lacks the symbol, ld.so
   fails: an error.
3. The same program with DT_RPATH: DT_RPATH comes before LD_LIBRARY_PATH,
   the own copy loads, and there is no finding.
4. LD_PRELOAD: the stub libc10 preloaded instead. glibc's _dl_map_object
   matches a need against the sonames of the objects already loaded before
   it searches, so the preloaded stub answers libtorch_cpu's need and the
   torch copy is never looked for (LD_DEBUG=libs shows no search for it):
   one error naming the LD_PRELOAD entry, however many objects need it.
5. LD_PRELOAD of another libx.so against the program, with DT_RPATH as
   with DT_RUNPATH: the preloaded copy answers before any search path
   (warning; error for the copy without the symbol). A preloaded library
   of another soname that only interposes the symbol hides no copy: no
   finding."""
import glob
import json
import os
import subprocess
import sys
import tempfile

TD = os.environ["TD_BIN"]
TORCH = "/usr/lib/python3/dist-packages/torch"
failures = []


def check(cond, what):
    print("ok:" if cond else "FAIL:", what)
    if not cond:
        failures.append(what)


def sh(cmd, cwd):
    subprocess.run(cmd, shell=True, check=True, cwd=cwd)


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LD_", "PYTHON"))}
    env["HOME"] = "/nonexistent-home"
    env.update(extra)
    return env


def td(cmd, args, env):
    p = subprocess.run([TD, cmd, "--format", "json", *args], capture_output=True, text=True,
                       env=env, timeout=120)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{cmd} {args}: exit {p.returncode}: {p.stderr[-800:]}")
    return p.returncode, json.loads(p.stdout)


def shadows(doc):
    return [f for f in doc["findings"] if f["kind"] == "shadowed_library"]


def stub_c10(t):
    libs = glob.glob("/usr/lib/x86_64-linux-gnu/libc10.so.*")
    if not libs or not os.path.isdir(TORCH):
        print("skipped: python3-torch is not installed (stub libc10 case)")
        return
    soname = os.path.basename(sorted(libs)[0])
    d = os.path.join(t, "stub")
    os.makedirs(d)
    open(os.path.join(d, "s.c"), "w").write("int td_stub;\n")
    sh(f"gcc -shared -fPIC -o {soname} -Wl,-soname,{soname} s.c", d)
    env = clean_env(LD_LIBRARY_PATH=d)
    truth = subprocess.run(["/usr/bin/python3", "-c", "import torch"], env=env,
                           capture_output=True, text=True)
    check(truth.returncode != 0 and "undefined symbol" in truth.stderr,
          f"ld.so: import torch fails: {truth.stderr.strip().splitlines()[-1:]}")
    rc, doc = td("check", ["--python", "/usr/bin/python3", "--no-gpu"], env)
    f = shadows(doc)
    check(rc == 1 and len(f) == 1 and f[0]["severity"] == "error", f"one error: {f}")
    if f:
        check(f[0]["library"] == os.path.join(d, soname), f"library {f[0]['library']}")
        check(os.path.basename(f[0]["needed_by"]).startswith("libtorch_cpu.so"),
              f"needed_by {f[0]['needed_by']}")
        check(d in f[0]["fix"] and "LD_LIBRARY_PATH" in f[0]["fix"], f"fix {f[0]['fix']}")
        check("lacks" in f[0]["detail"], "symbol misses folded into the detail")
    check(not [x for x in doc["findings"] if x["kind"] == "missing_symbol"],
          "no separate missing_symbol finding")


def preload_c10(t):
    libs = glob.glob("/usr/lib/x86_64-linux-gnu/libc10.so.*")
    if not libs or not os.path.isdir(TORCH):
        print("skipped: python3-torch is not installed (preloaded libc10 case)")
        return
    soname = os.path.basename(sorted(libs)[0])
    d = os.path.join(t, "preload")
    os.makedirs(d)
    open(os.path.join(d, "s.c"), "w").write("int td_stub;\n")
    sh(f"gcc -shared -fPIC -o {soname} -Wl,-soname,{soname} s.c", d)
    stub = os.path.join(d, soname)
    env = clean_env(LD_PRELOAD=stub, LD_BIND_NOW="1", LD_DEBUG="libs")
    truth = subprocess.run(["/usr/bin/python3", "-c", "import torch"], env=env,
                           capture_output=True, text=True)
    check(truth.returncode != 0 and "undefined symbol" in truth.stderr,
          f"ld.so: import torch fails with libc10 preloaded: {truth.stderr.strip().splitlines()[-1:]}")
    check(f"find library={soname}" not in truth.stderr,
          "ld.so: the preloaded soname answers the need, torch's copy is never searched")
    rc, doc = td("check", ["--python", "/usr/bin/python3", "--no-gpu"], clean_env(LD_PRELOAD=stub))
    f = shadows(doc)
    check(rc == 1 and len(f) == 1 and f[0]["severity"] == "error", f"one error: {f}")
    if f:
        check(f[0]["library"] == stub, f"library {f[0]['library']}")
        check(os.path.basename(f[0]["needed_by"]).startswith("libtorch_cpu.so"),
              f"needed_by {f[0]['needed_by']}")
        check(stub in f[0]["fix"] and "LD_PRELOAD" in f[0]["fix"], f"fix {f[0]['fix']}")
        check("/usr/lib/" in f[0]["detail"] or "/lib/" in f[0]["detail"],
              "the detail names the copy it hides")
    check(not [x for x in doc["findings"] if x["kind"] == "missing_symbol"],
          "no separate missing_symbol finding")


def program(t, name, tags):
    """DIR/prog needing libx.so through DT_RUNPATH or DT_RPATH $ORIGIN/own."""
    d = os.path.join(t, name)
    for sub in ("own", "lp", "bad"):
        os.makedirs(os.path.join(d, sub))
    open(os.path.join(d, "own.c"), "w").write('const char *which(void) { return "own"; }\n')
    open(os.path.join(d, "lp.c"), "w").write('const char *which(void) { return "lp"; }\n')
    open(os.path.join(d, "bad.c"), "w").write('int other(void) { return 0; }\n')
    open(os.path.join(d, "prog.c"), "w").write(
        '#include <stdio.h>\nconst char *which(void);\nint main(void) { puts(which()); return 0; }\n')
    for sub in ("own", "lp", "bad"):
        sh(f"gcc -shared -fPIC -o {sub}/libx.so -Wl,-soname,libx.so {sub}.c", d)
    sh(f"gcc -o prog prog.c -Lown -lx -Wl,{tags},-rpath,'$ORIGIN/own'", d)
    return d


def run_prog(d, lp, var="LD_LIBRARY_PATH"):
    p = subprocess.run([os.path.join(d, "prog")], capture_output=True, text=True,
                       env=clean_env(**{var: lp, "LD_BIND_NOW": "1"}))
    return p.returncode, p.stdout.strip()


def preloaded(t, name, tags):
    d = program(t, f"preload-{name}", tags)
    rc, out = run_prog(d, f"{d}/lp/libx.so", "LD_PRELOAD")
    check(rc == 0 and out == "lp", f"ld.so: {name}: the preloaded libx.so is the one used: {rc} {out}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_PRELOAD={d}/lp/libx.so"], clean_env())
    f = shadows(doc)
    check(rc == 0 and len(f) == 1 and f[0]["severity"] == "warning" and
          f[0]["library"] == f"{d}/lp/libx.so" and f[0]["needed_by"] == f"{d}/prog" and
          "LD_PRELOAD" in f[0]["detail"] and f"{d}/own/libx.so" in f[0]["detail"],
          f"{name}: preloaded copy shadows, binds: {f}")
    rc, out = run_prog(d, f"{d}/bad/libx.so", "LD_PRELOAD")
    check(rc != 0, f"ld.so: {name}: the preloaded copy without the symbol fails: {rc}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_PRELOAD={d}/bad/libx.so"], clean_env())
    f = shadows(doc)
    check(rc == 1 and len(f) == 1 and f[0]["severity"] == "error" and "which" in f[0]["detail"],
          f"{name}: preloaded copy shadows, binding fails: {f}")
    # Interposing the symbol from a library of another soname hides no copy.
    sh(f"gcc -shared -fPIC -o lp/libwhich.so -Wl,-soname,libwhich.so lp.c", d)
    rc, out = run_prog(d, f"{d}/lp/libwhich.so", "LD_PRELOAD")
    check(rc == 0 and out == "lp", f"ld.so: {name}: the preloaded definition interposes: {out}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_PRELOAD={d}/lp/libwhich.so"], clean_env())
    lib = [l for l in doc["libraries"] if l["name"] == "libx.so"]
    check(rc == 0 and not shadows(doc) and lib and lib[0]["path"] == f"{d}/own/libx.so",
          f"{name}: interposition is no shadowed_library: {shadows(doc)}")


def runpath(t):
    d = program(t, "runpath", "--enable-new-dtags")
    rc, out = run_prog(d, f"{d}/lp")
    check(rc == 0 and out == "lp", f"ld.so: DT_RUNPATH program loads the LD_LIBRARY_PATH copy: {rc} {out}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_LIBRARY_PATH={d}/lp"], clean_env())
    f = shadows(doc)
    check(rc == 0 and len(f) == 1 and f[0]["severity"] == "warning" and
          f[0]["library"] == f"{d}/lp/libx.so" and f[0]["needed_by"] == f"{d}/prog" and
          f"{d}/own/libx.so" in f[0]["detail"], f"RUNPATH shadowed, binds: {f}")
    rc, out = run_prog(d, f"{d}/bad")
    check(rc != 0, f"ld.so: the copy without the symbol fails: {rc}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_LIBRARY_PATH={d}/bad"], clean_env())
    f = shadows(doc)
    check(rc == 1 and len(f) == 1 and f[0]["severity"] == "error" and
          "which" in f[0]["detail"], f"RUNPATH shadowed, binding fails: {f}")


def rpath(t):
    d = program(t, "rpath", "--disable-new-dtags")
    rc, out = run_prog(d, f"{d}/lp")
    check(rc == 0 and out == "own", f"ld.so: DT_RPATH program keeps its own copy: {rc} {out}")
    rc, doc = td("deps", [f"{d}/prog", "--env", f"LD_LIBRARY_PATH={d}/lp"], clean_env())
    lib = [l for l in doc["libraries"] if l["name"] == "libx.so"]
    check(rc == 0 and not shadows(doc), f"RPATH: no finding: {shadows(doc)}")
    check(lib and lib[0]["path"] == f"{d}/own/libx.so", f"RPATH: {lib and lib[0]['path']}")


def main():
    with tempfile.TemporaryDirectory() as t:
        stub_c10(t)
        preload_c10(t)
        runpath(t)
        rpath(t)
        preloaded(t, "runpath", "--enable-new-dtags")
        preloaded(t, "rpath", "--disable-new-dtags")
    print("FAILED" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
