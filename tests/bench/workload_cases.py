#!/usr/bin/python3
"""bench --workload. With Debian's torch (python3-torch, found by check's
discovery), a real CPU run at tiny shapes: s/step, peak memory and the
stability over the rounds asked, in text and JSON. With fake interpreters
(a venv holding a torch the discovery accepts, whose python3 is a shell
script speaking a fixed protocol): known times give known median, spread
and drift; a GPU with a data-sheet row gives the expected s/step and the
verdicts; garbage, a crash, an exit mid-run, torch's own error and no
torch each end in a clear message and exit 2; the progress bar appears on
a terminal only once the child has reported 2 s of work. No assertion
depends on the machine's speed."""
import json
import os
import pty
import subprocess
import sys
import tempfile

TD = os.environ["TD_BIN"]
SRC = os.environ["TD_SRC"]
FAILS = []


def check(cond, what):
    print(("ok   " if cond else "FAIL ") + what)
    if not cond:
        FAILS.append(what)


def run(*args, env=None):
    p = subprocess.run([TD, "bench", *args], capture_output=True, text=True, timeout=600,
                       env=env)
    return p.returncode, p.stdout, p.stderr


def validate(doc, what):
    try:
        import jsonschema
    except ImportError:
        print(f"skipped: schema validation of {what} (no python3-jsonschema)")
        return
    schema = json.load(open(os.path.join(SRC, "schema", "report.schema.json")))
    schema.pop("$id", None)
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(doc))
    check(not errors, f"{what} validates against the schema {[e.message for e in errors][:2]}")


def table(name):
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(SRC, "data", name + ".tsv"))
            if l.strip() and not l.startswith("#")]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def venv(d, name, script, torch=True):
    """A venv whose python3 is SCRIPT (sh), with a torch the discovery finds."""
    root = os.path.join(d, name)
    site = os.path.join(root, "lib", "python3.11", "site-packages")
    os.makedirs(os.path.join(root, "bin"))
    os.makedirs(site)
    with open(os.path.join(root, "pyvenv.cfg"), "w") as f:
        f.write("home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.11.2\n")
    if torch:
        os.makedirs(os.path.join(site, "torch"))
        os.makedirs(os.path.join(site, "torch-2.4.0.dist-info"))
        open(os.path.join(site, "torch", "__init__.py"), "w").close()
        with open(os.path.join(site, "torch", "version.py"), "w") as f:
            f.write("__version__ = '2.4.0'\ncuda = None\n")
        with open(os.path.join(site, "torch-2.4.0.dist-info", "METADATA"), "w") as f:
            f.write("Metadata-Version: 2.1\nName: torch\nVersion: 2.4.0\n")
    exe = os.path.join(root, "bin", "python3")
    with open(exe, "w") as f:
        f.write("#!/bin/sh\n" + script)
    os.chmod(exe, 0o755)
    return exe


def protocol(rounds, stages=1, device="cpu 25000000000 -", peak=None, after=""):
    """The lines of a child that ran ROUNDS (a list of per-round times)."""
    lines = ["td-step hello 1", "td-step torch 2.4.0 0.500000", f"td-step device {device}",
             "td-step attention sdpa", "td-step dtype fp16 -"]
    lines += [f"td-step stage {i} 0.250000 1000" for i in range(stages)]
    lines.append("td-step warmup 0.100000")
    lines += [f"td-step round {i} " + " ".join(["%.6f" % t] * stages) for i, t in enumerate(rounds)]
    if peak:
        lines.append(f"td-step peak {peak} torch.cuda.max_memory_allocated")
    lines.append("td-step done")
    return "".join(f"echo '{l}'\n" for l in lines) + after


