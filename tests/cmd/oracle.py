#!/usr/bin/python3
"""Differential test of `torchdoctor inspect --format json` against the
binutils / LLVM readers on every real binary of a kind on this machine.

  oracle.py elf DIR...   every ELF shared object: readelf -W -h -d --dyn-syms
  oracle.py pe DIR...    every PE DLL: llvm-readobj --file-headers --coff-imports --coff-exports
  oracle.py elfsyms DIR...  the largest ELF shared objects: inspect --symbols's list against
                         readelf -W --dyn-syms, symbol by symbol

Compared per file: machine, file type (ELF: a shared library or a program,
as readelf's Type: line says), NEEDED/imports (in order), SONAME, RPATH,
RUNPATH, defined and undefined dynamic symbol counts (PE: exports and
imported functions); with elfsyms, each listed symbol's name, type,
binding, section (defined or not) and version (@ hidden or a reference,
@@ the default) in order. Any disagreement is printed and fails the test."""
import json
import os
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

TD = os.environ.get("TD_BIN", "build/torchdoctor")
BATCH = 60


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                       errors="replace")
    return p.returncode, p.stdout


def td_inspect(paths):
    rc, out = run([TD, "inspect", "--format", "json"] + paths)
    doc = json.loads(out)
    return {f["path"]: f for f in doc["files"]}, rc


def elf_files(dirs):
    for d in dirs:
        for name in sorted(os.listdir(d)):
            p = os.path.join(d, name)
            if ".so" not in name or os.path.islink(p) or not os.path.isfile(p):
                continue
            with open(p, "rb") as f:
                if f.read(4) == b"\x7fELF":
                    yield p


# readelf -h's Type: line (binutils 2.40: a DF_1_PIE object is a
# "Position-Independent Executable file") in inspect's words.
READELF_TYPES = {"DYN (Shared object file)": "shared library",
                 "DYN (Position-Independent Executable file)": "position-independent executable",
                 "EXEC (Executable file)": "executable"}


def parse_readelf(text):
    files, cur, in_syms = {}, None, False
    for line in text.splitlines():
        if line.startswith("File: "):
            cur = {"needed": [], "soname": None, "rpath": None, "runpath": None,
                   "machine": None, "type": None, "defined": 0, "undefined": 0, "nsyms": None}
            files[line[6:].strip()] = cur
            in_syms = False
            continue
        if cur is None:
            continue
        m = re.match(r"\s+Machine:\s+(.*)$", line)
        if m:
            cur["machine"] = m.group(1).strip()
        m = re.match(r"\s+Type:\s+(.*)$", line)
        if m:
            cur["type"] = READELF_TYPES.get(m.group(1).strip(), m.group(1).strip())
        m = re.search(r"\((NEEDED|SONAME|RPATH|RUNPATH)\)\s+\S.*?: \[(.*)\]$", line)
        if m:
            tag, val = m.group(1), m.group(2)
            if tag == "NEEDED":
                cur["needed"].append(val)
            else:
                cur[tag.lower()] = val
        m = re.match(r"Symbol table '\.dynsym' contains (\d+) entr", line)
        if m:
            cur["nsyms"] = int(m.group(1))
            in_syms = True
            continue
        if in_syms:
            f = line.split()
            if len(f) >= 7 and f[0].endswith(":") and f[0][:-1].isdigit():
                if f[0] == "0:":
                    continue
                if f[6] == "UND":
                    cur["undefined"] += 1
                else:
                    cur["defined"] += 1
    return files


