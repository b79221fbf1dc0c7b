"""Checks `torchdoctor compat` against the rows of the knowledge tables,
read here independently of the C code (docs/compat.md)."""
import json
import os
import re
import subprocess
import sys

import jsonschema

BIN = os.environ["TD_BIN"]
SRC = os.environ["TD_SRC"]
schema = json.load(open(os.path.join(SRC, "schema", "report.schema.json")))
schema.pop("$id", None)
# What jsonschema.validate(doc, schema) does, with the schema checked against
# its metaschema and the validator built once, not on every call (0.36 s
# each: most of this script's time when it did so for every answer).
VALIDATOR = jsonschema.validators.validator_for(schema)
VALIDATOR.check_schema(schema)
VALIDATOR = VALIDATOR(schema)
checks = failures = 0


def table(name):
    rows, header = [], None
    for line in open(os.path.join(SRC, "data", name + ".tsv"), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if header is None:
            header = cells
        else:
            rows.append(dict(zip(header, cells)))
    return rows


def ver(s):
    return tuple(int(x) for x in re.findall(r"\d+", s))


def strip(spec):
    return spec.lstrip("<>=")


def run(*args):
    p = subprocess.run([BIN, "compat", *args], capture_output=True, text=True)
    doc = None
    if "--format" in args and p.returncode in (0, 1):
        doc = json.loads(p.stdout)
        error = jsonschema.exceptions.best_match(VALIDATOR.iter_errors(doc))
        if error is not None:
            raise error
    return p.returncode, doc, p.stderr


def expect(cond, what):
    global checks, failures
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


J = ("--format", "json")

# 1. Every published (torch, CUDA) build is listed with its index, exit 0.
for r in table("torch_cuda_builds"):
    rc, d, _ = run("--torch", r["torch"], "--cuda", r["cuda"], *J)
    urls = [b["index_url"] for b in d["builds"]] if d else []
    expect(rc == 0 and urls == [r["index_url"]],
           f"torch {r['torch']} cu {r['cuda']}: rc {rc}, builds {urls}")
    if d and d["builds"]:
        b = d["builds"][0]
        expect(b["status"] == r["status"], f"{r['torch']}/{r['cuda']} status {b['status']}")
        expect(r["index_url"] in b["pip"] and f"torch=={r['torch']}.*" in b["pip"],
               f"{r['torch']}/{r['cuda']} pip {b['pip']}")

# 2. The full-feature driver of each CUDA series: the newest minimum of its rows.
series = {}
for r in table("cuda_driver_minimums"):
    xy = ".".join(r["cuda"].split(".")[:2])
    for os_name, col in (("linux", "linux_min"), ("windows", "windows_min")):
        if r[col] != "-":
            cur = series.get((xy, os_name))
            if cur is None or ver(strip(r[col])) > ver(cur):
                series[(xy, os_name)] = strip(r[col])
for (xy, os_name), want in sorted(series.items()):
    if ver(xy) < (11,):
        continue
    rc, d, _ = run("--cuda", xy, "--os", os_name, *J)
    got = d["answers"]["cuda_min_driver"] if d else None
    expect(got == want, f"CUDA {xy} {os_name}: min driver {got}, table {want}")

# 3. Minor-version compatibility floors decide cuda_driver_too_old (torch 2.5 cu124, Linux).
floor12 = strip([r for r in table("cuda_minor_compat") if r["cuda_major"] == "12"][0]["linux_min"])
below = ".".join(str(x) for x in ver(floor12)[:2]) + "." + str(ver(floor12)[2] - 1)
rc, d, _ = run("--torch", "2.5", "--cuda", "12.4", "--driver", below, *J)
expect(rc == 1 and d["findings"][0]["kind"] == "cuda_driver_too_old"
       and floor12 in d["findings"][0]["fix"], f"driver {below} under the 12.x floor: rc {rc}")
rc, d, _ = run("--torch", "2.5", "--cuda", "12.4", "--driver", floor12, *J)
expect(rc == 0 and d["builds"][0]["driver_support"] == "minor-compat"
       and d["findings"][0]["kind"] == "cuda_driver_too_old"
       and d["findings"][0]["severity"] == "warning", f"driver {floor12} at the floor: rc {rc}")
rc, d, _ = run("--torch", "2.5", "--cuda", "12.4", "--driver", floor12, "--strict-driver", *J)
expect(rc == 1, f"--strict-driver at the floor: rc {rc}")
full124 = series[("12.4", "linux")]
rc, d, _ = run("--torch", "2.5", "--cuda", "12.4", "--driver", full124, *J)
expect(rc == 0 and d["builds"][0]["driver_support"] == "full" and not d["findings"],
       f"driver {full124}: full support")

# 4. GPUs: compute capability by name, and whether 2.14 cu12.6 / cu13.0 (Linux) run them.
archs = {(r["torch"], r["cuda"], r["platform"]): r for r in table("torch_cuda_arch_list")}
gpus = table("gpu_compute_capability")
bare = [re.sub(r"^NVIDIA ", "", g["name"]) for g in gpus]


def runs(cc, row):
    major, minor = ver(cc)
    for a in row["arches"].split(";"):
        am, an = ver(a)
        if am == major and an <= minor:
            return True
    if row["ptx"] != "-":
        return ver(row["ptx"]) <= ver(cc)
    return False


seen = 0
for g, b in zip(gpus, bare):
    if bare.count(b) > 1:
        continue
    for cuda in ("12.6", "13.0"):
        row = archs[("2.14", cuda, "linux_x86_64")]
        rc, d, _ = run("--gpu", g["name"], "--torch", "2.14", "--cuda", cuda, *J)
        cc = d["query"]["compute_capability"] if d else None
        expect(cc == g["compute_capability"], f"{g['name']}: cc {cc}, table {g['compute_capability']}")
        want = runs(g["compute_capability"], row)
        expect((rc == 0) == want and bool(d and d["builds"]) == want,
               f"{g['name']} on 2.14 cu{cuda}: rc {rc}, table says runs={want}")
        if not want and d:
            expect(d["findings"][0]["kind"] == "gpu_arch_unsupported", f"{g['name']}: kind")
    seen += 1
expect(seen > 100, f"only {seen} GPU rows checked")

# 5. Python range edges of every release (that has CUDA builds to list).
builds = table("torch_cuda_builds")
for r in table("torch_releases"):
    lo, hi, exp = strip(r["python_min"]), strip(r["python_max"]), r["python_experimental"]
    above = f"{ver(hi)[0]}.{ver(hi)[1] + 1}"
    below = f"{ver(lo)[0]}.{ver(lo)[1] - 1}"
    for py, ok in ((lo, True), (hi, True), (above, above == exp), (below, False)):
        rc, d, _ = run("--torch", r["torch"], "--python", py, *J)
        has_build = any(x["torch"] == r["torch"] for x in builds)
        if not has_build:
            continue
        expect((rc == 0) == ok, f"torch {r['torch']} python {py}: rc {rc}, want ok={ok}")
        if not ok and d:
            expect(d["findings"][0]["kind"] == "python_version_unsupported",
                   f"torch {r['torch']} python {py}: kind {d['findings'][0]['kind']}")

# 6. Usage errors exit 2, with nothing on stdout.
for args in (("--os", "macos"), ("--torch", "9.9"), ("--gpu", "Voodoo 3"), ("--format", "xml"),
             ("--driver", "new"), ("--bogus",), ("--cuda", "twelve")):
    rc, _, err = run(*args)
    expect(rc == 2 and err.startswith("torchdoctor compat:"), f"{args}: rc {rc}")

print(f"compat: {checks} checks, {failures} failures")
sys.exit(1 if failures else 0)
