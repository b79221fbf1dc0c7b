#!/usr/bin/python3
"""An extension's Py* references bind as in the running interpreter.

The interpreter of tests/fixtures/pylaunch.sh is a launcher linked against
libpython3.11.so.1.0 (Debian's libpython3.11-dev), as pyenv and
--enable-shared builds are: the Py* API is defined in libpython, not in the
program. Ground truth: that interpreter (a venv of it) imports Debian's
torch. Then `deps _C --python LAUNCHER` and `check --python VENV` (binding by default)
report zero unbound symbols (without the interpreter's closure in scope,
libtorch_python.so lacks 251 Py* symbols)."""
import glob
import json
import os
import subprocess
import sys

TD = os.environ["TD_BIN"]
FX = os.path.join(os.environ["TD_FIXTURES"], "pylaunch")
TORCH = "/usr/lib/python3/dist-packages/torch"
failures = []


def check(cond, what):
    print("ok:" if cond else "FAIL:", what)
    if not cond:
        failures.append(what)


def run(cmd, args):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LD_", "PYTHON"))}
    env["HOME"] = "/nonexistent-home"
    p = subprocess.run([TD, cmd, "--format", "json", *args], capture_output=True, text=True,
                       env=env, timeout=120)
    if p.returncode not in (0, 1):
        raise SystemExit(f"{cmd} {args}: exit {p.returncode}: {p.stderr[-800:]}")
    return json.loads(p.stdout)


def main():
    if os.path.exists(os.path.join(FX, "SKIPPED")):
        print(open(os.path.join(FX, "SKIPPED")).read().strip())
        return 0
    if not glob.glob(f"{TORCH}/_C.cpython-311-*.so"):
        print("skipped: python3-torch is not installed")
        return 0
    launcher = os.path.join(FX, "bin", "python3.11")
    venv_py = os.path.join(FX, "venv", "bin", "python3")
    needed = subprocess.run(["readelf", "-d", launcher], capture_output=True, text=True).stdout
    check("libpython3.11.so.1.0" in needed, "the launcher needs libpython3.11.so.1.0")
    truth = subprocess.run([venv_py, "-c", "import torch; print(torch.__file__)"],
                           capture_output=True, text=True, timeout=300)
    check(truth.returncode == 0, f"the real interpreter imports torch: {truth.stderr[-300:]}")

    c = glob.glob(f"{TORCH}/_C.cpython-311-*.so")[0]
    d = run("deps", [c, "--python", launcher])
    s = d["symbols"]
    check(os.path.realpath(s["interpreter"] or "") == os.path.realpath(launcher), f"deps: interpreter {s['interpreter']}")
    check(s["bound"] and s["distinct_references"] > 1000,
          f"deps: {s['distinct_references']} references bound")
    check(s["unbound"] == [], f"deps: unbound {[(u['object'], u['count']) for u in s['unbound']]}")
    check(not [f for f in d["findings"] if f["kind"] == "missing_symbol"], "deps: no missing_symbol")

    k = run("check", ["--python", venv_py, "--no-gpu"])  # binds every symbol by default
    s = k.get("deps", {}).get("symbols", {})
    check(s.get("bound") and s.get("distinct_references", 0) > 1000,
          f"check: {s.get('distinct_references')} references bound by default")
    check(os.path.realpath(s.get("interpreter") or "") == os.path.realpath(launcher), f"check: interpreter {s.get('interpreter')}")
    check(s.get("unbound") == [], f"check: unbound {[(u['object'], u['count']) for u in s.get('unbound', [])]}")
    check(not [f for f in k["findings"] if f["kind"] == "missing_symbol"], "check: no missing_symbol")
    print("FAILED" if failures else "all passed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
