#!/usr/bin/env python3
"""The house kept true (issue 32; docs/architecture.md, "Layers").

  layers.py includes SRC          every #include "..." of src/ points to a layer at or
                                  below the includer's; no folder holds over 30 .c files
  layers.py cycles BUILD [NM]     no two object files of the static libraries in BUILD
                                  depend on each other through a chain (nm's symbol
                                  tables: each undefined symbol resolved to the object
                                  that defines it)
  layers.py self-test             each check finds what it is for in a planted case

Exit status 0 when clean, 1 with what is wrong on stdout.
"""
import os
import re
import subprocess
import sys
import tempfile

# The one table of layers: a file's layer is that of the longest entry its
# path starts with. A file includes only files of its own layer or below.
# The probes' shared contract (probe.h, probe_util.h, probe.c) sits below
# the top of src/probe/ (check's diagnosis and rules), which combines the
# probes with the tracer.
LAYERS = {
    "src/base/": 0,
    "src/format/": 1,
    "src/loader/": 2,
    "src/graph/": 3,
    "src/kb/": 4,
    "src/kb/explain/": 4,
    "src/probe/probe.h": 5,
    "src/probe/probe_util.h": 5,
    "src/probe/probe.c": 5,
    "src/probe/python/": 5,
    "src/probe/install/": 5,
    "src/probe/gpu/": 5,
    "src/probe/system/": 5,
    "src/trace/": 6,
    "src/bench/": 7,
    "src/probe/": 7,
    "src/snapshot/": 8,
    "src/report/": 9,
    "src/cmd/": 10,
}
MAX_C_FILES = 30  # per folder, its own files (not its subfolders')

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_of(rel):
    best = None
    for prefix, layer in LAYERS.items():
        if rel.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, layer)
    return best[1] if best else None


def check_includes(src_root):
    """Problems in the source tree under SRC_ROOT (holding src/)."""
    problems = []
    counts = {}
    for dirpath, _, files in os.walk(os.path.join(src_root, "src")):
        for name in sorted(files):
            if not name.endswith((".c", ".h")):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, src_root).replace(os.sep, "/")
            if name.endswith(".c"):
                counts[os.path.dirname(rel)] = counts.get(os.path.dirname(rel), 0) + 1
            mine = layer_of(rel)
            if mine is None:
                problems.append(f"{rel}: its folder has no row in the layer table of {__file__}")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            for m in INCLUDE.finditer(text):
                inc = m.group(1)
                # "x/y.h" from src/ (the include path), else beside the file.
                for cand in (os.path.join(src_root, "src", inc), os.path.join(dirpath, inc)):
                    if os.path.isfile(cand):
                        break
                else:
                    continue  # generated (gen/td_data_gen.h) or a system header
                irel = os.path.relpath(os.path.realpath(cand), os.path.realpath(src_root))
                irel = irel.replace(os.sep, "/")
                theirs = layer_of(irel)
                if theirs is not None and theirs > mine:
                    line = text.count("\n", 0, m.start()) + 1
                    problems.append(f"{rel}:{line}: includes {irel}, layer {theirs}, above its "
                                    f"own layer {mine}")
    for folder, n in sorted(counts.items()):
        if n > MAX_C_FILES:
            problems.append(f"{folder}/: {n} .c files of its own, more than {MAX_C_FILES}: "
                            "split it by concern")
    return problems


def read_objects(build, nm):
    """{object: (defined symbols, undefined symbols)} of BUILD's libtd_*.a."""
    objs = {}
    libs = sorted(f for f in os.listdir(build) if f.startswith("libtd_") and f.endswith(".a"))
    for lib in libs:
        out = subprocess.run([nm, "-P", "-A", os.path.join(build, lib)], capture_output=True,
                             text=True, check=True).stdout
        for line in out.splitlines():
            # "libtd_probe.a[torch.c.o]: td_probe_torch T 1a0 2f" (or "a.a:m.o:")
            head, _, rest = line.partition(": ")
            parts = rest.split()
            if len(parts) < 2:
                continue
            m = re.match(r"^.*?libtd_(\w+)\.a[\[:](.+?)\]?$", head)
            if not m:
                continue
            key = f"td_{m.group(1)}:{m.group(2)}"
            sym, kind = parts[0], parts[1]
            d, u = objs.setdefault(key, (set(), set()))
            if kind in ("U", "w", "v"):
                u.add(sym)
            elif kind.isupper():
                d.add(sym)
    return objs


