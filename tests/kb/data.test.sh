#!/usr/bin/env bash
# Every knowledge table in data/ follows docs/data.md: a header row, the same
# number of cells in every row, a last column named source that is never
# empty, and the per-table invariants checked below.
set -euo pipefail
exec /usr/bin/python3 - "$TD_SRC/data" <<'P'
import csv, os, re, sys
d = sys.argv[1]
bad, rows_total, tables = 0, 0, {}
for name in sorted(os.listdir(d)):
    if not name.endswith(".tsv"):
        continue
    lines = [l.rstrip("\n") for l in open(os.path.join(d, name), encoding="utf-8")]
    body = [l for l in lines if l and not l.startswith("#")]
    header, rows = body[0].split("\t"), [l.split("\t") for l in body[1:]]
    tables[name] = (header, rows)
    if header[-1] != "source":
        print(f"{name}: last column is {header[-1]!r}, not 'source'"); bad += 1
    for i, r in enumerate(rows, 2):
        if len(r) != len(header):
            print(f"{name} row {i}: {len(r)} cells, header has {len(header)}"); bad += 1
        elif not r[-1].strip() or r[-1].strip() == "-":
            print(f"{name} row {i}: no source"); bad += 1
    rows_total += len(rows)

# errors.tsv: unique ids, and each regex pattern matches its own example.
h, rows = tables["errors.tsv"]
ids = [r[h.index("id")] for r in rows]
dups = {i for i in ids if ids.count(i) > 1}
if dups:
    print("errors.tsv: duplicate ids", dups); bad += 1
if len(rows) < 60:
    print("errors.tsv: fewer than 60 entries"); bad += 1

# error_raisers.tsv: rows are tried lowest order first, so two rows of one
# order would leave their turn to the sort: every order is a distinct integer.
h, rows = tables["error_raisers.tsv"]
orders = [r[h.index("order")] for r in rows]
for o in sorted({o for o in orders if orders.count(o) > 1 or not o.isdigit()}):
    print(f"error_raisers.tsv: order {o!r} is not one distinct integer"); bad += 1

# cuda_driver_minimums.tsv: driver floors never go down as the toolkit goes up.
h, rows = tables["cuda_driver_minimums.tsv"]
def ver(s):
    return tuple(int(x) for x in re.findall(r"\d+", s))
lin = [(ver(r[h.index("cuda")]), ver(r[h.index("linux_min")])) for r in rows]
for (c1, d1), (c2, d2) in zip(sorted(lin), sorted(lin)[1:]):
    if d2 < d1:
        print(f"cuda_driver_minimums.tsv: CUDA {c2} needs {d2} < {d1} of CUDA {c1}"); bad += 1
# workloads.tsv: unique slugs, numbers or "-" in the number columns, every
# row with at least a VRAM figure, and the slugs DESIGN.md names where sourced.
h, rows = tables["workloads.tsv"]
slugs = [r[h.index("slug")] for r in rows]
if len(set(slugs)) != len(slugs):
    print("workloads.tsv: duplicate slugs"); bad += 1
for r in rows:
    for col in ("vram_min_gb", "vram_rec_gb", "ram_min_gb", "disk_gb"):
        v = r[h.index(col)]
        if v != "-" and not re.fullmatch(r"\d+(\.\d+)?", v):
            print(f"workloads.tsv {r[0]}: {col} {v!r} is not a number"); bad += 1
    if r[h.index("vram_min_gb")] == "-":
        print(f"workloads.tsv {r[0]}: no VRAM figure"); bad += 1
for slug in ("flux-lora", "sdxl-lora"):
    if slug not in slugs:
        print(f"workloads.tsv: no {slug}"); bad += 1

# env_vars.tsv: known rule kinds, os and severity words, and the arguments
# each rule kind needs.
h, rows = tables["env_vars.tsv"]
kinds = {"alloc_conf", "device_list", "positive_int_list", "os_only", "discouraged",
         "path_cuda_version", "arch_list"}
for r in rows:
    name, rule, arg = r[h.index("name")], r[h.index("rule")], r[h.index("arg")]
    if rule not in kinds:
        print(f"env_vars.tsv {name}: unknown rule {rule!r}"); bad += 1
    if r[h.index("os")] not in ("any", "linux", "windows", "macos"):
        print(f"env_vars.tsv {name}: bad os"); bad += 1
    if r[h.index("severity")] not in ("error", "warning", "info"):
        print(f"env_vars.tsv {name}: bad severity"); bad += 1
    if rule == "alloc_conf" and not all("=" in kv for kv in arg.split(";")):
        print(f"env_vars.tsv {name}: alloc_conf arg must be key=type;..."); bad += 1
    if rule == "path_cuda_version" and arg not in ("major", "minor"):
        print(f"env_vars.tsv {name}: path_cuda_version arg must be major or minor"); bad += 1
    if rule == "arch_list" and "/" not in arg:
        print(f"env_vars.tsv {name}: arch_list arg must be NAMES/ARCHES"); bad += 1
# change_impacts.tsv: every finding kind is one of src/base/finding.h's, match and
# otherwise take their few values, and each area has a catch-all "*" row after
# its specific ones (the first matching row wins).
h, rows = tables["change_impacts.tsv"]
src = os.path.join(os.path.dirname(d), "src", "base", "finding.h")
vocab = set(re.findall(r'#define TD_KIND_[A-Z0-9_]+ "([a-z0-9_]+)"', open(src).read()))
seen_any = set()
for r in rows:
    area, item = r[h.index("area")], r[h.index("item")]
    for k in r[h.index("finding_kinds")].split(";"):
        if k not in vocab:
            print(f"change_impacts.tsv {area} {item}: unknown finding kind {k!r}"); bad += 1
    if r[h.index("match")] not in ("any", "item") or r[h.index("otherwise")] not in ("risky", "neutral"):
        print(f"change_impacts.tsv {area} {item}: bad match/otherwise"); bad += 1
    if area in seen_any:
        print(f"change_impacts.tsv {area} {item}: after the area's '*' row, never matched"); bad += 1
    if item == "*":
        seen_any.add(area)
print(f"data: {len(tables)} tables, {rows_total} rows, {bad} problems")
sys.exit(1 if bad else 0)
P