def debian(d):
    """The real run, through the torch check's discovery finds."""
    p = subprocess.run(["/usr/bin/python3", "-c", "import torch"], capture_output=True)
    if p.returncode != 0:
        print("skipped: the CPU run through Debian's torch (/usr/bin/python3 has no torch: "
              "apt install python3-torch)")
        return
    rc, out, err = run("--workload", "sdxl-lora", "--hidden", "64", "--tokens", "64",
                       "--rounds", "6")
    check(rc in (0, 1) and "s/step" in out and "peak memory:" in out and "rounds: 6 after" in out,
          f"Debian torch, sdxl-lora at tiny shapes: s/step, peak memory and 6 rounds printed "
          f"(exit {rc}) {err.strip()[:200]}")
    check("drift" in out and "IQR" in out, "the stability line: median, IQR, drift")
    check("100 steps" in out and ("stable" in out), "the speed verdict")
    print("\n".join("     | " + l for l in out.splitlines()[:12]))
    rc, out, err = run("--workload", "flux-lora", "--hidden", "64", "--tokens", "16",
                       "--rounds", "4", "--format", "json")
    doc = json.loads(out) if out.strip() else {}
    w = doc.get("bench_workload", {})
    validate(doc, "bench --workload flux-lora's JSON")
    check(rc in (0, 1) and w.get("rounds") == 4 and w.get("rounds_asked") == 4 and
          len(w.get("step_s", [])) == 4, f"flux-lora: rounds == 4 ({err.strip()[:200]})")
    check(w.get("peak_bytes", 0) > 0 and "RSS" in (w.get("peak_source") or ""),
          f"peak RSS of the child > 0: {w.get('peak_bytes')}")
    check([s["block"] for s in w.get("stages", [])] == ["double", "single"] and
          [s["blocks"] for s in w.get("stages", [])] == [19, 38],
          "flux: one double-stream and one single-stream block, 19 and 38 in the model")
    st = w.get("step", {})
    check(0 < st.get("min_s", 0) <= st.get("median_s", 0) <= st.get("max_s", 0),
          f"min <= median <= max: {st}")
    med = w.get("stages", [{}, {}])
    extra = 19 * med[0].get("median_s", 0) + 38 * med[1].get("median_s", 0)
    check(abs(extra - st.get("median_s", -1)) <= 0.5 * st.get("median_s", 1),
          "s/step is about 19 x the double block + 38 x the single block")
    check(w.get("dtype") in ("bf16", "fp32") and (w["dtype"] == "bf16") == (w["dtype_why"] is None),
          f"dtype {w.get('dtype')}, and why when not the job's: {w.get('dtype_why')}")
    check(w.get("python") and os.path.exists(w["python"]), "the interpreter is named")
    rc, out, err = run("--workload", "sdxl-full", "--hidden", "64", "--tokens", "16",
                       "--rounds", "2", "--format", "json")
    w = json.loads(out).get("bench_workload", {}) if out.strip() else {}
    check(rc in (0, 1) and w.get("lora_rank") == 0 and w.get("rounds") == 2,
          f"full fine-tuning (sdxl-full) runs too ({err.strip()[:200]})")