def check_elf(dirs):
    paths = list(elf_files(dirs))
    bad = 0
    batches = [paths[i:i + BATCH] for i in range(0, len(paths), BATCH)]

    def both(batch):
        _, ref_text = run(["readelf", "-W", "-h", "-d", "--dyn-syms"] + batch)
        return batch, parse_readelf(ref_text), td_inspect(batch)[0]

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(both, batches))
    for batch, ref, got in results:
        for p in batch:
            r, g = ref.get(p), got.get(p)
            if r is None or g is None:
                print(f"{p}: missing from {'readelf' if r is None else 'torchdoctor'}")
                bad += 1
                continue
            problems = []
            if g.get("error"):
                problems.append(f"torchdoctor error: {g['error']}")
            else:
                deps = [d["name"] for d in g["dependencies"]]
                if deps != r["needed"]:
                    problems.append(f"NEEDED {deps} != readelf {r['needed']}")
                if g["name"] != r["soname"]:
                    problems.append(f"SONAME {g['name']} != readelf {r['soname']}")
                for k in ("rpath", "runpath"):
                    mine = ":".join(g[k]) if g[k] else None
                    if mine != r[k]:
                        problems.append(f"{k} {mine} != readelf {r[k]}")
                if g["machine"] != r["machine"]:
                    problems.append(f"machine {g['machine']!r} != readelf {r['machine']!r}")
                if g["type"] != r["type"]:
                    problems.append(f"type {g['type']!r} != readelf {r['type']!r}")
                s = g["symbols"]
                if (s["defined"], s["undefined"]) != (r["defined"], r["undefined"]):
                    problems.append(f"symbols {s['defined']}/{s['undefined']} != readelf "
                                    f"{r['defined']}/{r['undefined']} (defined/undefined)")
            if problems:
                bad += 1
                print(f"{p}:\n  " + "\n  ".join(problems))
    print(f"elf oracle: {len(paths)} files compared with readelf, {bad} disagreements")
    return bad == 0 and len(paths) > 0


def parse_readobj(text):
    files, cur, block = {}, None, None
    for line in text.splitlines():
        s = line.strip()
        if line.startswith("File: "):
            cur = {"machine": None, "imports": [], "delay": [], "exports": 0}
            files[line[6:].strip()] = cur
            continue
        if cur is None:
            continue
        m = re.match(r"Machine: \S+ \((0x[0-9A-Fa-f]+)\)", s)
        if m and cur["machine"] is None:
            cur["machine"] = int(m.group(1), 16)
        if s == "Import {":
            block = ["import", None, 0]
        elif s == "DelayImport {":
            block = ["delay", None, 0]
        elif s == "Export {":
            block = None
        elif s.startswith("RVA: ") and block is None and s != "RVA: 0x0":
            cur["exports"] += 1  # llvm-readobj also lists unused slots (RVA 0)
        elif s == "}" and block:
            cur["imports" if block[0] == "import" else "delay"].append((block[1], block[2]))
            block = None
        elif block and s.startswith("Name: ") and block[1] is None:
            block[1] = s[6:]
        elif block and s.startswith("Symbol:"):
            block[2] += 1
    return files


