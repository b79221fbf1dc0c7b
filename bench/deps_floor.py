#!/usr/bin/python3
"""What symbol binding of a closure must read at the least, and what only
moving those bytes costs (no binding), beside what moving all the tables
costs. For Debian torch's _C (docs/performance.md, "deps against libtree:
the floor"). Needs python3-torch, gcc; 64-bit little-endian ELF only.
  bench/deps_floor.py [TORCHDOCTOR] [RUNS]

Counted per object of `deps --format json`'s closure (section headers):
the undefined non-weak references, and the candidates: definitions whose
name some reference has (at the least what a binder must check by name:
a GNU hash chain word carries 31 bits of the hash, not the name). Needed
bytes: every hash table whole; the entry, version entry and name of each
reference and candidate. Then bench/deps_floor.c, RUNS times each, takes
the process CPU time of: opening the files; pread of every table range
(what deps reads now); pread of the needed 4 KiB pages only; mapping the
table ranges and touching the needed 64-byte lines only; hashing the
references' names (GNU hash) from memory."""
import json
import os
import statistics
import struct
import subprocess
import sys
import tempfile

PAGE, LINE = 4096, 64


def sections(f):
    f.seek(0)
    h = f.read(64)
    if h[:4] != b"\x7fELF" or h[4] != 2 or h[5] != 1:
        return None
    shoff, = struct.unpack_from("<Q", h, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", h, 0x3A)
    f.seek(shoff)
    raw = f.read(shentsize * shnum)
    secs = []
    for i in range(shnum):
        name, _, _, _, off, size = struct.unpack_from("<IIQQQQ", raw, i * shentsize)
        secs.append((name, off, size))
    f.seek(secs[shstrndx][1])
    names = f.read(secs[shstrndx][2])
    return {names[n:names.index(b"\0", n)].decode(): (off, size) for n, off, size in secs}


def read_object(path):
    with open(path, "rb") as f:
        s = sections(f)
        if not s or ".dynsym" not in s or ".dynstr" not in s:
            return None
        (symoff_f, symsz), (stroff, strsz) = s[".dynsym"], s[".dynstr"]
        f.seek(symoff_f)
        syms = f.read(symsz)
        f.seek(stroff)
        strs = f.read(strsz)
    und, defs = [], []
    for i in range(1, len(syms) // 24):
        st_name, info, _, shndx = struct.unpack_from("<IBBH", syms, i * 24)
        name = strs[st_name:strs.index(b"\0", st_name)]
        if shndx == 0:
            if info >> 4 != 2 and st_name:  # not STB_WEAK
                und.append((i, st_name, name))
        elif name:
            defs.append((i, st_name, name))
    return dict(path=path, s=s, und=und, defs=defs)


def main():
    td = sys.argv[1] if len(sys.argv) > 1 else "build/torchdoctor"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 21
    c = next(os.path.join(d, n) for d in ["/usr/lib/python3/dist-packages/torch"]
             for n in sorted(os.listdir(d)) if n.startswith("_C.cpython-") and n.endswith(".so"))
    deps = json.loads(subprocess.run([td, "deps", "--format", "json", c], capture_output=True,
                                     text=True).stdout)
    paths = [lib["path"] for lib in deps["libraries"] if lib["path"]]
    objs = [o for o in map(read_object, paths) if o]
    refs = set(n for o in objs for _, _, n in o["und"])
    tmp = tempfile.mkdtemp()
    files = {k: open(os.path.join(tmp, k), "w") for k in ("whole", "pages", "lines")}
    total = dict(whole=0, pages=0, lines=0, n_und=0, n_cand=0, name_bytes=0)
    names = bytearray()
    for o in objs:
        s, p = o["s"], o["path"]
        tables = [s[k] for k in (".gnu.hash", ".hash", ".dynsym", ".dynstr", ".gnu.version")
                  if k in s]
        lo = min(off for off, _ in tables)
        hi = max(off + size for off, size in tables)
        files["whole"].write(f"{p} {lo} {hi - lo}\n")
        total["whole"] += hi - lo
        cand = [d for d in o["defs"] if d[2] in refs]
        total["n_und"] += len(o["und"])
        total["n_cand"] += len(cand)
        for _, _, n in o["und"]:
            names += n + b"\0"
        stroff, symoff = s[".dynstr"][0], s[".dynsym"][0]
        veroff = s[".gnu.version"][0] if ".gnu.version" in s else None
        spans = []  # (file offset, length) of every byte binding needs
        for i, st_name, n in o["und"] + cand:
            spans += [(stroff + st_name, len(n) + 1), (symoff + 24 * i, 24)]
            if veroff is not None:
                spans.append((veroff + 2 * i, 2))
        for k in (".gnu.hash", ".hash"):
            if k in s:
                spans.append(s[k])
        pages, lines = set(), set()
        for off, size in spans:
            pages.update(range(off // PAGE, (off + size - 1) // PAGE + 1))
            lines.update(range(off // LINE, (off + size - 1) // LINE + 1))
        total["name_bytes"] += sum(len(n) + 1 for _, _, n in o["und"])
        run = None
        for pg in sorted(pages):
            if run and run[1] == pg:
                run[1] = pg + 1
                continue
            if run:
                files["pages"].write(f"{p} {run[0] * PAGE} {(run[1] - run[0]) * PAGE}\n")
            run = [pg, pg + 1]
        if run:
            files["pages"].write(f"{p} {run[0] * PAGE} {(run[1] - run[0]) * PAGE}\n")
        total["pages"] += len(pages) * PAGE
        total["lines"] += len(lines) * LINE
        files["lines"].write(f"{p} {lo} {hi - lo} {len(lines)} " +
                             " ".join(str(ln * LINE - lo) for ln in sorted(lines)) + "\n")
    for f in files.values():
        f.close()
    with open(os.path.join(tmp, "names"), "wb") as f:
        f.write(names)
    exe = os.path.join(tmp, "floor")
    subprocess.run(["gcc", "-O2", "-o", exe, os.path.join(os.path.dirname(__file__),
                                                          "deps_floor.c")], check=True)
    print(f"closure of {c}: {len(objs)} ELF objects with symbols")
    print(f"  {total['n_und']} undefined non-weak references ({len(refs)} distinct names, "
          f"{total['name_bytes'] / 1e6:.2f} MB of names), {total['n_cand']} candidates by name")
    print(f"  tables (what deps reads now) {total['whole'] / 1e6:.2f} MB; needed: in 4 KiB pages "
          f"{total['pages'] / 1e6:.2f} MB, in 64-byte lines {total['lines'] / 1e6:.2f} MB")

    def cpu(mode, arg):
        out = [float(subprocess.run([exe, mode, os.path.join(tmp, arg)], capture_output=True,
                                    text=True, check=True).stdout.split()[0])
               for _ in range(runs)]
        return statistics.median(out)

    opens = cpu("opens", "whole")
    for label, mode, arg in (("pread of every table range", "pread", "whole"),
                             ("pread of the needed pages", "pread", "pages"),
                             ("map, touch the needed lines", "map", "lines")):
        t = cpu(mode, arg)
        print(f"  {label:30} {t:6.2f} ms CPU ({t - opens:5.2f} beyond opening the files)")
    print(f"  {'opening the files':30} {opens:6.2f} ms CPU")
    print(f"  {'GNU hash of the names':30} {cpu('hash', 'names'):6.2f} ms CPU (from memory)")
    subprocess.run(["rm", "-rf", tmp])


main()
