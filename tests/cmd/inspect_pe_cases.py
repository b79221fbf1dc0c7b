"""`torchdoctor inspect` of a PE's CodeView record against objdump -p, whose
"RSDS signature" is the GUID in its usual order (Data1, Data2 and Data3
little-endian, as dumpbin /headers and a symbol server's key write it),
not the record's bytes. Material: a DLL mingw-w64 links with --build-id
(an RSDS record without a PDB name), and the real MSVC DLL of the pinned
npm package when wheel_cases.py has cached it (else skipped)."""
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish, td_json  # noqa: E402

T = tempfile.mkdtemp(prefix="td-inspect-pe-")


def objdump_rsds(path):
    """(signature, age, pdb name or None) from objdump -p, or None."""
    out = subprocess.run(["objdump", "-p", path], capture_output=True, text=True).stdout
    m = re.search(r"format RSDS signature ([0-9a-f]{32}) age (\d+)(?: pdb (.*))?\)$", out, re.M)
    if not m:
        return None
    pdb = m.group(3)
    return m.group(1), int(m.group(2)), None if pdb in (None, "(none)") else pdb


def compare(path, what):
    ref = objdump_rsds(path)
    check(ref is not None, f"{what}: objdump -p shows an RSDS record")
    if ref is None:
        return
    _, doc = td_json("inspect", path, schema=True, what=what)
    f = doc["files"][0]
    want = f"{ref[0]}-{ref[1]}"
    check(f["build_id"] == want, f"{what}: build_id {f['build_id']!r} == objdump's GUID-age {want!r}")
    text = subprocess.run([TD, "inspect", "--color", "never", path], capture_output=True, text=True).stdout
    pdb_lines = [line.split(None, 1) for line in text.splitlines()
                 if line.split()[:1] == ["pdb"] and line.split()[1:2] != ["guid"]]
    if ref[2] is None:
        check(not pdb_lines, f"{what}: no PDB name, no 'pdb' line: {pdb_lines}")
    else:
        check([p[1:] for p in pdb_lines] == [[ref[2]]], f"{what}: pdb {pdb_lines} == objdump's {ref[2]!r}")


if shutil.which("x86_64-w64-mingw32-gcc") and shutil.which("objdump"):
    src = os.path.join(T, "g.c")
    with open(src, "w") as f:
        f.write("__declspec(dllexport) int f(void) { return 1; }\n")
    dll = os.path.join(T, "g.dll")
    p = subprocess.run(["x86_64-w64-mingw32-gcc", "-shared", "-o", dll, src, "-Wl,--build-id"],
                       capture_output=True, text=True)
    if p.returncode == 0:
        compare(dll, "mingw DLL with --build-id")
    else:
        print("skipped: mingw DLL with --build-id (the link failed:", p.stderr[-200:], ")")
else:
    print("skipped: mingw DLL with --build-id (no x86_64-w64-mingw32-gcc or objdump)")

tgz = os.path.join(os.environ.get("TD_BUILD", ""), "npm-cache", "node-rs-crc32-win32-x64-msvc-1.10.6.tgz")
if os.path.exists(tgz):
    with tarfile.open(tgz) as t:
        data = t.extractfile("package/crc32.win32-x64-msvc.node").read()
    msvc = os.path.join(T, "crc32.dll")
    with open(msvc, "wb") as f:
        f.write(data)
    compare(msvc, "MSVC DLL (npm @node-rs/crc32-win32-x64-msvc)")
else:
    print("skipped: the real MSVC DLL (not in", os.path.dirname(tgz), "; wheel_cases.py fetches it)")

shutil.rmtree(T, ignore_errors=True)
finish("inspect pe")