def check_pe(dirs):
    paths = []
    for d in dirs:
        paths += sorted(os.path.join(d, n) for n in os.listdir(d) if n.lower().endswith(".dll"))
    bad = 0
    unreadable = []
    for i in range(0, len(paths), BATCH):
        batch = paths[i:i + BATCH]
        rc, ref_text = run(["llvm-readobj-14", "--file-headers", "--coff-imports",
                            "--coff-exports"] + batch)
        ref = parse_readobj(ref_text)
        for p in batch:
            if rc != 0:  # llvm-readobj stops a batch at a file it cannot parse
                ref.pop(p, None)
                rc1, one = run(["llvm-readobj-14", "--file-headers", "--coff-imports",
                               "--coff-exports", p])
                if rc1 == 0:
                    ref.update(parse_readobj(one))
                else:
                    unreadable.append(p)
        got, _ = td_inspect(batch)
        for p in batch:
            r, g = ref.get(p), got.get(p)
            if r is None and p in unreadable and g is not None:
                continue
            if r is None or g is None:
                print(f"{p}: missing from {'llvm-readobj' if r is None else 'torchdoctor'}")
                bad += 1
                continue
            problems = []
            if g.get("error"):
                problems.append(f"torchdoctor error: {g['error']}")
            else:
                imports = [(d["name"], d["functions"]) for d in g["dependencies"]
                           if d["kind"] == "import"]
                delay = [(d["name"], d["functions"]) for d in g["dependencies"]
                         if d["kind"] == "delay"]
                if imports != r["imports"]:
                    problems.append(f"imports {imports} != llvm-readobj {r['imports']}")
                if delay != r["delay"]:
                    problems.append(f"delay imports {delay} != llvm-readobj {r['delay']}")
                if int(g["pe"]["machine"], 16) != r["machine"]:
                    problems.append(f"machine {g['pe']['machine']} != llvm-readobj {r['machine']:#x}")
                if g["symbols"]["defined"] != r["exports"]:
                    problems.append(f"exports {g['symbols']['defined']} != llvm-readobj "
                                    f"{r['exports']}")
                want_undef = sum(n for _, n in r["imports"] + r["delay"])
                if g["symbols"]["undefined"] != want_undef:
                    problems.append(f"imported functions {g['symbols']['undefined']} != "
                                    f"llvm-readobj {want_undef}")
            if problems:
                bad += 1
                print(f"{p}:\n  " + "\n  ".join(problems))
    print(f"pe oracle: {len(paths) - len(unreadable)} files compared with llvm-readobj, "
          f"{bad} disagreements; {len(unreadable)} that llvm-readobj cannot parse: "
          + " ".join(os.path.basename(p) for p in unreadable))
    return bad == 0 and len(paths) > 0


# readelf -W --dyn-syms: "  12: 0000000000001139    11 FUNC    GLOBAL DEFAULT   14 name@@VER";
# a reference's version carries its index: "free@GLIBC_2.2.5 (2)".
DYNSYM_LINE = re.compile(r"\s*(\d+): [0-9a-f]+\s+\S+\s+(\S+)\s+(\S+)\s+\S+\s+(\S+)\s+(\S+?)"
                         r"(?:(@@?)(\S+))?(?: \(\d+\))?$")


def readelf_symbols(path):
    _, text = run(["readelf", "-W", "--dyn-syms", path])
    rows = {}
    for line in text.splitlines():
        m = DYNSYM_LINE.match(line)
        if m and m.group(1) != "0":
            typ, bind, ndx, name, mark, ver = m.group(2, 3, 4, 5, 6, 7)
            rows[int(m.group(1))] = (name, typ, bind, ndx, mark, ver)
    return [rows[i] for i in sorted(rows)]


def check_elf_symbols(dirs, count=6):
    paths = sorted(elf_files(dirs), key=os.path.getsize)[-count:]
    bad = 0
    for p in paths:
        rc, out = run([TD, "inspect", "--symbols", "--format", "json", p])
        listed = json.loads(out)["files"][0].get("symbol_list", [])
        ref = readelf_symbols(p)
        problems = [] if len(listed) == len(ref) else [f"{len(listed)} symbols, readelf {len(ref)}"]
        for i, (g, r) in enumerate(zip(listed, ref)):
            name, typ, bind, ndx, mark, ver = r
            defined = ndx != "UND"
            hidden = mark == "@" and defined
            if ndx == "ABS" and not mark and g.get("version") == name:
                ver = name  # a version's own symbol: readelf and nm leave its version out
            mine = (g["name"], g["type"], g["bind"], g["defined"], g.get("version"),
                    g.get("version_hidden", False))
            want = (name, typ, bind, defined, ver, hidden)
            if mine != want:
                problems.append(f"symbol {i + 1}: {mine} != readelf {want}")
            if len(problems) > 5:
                break
        if problems:
            bad += 1
            print(f"{p}:\n  " + "\n  ".join(problems))
        else:
            print(f"{os.path.basename(p)}: {len(listed)} symbols agree")
    return bad == 0 and len(paths) > 0


if __name__ == "__main__":
    kind, dirs = sys.argv[1], sys.argv[2:]
    ok = {"elf": check_elf, "pe": check_pe, "elfsyms": check_elf_symbols}[kind](dirs)
    sys.exit(0 if ok else 1)