def dependency_edges(objs):
    """{object: {object it needs: [symbols]}}."""
    owner = {}
    for key, (defined, _) in objs.items():
        for sym in defined:
            owner.setdefault(sym, key)
    edges = {}
    for key, (_, undefined) in objs.items():
        for sym in undefined:
            to = owner.get(sym)
            if to and to != key:
                edges.setdefault(key, {}).setdefault(to, []).append(sym)
    return edges


def cycles(edges):
    """The strongly connected components of more than one object (Tarjan)."""
    index, low, stack, on, out = {}, {}, [], set(), []
    counter = [0]
    nodes = set(edges) | {t for e in edges.values() for t in e}

    def visit(v):
        work = [(v, iter(sorted(edges.get(v, {}))))]
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, {})))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def describe(comp, edges):
    lines = [f"a cycle of {len(comp)} object files:"]
    for a in comp:
        for b in sorted(edges.get(a, {})):
            if b in comp:
                syms = sorted(edges[a][b])
                more = f" (+{len(syms) - 3} more)" if len(syms) > 3 else ""
                lines.append(f"  {a} -> {b}: {', '.join(syms[:3])}{more}")
    return "\n".join(lines)


def check_cycles(build, nm="nm"):
    objs = read_objects(build, nm)
    if not objs:
        return None
    edges = dependency_edges(objs)
    return [describe(c, edges) for c in cycles(edges)], len(objs)


def self_test():
    """Each check must catch a planted fault, and pass the planted clean case."""
    failed = []
    with tempfile.TemporaryDirectory() as root:
        for rel, text in {
            "src/base/a.h": "#include <stdio.h>\n",
            "src/format/r.c": '#include "base/a.h"\n#include "format/r.h"\n',
            "src/format/r.h": "",
            "src/cmd/c.c": '#include "probe/probe.h"\n',
            "src/probe/probe.h": "",
            "src/probe/python/p.c": '#include "probe/probe.h"\n',
        }.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w") as f:
                f.write(text)
        if check_includes(root):
            failed.append("a clean planted tree is reported: " + "; ".join(check_includes(root)))
        with open(os.path.join(root, "src/base/a.h"), "a") as f:
            f.write('#include "cmd/c.h"\n')
        open(os.path.join(root, "src/cmd/c.h"), "w").close()
        with open(os.path.join(root, "src/probe/python/p.c"), "a") as f:
            f.write('#include "probe/diagnose.h"\n')
        open(os.path.join(root, "src/probe/diagnose.h"), "w").close()
        found = check_includes(root)
        if not any("src/base/a.h:2: includes src/cmd/c.h" in p for p in found):
            failed.append("base including cmd/ is not found")
        if not any("src/probe/python/p.c:2: includes src/probe/diagnose.h" in p for p in found):
            failed.append("a probe including the top of src/probe/ is not found")
        for i in range(MAX_C_FILES + 1):
            open(os.path.join(root, f"src/format/f{i}.c"), "w").close()
        if not any(p.startswith("src/format/: 32 .c files") for p in check_includes(root)):
            failed.append("a folder of more than 30 .c files is not found")
    chain = {"a.o": {"b.o": ["f"]}, "b.o": {"c.o": ["g"]}, "c.o": {"a.o": ["h"]},
             "d.o": {"a.o": ["f"]}}
    if cycles(chain) != [["a.o", "b.o", "c.o"]]:
        failed.append(f"the chain a -> b -> c -> a is not found: {cycles(chain)}")
    if cycles({"a.o": {"b.o": ["f"]}, "b.o": {"c.o": ["g"]}}):
        failed.append("a chain without a cycle is reported")
    objs = {"x.o": ({"f"}, {"g"}), "y.o": ({"g"}, {"f", "printf"})}
    if cycles(dependency_edges(objs)) != [["x.o", "y.o"]]:
        failed.append("two objects needing each other's symbols are not found")
    return failed


def main(argv):
    if len(argv) >= 2 and argv[1] == "includes":
        problems = check_includes(argv[2])
        for p in problems:
            print(p)
        return 1 if problems else 0
    if len(argv) >= 2 and argv[1] == "cycles":
        got = check_cycles(argv[2], argv[3] if len(argv) > 3 else "nm")
        if got is None:
            print(f"skipped: no libtd_*.a in {argv[2]}")
            return 0
        found, n = got
        for c in found:
            print(c)
        if not found:
            print(f"{n} object files, no dependency cycle")
        return 1 if found else 0
    if len(argv) >= 2 and argv[1] == "self-test":
        failed = self_test()
        for f in failed:
            print("self-test:", f)
        return 1 if failed else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