def stats(d):
    """Known times: 8 rounds of one sd3 block, the last quarter twice as slow."""
    times = [1.0, 1.0, 1.2, 1.0, 1.0, 1.1, 2.0, 2.0]
    py = venv(d, "known", protocol(times))
    rc, out, err = run("--workload", "sd3-lora", "--python", py, "--rounds", "8",
                       "--format", "json")
    doc = json.loads(out) if out.strip() else {}
    validate(doc, "the fake run's JSON")
    w = doc.get("bench_workload", {})
    st = w.get("step", {})
    check(rc == 0 and w.get("rounds") == 8, f"fake sd3-lora: 8 rounds (exit {rc}) {err.strip()}")
    check(abs(st.get("median_s", 0) - 24 * 1.05) < 1e-6, f"median 24 x 1.05 s: {st.get('median_s')}")
    check(abs(st.get("min_s", 0) - 24) < 1e-6 and abs(st.get("max_s", 0) - 48) < 1e-6,
          "min-max 24-48 s")
    check(abs(st.get("q1_s", 0) - 24) < 1e-6 and abs(st.get("q3_s", 0) - 24 * 1.4) < 1e-6,
          f"IQR by interpolation: {st.get('q1_s')}-{st.get('q3_s')}")
    check(abs(st.get("drift_pct", 0) - 100) < 1e-6 and st.get("quarter_rounds") == 2,
          f"drift: last 2 rounds against the first 2 = +100%: {st.get('drift_pct')}")
    kinds = [f["kind"] for f in doc.get("findings", [])]
    check("step_unstable" in kinds, f"a step_unstable warning: {kinds}")
    check(w.get("verdicts", {}).get("speed", "").startswith("25.2 s/step, 100 steps") and
          "unstable (drift +100%" in w["verdicts"]["speed"], w.get("verdicts", {}).get("speed"))
    check(w.get("peak_bytes", 0) > 0, "CPU: peak RSS of the (fake) child from wait4")
    rc, out, err = run("--workload", "sd3-lora", "--python", py, "--rounds", "8")
    check("drift +100.0%" in out and "unstable" in out and "24 x 1.05 s" in out,
          "text: the drift and the extrapolation 24 x block")
    few = venv(d, "few", protocol([1.0, 1.0, 2.0]))
    rc, out, err = run("--workload", "sd3-lora", "--python", few, "--rounds", "3",
                       "--format", "json")
    doc = json.loads(out)
    check("step_unstable" not in [f["kind"] for f in doc["findings"]] and
          "stability not judged (drift +100% over 3 rounds; 4 or more needed)" in
          doc["bench_workload"]["verdicts"]["speed"], "3 rounds: drift shown, not judged")
    steady = venv(d, "steady", protocol([1.0] * 8))
    rc, out, err = run("--workload", "sd3-lora", "--python", steady, "--rounds", "8",
                       "--format", "json")
    doc = json.loads(out)
    check("step_unstable" not in [f["kind"] for f in doc["findings"]] and
          "; stable (drift +0%" in doc["bench_workload"]["verdicts"]["speed"], "steady: stable")


def gpu(d):
    """A fake GPU with a data-sheet row: the expected s/step and the memory verdicts."""
    peak = [r for r in table("gpu_peaks") if r["name"] == "GeForce RTX 3090"][0]
    eff = float([r for r in table("workload_bench") if r["name"] == "gpu_efficiency"][0]["value"])
    slow = float([r for r in table("workload_bench") if r["name"] == "slow_factor"][0]["value"])
    py = venv(d, "gpu", protocol([1.0] * 4, device="cuda 25447170048 NVIDIA GeForce RTX 3090",
                                 peak=7000000000))
    rc, out, err = run("--workload", "sd3-lora", "--python", py, "--rounds", "4",
                       "--format", "json")
    doc = json.loads(out) if out.strip() else {}
    w = doc.get("bench_workload", {})
    validate(doc, "the fake GPU run's JSON")
    want = w.get("flops_per_step", 0) / (float(peak["bf16_tflops"]) * 1e12 * eff)
    check(abs(w.get("expected", {}).get("s_per_step", 0) - want) < 1e-6 * want,
          f"expected s/step = FLOPs / (71 TFLOP/s x {eff}): {w.get('expected')}")
    check(w.get("peak_bytes") == 7000000000 and
          w.get("peak_source") == "torch.cuda.max_memory_allocated", "GPU: the allocator's peak")
    kinds = [f["kind"] for f in doc.get("findings", [])]
    check(("performance_below_expected" in kinds) == (24 > want * slow),
          f"24 s/step against {want:.3g} s expected: slower than expected {kinds}")
    check(w.get("verdicts", {}).get("memory", "").startswith("fits with"),
          f"sd3-lora fits a 24 GB GPU: {w.get('verdicts', {}).get('memory')}")
    small = venv(d, "bf16", protocol([1.0] * 2, stages=2,
                                      device="cuda 25447170048 NVIDIA GeForce RTX 3090"))
    rc, out, err = run("--workload", "flux-lora", "--precision", "bf16", "--python", small,
                       "--rounds", "2", "--format", "json")
    doc = json.loads(out) if out.strip() else {}
    v = doc.get("bench_workload", {}).get("verdicts", {}).get("memory", "")
    check(rc == 1 and v.startswith("will not fit: needs") and "; with --precision fp8" in v and
          "insufficient_memory" in [f["kind"] for f in doc.get("findings", [])],
          f"flux-lora in bf16 on a 24 GB GPU: exit 1, '{v}' {err.strip()}")


def failures(d):
    cases = [
        ("garbage", "echo 'td-step hello 1'\necho 'Hello from another program'\n",
         "does not speak bench's step protocol"),
        ("crash", "echo 'td-step hello 1'\necho 'td-step torch 2.4.0 0.5'\nkill -SEGV $$\n",
         "killed by SIGSEGV"),
        ("midrun", protocol([1.0, 1.0]).split("echo 'td-step round 1")[0] +
         "echo 'Traceback: boom' >&2\nexit 1\n", "exited with status 1 after 1 of 5 rounds"),
        ("torch_error", "echo 'td-step hello 1'\necho 'td-step error OutOfMemoryError: CUDA out of "
         "memory'\nexit 3\n", "the step failed in torch after 0 of 5 rounds: OutOfMemoryError"),
        ("bad_number", protocol([1.0]).replace("round 0 1.000000", "round 0 fast"),
         "does not speak"),
        ("early_done", protocol([1.0]), "it wrote \"td-step done\" (after 1 of 5 rounds)"),
    ]
    for name, script, want in cases:
        py = venv(d, name, script)
        rc, out, err = run("--workload", "sd3-lora", "--python", py)
        check(rc == 2 and want in err and out == "", f"{name}: exit 2, '{err.strip()[:160]}'")
    py = venv(d, "notorch", "exit 0\n", torch=False)
    rc, out, err = run("--workload", "sd3-lora", "--python", py)
    check(rc == 2 and "no torch" in err, f"no torch: exit 2, '{err.strip()}'")
    rc, out, err = run("--rounds", "3")
    check(rc == 2 and "need --workload" in err, "--rounds without --workload: usage, exit 2")


def on_terminal(py, *args):
    """Runs bench with stderr on a pseudo-terminal; returns what it wrote there."""
    master, slave = pty.openpty()
    p = subprocess.Popen([TD, "bench", *args], stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    got = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:
            break
        if not chunk:
            break
        got += chunk
    p.wait(timeout=60)
    os.close(master)
    return got.decode(errors="replace")


def progress(d):
    long = venv(d, "long", protocol([1.0] * 4))   # reports 0.85 s + 4 x 1 s of work
    short = venv(d, "short", protocol([0.01] * 4))
    tty = on_terminal(long, "--workload", "sd3-lora", "--python", long, "--rounds", "4")
    check("round 2/4" in tty and "round 4/4" in tty and "round 1/4" not in tty,
          f"a bar on the terminal from the round that brings the reported work over 2 s "
          f"(0.85 s + 2 x 1 s): {tty[-80:]!r}")
    tty = on_terminal(short, "--workload", "sd3-lora", "--python", short, "--rounds", "4")
    check("round" not in tty, f"no bar for a run under 2 s: {tty!r}")
    rc, out, err = run("--workload", "sd3-lora", "--python", long, "--rounds", "4")
    check("round" not in err, "no bar when stderr is not a terminal")


def main():
    with tempfile.TemporaryDirectory() as d:
        stats(d)
        gpu(d)
        failures(d)
        progress(d)
        debian(d)
    if FAILS:
        print(f"{len(FAILS)} failed")
        sys.exit(1)
    print("all passed")


main()
