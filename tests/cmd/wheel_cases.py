"""`torchdoctor wheel`, end to end. Every wheel is built here, at test time:
extension modules compiled with gcc (against this machine's glibc 2.36),
mingw-w64 (x86_64 and i686) and clang (an ARM64 PE; Mach-O with
-platform_version through ld64.lld-14), nvcc for a fat binary, and the real
libgomp and CUDA runtime repacked. Each broken wheel is broken in exactly
one known way, and its warning/error findings must be exactly that one
(kind, file, and the symbol or library named); a correct wheel of each
platform must get none. Tag splitting is checked against python3-packaging
(packaging.tags.parse_tag / packaging.utils.parse_wheel_filename)."""
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, finish, td_json  # noqa: E402

T = tempfile.mkdtemp(prefix="td-wheel-")
CUDA = "/usr/local/cuda"


def run(*cmd, cwd=None):
    # TMPDIR=T: dlltool (binutils 2.40) leaves two empty temporary files
    # behind each time it runs; T is removed at the end
    p = subprocess.run(cmd, cwd=cwd or T, capture_output=True, text=True,
                       env=dict(os.environ, TMPDIR=T))
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)}: {p.stderr[-800:]}")


def have(tool):
    return shutil.which(tool) is not None


def src(name, text):
    path = os.path.join(T, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def gcc_so(out, code, *flags, cc="gcc"):
    run(cc, "-O2", "-shared", "-fPIC", "-o", os.path.join(T, out), src(out + ".c", code), *flags)
    return os.path.join(T, out)


def record_hash(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def wheel(filename, members, requires=(), record=True, tamper=None, extra=None,
          method=zipfile.ZIP_DEFLATED):
    """Writes dist/FILENAME: MEMBERS {name: bytes or a path}, METADATA with
    REQUIRES, WHEEL, RECORD (TAMPER: a member whose bytes change after RECORD
    is written; EXTRA: members added after, so RECORD lacks them)."""
    name, version = filename.split("-")[:2]
    tag = "-".join(filename[:-4].split("-")[-3:])
    files = {k: (open(v, "rb").read() if isinstance(v, str) else v) for k, v in members.items()}
    di = f"{name}-{version}.dist-info/"
    meta = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"
    meta += "".join(f"Requires-Dist: {r}\n" for r in requires)
    files[di + "METADATA"] = (meta + "\n").encode()
    files[di + "WHEEL"] = f"Wheel-Version: 1.0\nGenerator: td-test\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()
    if record:
        rows = "".join(f"{k},{record_hash(v)},{len(v)}\n" for k, v in files.items())
        files[di + "RECORD"] = (rows + di + "RECORD,,\n").encode()
    if tamper:  # one byte flipped: the size stays, the hash does not
        files[tamper] = bytes([files[tamper][0] ^ 0x20]) + files[tamper][1:]
    files.update(extra or {})
    os.makedirs(os.path.join(T, "dist"), exist_ok=True)
    path = os.path.join(T, "dist", filename)
    with zipfile.ZipFile(path, "w", method) as z:
        for k, v in files.items():
            z.writestr(k, v)
    return path


def verdict(path, *args):
    rc, doc = td_json("wheel", path, *args, schema=True, what=os.path.basename(path))
    serious = [f for f in doc["findings"] if f["severity"] in ("error", "warning")]
    return rc, doc, serious


def expect_none(path, what):
    rc, doc, serious = verdict(path)
    check(rc == 0 and not serious,
          f"{what}: a correct wheel gets no warning or error: exit {rc}, "
          f"{[(f['kind'], f['detail']) for f in serious]}")
    return doc


def expect_program_in_any(path, what, programs):
    """No warning or error, and one info naming each of PROGRAMS (native
    programs, not libraries, in a wheel tagged 'any')."""
    doc = expect_none(path, what)
    infos = [f["needed_by"] for f in doc["findings"]
             if f["severity"] == "info" and f["kind"] == "wrong_architecture"]
    check(all(any(p in (n or "") for n in infos) for p in programs) and len(infos) == len(programs),
          f"{what}: one info per program {programs}: {infos}")


def expect_one(path, what, kind, member, needle, severity="error"):
    """Exactly one warning/error finding, of KIND, naming MEMBER, with NEEDLE
    in its symbol, library or detail; exit 1 for an error, 0 otherwise."""
    rc, doc, serious = verdict(path)
    got = [(f["kind"], f["severity"], f["library"], f["symbol"], f["detail"]) for f in serious]
    ok = (len(serious) == 1 and serious[0]["kind"] == kind and serious[0]["severity"] == severity
          and member in (serious[0]["needed_by"] or "")
          and needle in " ".join(str(serious[0][k]) for k in ("symbol", "library", "detail")))
    check(ok, f"{what}: expected one {severity} {kind} naming {member} and {needle!r}; got {got}")
    check(rc == (1 if severity == "error" else 0), f"{what}: exit {rc}")
    return doc


PY_EXT = """
typedef struct _object PyObject;
extern PyObject *PyModule_Create2(void *, int);
PyObject *PyInit__C(void) { return PyModule_Create2(0, 1013); }
"""
EXT = "pkg/_C.cpython-311-x86_64-linux-gnu.so"


def linux_cases():
    good = gcc_so("good.so", PY_EXT + "int twice(int x) { return 2 * x; }\n")
    doc = expect_none(wheel("good-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                            {EXT: good, "pkg/__init__.py": b"from ._C import *\n"}), "linux good")
    b = doc["wheels"][0]["binaries"]
    check(len(b) == 1 and b[0]["arches"] == ["x86_64"] and b[0]["extension"], f"linux good binaries: {b}")

    # glibc 2.34 moved pthread_create into libc under GLIBC_2.34.
    new = gcc_so("new.so", PY_EXT + """
#include <pthread.h>
static void *run(void *p) { return p; }
int spawn(void) { pthread_t t; return pthread_create(&t, 0, run, 0); }
""")
    expect_one(wheel("glibc-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {EXT: new}),
               "GLIBC_2.34 under manylinux_2_17", "symbol_version_too_new", EXT, "pthread_create@GLIBC_2.34")
    # memcpy@GLIBC_2.14 (x86_64) is too new for manylinux1's glibc 2.5.
    cpy = gcc_so("cpy.so", PY_EXT + """
#include <string.h>
void copy(char *d, const char *s, unsigned long n) { memcpy(d, s, n); }
""", "-fno-builtin")
    expect_one(wheel("old-1.0-cp311-cp311-manylinux1_x86_64.whl", {EXT: cpy}),
               "memcpy under manylinux1", "symbol_version_too_new", EXT, "memcpy@GLIBC_2.14")
    # libstdc++'s C++11 std::string (GLIBCXX_3.4.21) is newer than manylinux2014's 3.4.19.
    cxx = os.path.join(T, "cxx.so")
    run("g++", "-O2", "-shared", "-fPIC", "-o", cxx, src("cxx.cc", """
#include <string>
extern "C" void *PyModule_Create2(void *, int);
extern "C" void *PyInit__C(void) { return PyModule_Create2(0, 1013); }
std::string name(int x) { return std::to_string(x); }
"""))
    expect_one(wheel("cxx-1.0-cp311-cp311-manylinux2014_x86_64.whl", {EXT: cxx}),
               "GLIBCXX under manylinux2014", "symbol_version_too_new", EXT, "GLIBCXX_3.4.")
    # The same binary as a deflated member too large to inflate whole (> 128 MiB): a
    # 150 MB section between its dynamic tables and its section headers, then 150 MB
    # more, so the reader must fetch ranges beyond the first pass's head and tail.
    big = os.path.join(T, "big.so")
    with open(os.path.join(T, "pad.bin"), "wb") as f:
        f.truncate(150 << 20)
    # The section is named .nv_fatbin: a fat binary that large is streamed, not held.
    run("objcopy", "--add-section", ".nv_fatbin=" + os.path.join(T, "pad.bin"),
        "--set-section-flags", ".nv_fatbin=readonly", new, big)
    with open(big, "ab") as f:
        f.truncate(os.path.getsize(big) + (150 << 20))
    doc = expect_one(wheel("bigglibc-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {EXT: big}),
                     "GLIBC_2.34 in a 300 MB deflated member", "symbol_version_too_new", EXT,
                     "pthread_create@GLIBC_2.34")
    b = doc["wheels"][0]["binaries"][0]
    check(b["arches"] == ["x86_64"] and b["cuda_arches"] == [],
          f"the large deflated member: {b['arches']}, fat binary of zeros: {b['cuda_arches']}")
    # The same module under manylinux_2_39, newer than the newest policy of the table:
    # glibc is judged (2.34 <= 2.39), GLIBCXX is not (no ceiling known), so no finding.
    expect_none(wheel("cxx-1.0-cp311-cp311-manylinux_2_39_x86_64.whl", {EXT: cxx}), "manylinux_2_39")
    # An extension named for 3.10 in a cp311 wheel.
    expect_one(wheel("abi-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
                     {"pkg/_C.cpython-310-x86_64-linux-gnu.so": good}),
               "cpython-310 in cp311", "python_abi_mismatch", "_C.cpython-310", "3.10")
    # x86_64 code named for aarch64: CPython on either machine never imports it.
    expect_one(wheel("sfx-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
                     {"pkg/_C.cpython-311-aarch64-linux-gnu.so": good}),
               "suffix of another machine", "python_abi_mismatch", "aarch64-linux-gnu", "another machine")
    # abi3 module using PyUnicode_AsUTF8 (limited API only from 3.13) in a cp38-abi3 wheel.
    lim = gcc_so("lim.so", PY_EXT + """
extern const char *PyUnicode_AsUTF8(PyObject *);
const char *utf8(PyObject *o) { return PyUnicode_AsUTF8(o); }
""")
    expect_one(wheel("lim-1.0-cp38-abi3-manylinux_2_17_x86_64.whl", {"pkg/_C.abi3.so": lim}),
               "abi3 with PyUnicode_AsUTF8", "python_abi_mismatch", "_C.abi3.so", "PyUnicode_AsUTF8")
    # A private symbol outside 3.11's limited API: an error for cp38-abi3; not judged for
    # cp312-abi3 (the table comes from 3.11's headers: it may have joined since).
    priv = gcc_so("priv.so", PY_EXT + "extern int _PyArg_NoKeywords(const char *, PyObject *);\n"
                  "int nk(PyObject *o) { return _PyArg_NoKeywords(\"f\", o); }\n")
    expect_one(wheel("priv-1.0-cp38-abi3-manylinux_2_17_x86_64.whl", {"pkg/_C.abi3.so": priv}),
               "abi3 with a private symbol", "python_abi_mismatch", "_C.abi3.so", "_PyArg_NoKeywords")
    expect_none(wheel("priv-1.0-cp312-abi3-manylinux_2_17_x86_64.whl", {"pkg/_C.abi3.so": priv}),
                "cp312-abi3 not judged on 3.11's private symbols")
    # A library neither carried nor in the policy (libssl.so.3 stands in, built here).
    ssl = gcc_so("libssl.so.3", "int SSL_new(void) { return 0; }\n", "-Wl,-soname,libssl.so.3")
    needs = gcc_so("needs.so", PY_EXT + "extern int SSL_new(void); int f(void) { return SSL_new(); }\n",
                   ssl)
    expect_one(wheel("ext-1.0-cp311-cp311-manylinux_2_28_x86_64.whl", {EXT: needs}),
               "libssl not in policy", "missing_library", EXT, "libssl.so.3")
    check(not verdict(wheel("carried-1.0-cp311-cp311-manylinux_2_28_x86_64.whl",
                            {EXT: needs, "pkg.libs/libssl.so.3": ssl}))[2],
          "a library the wheel carries is no finding")
    # libc10.so: torch's own when the wheel requires torch, an error when it does not.
    c10 = gcc_so("libc10.so", "int c10_f(void) { return 0; }\n", "-Wl,-soname,libc10.so")
    tx = gcc_so("tx.so", PY_EXT + "extern int c10_f(void); int g(void) { return c10_f(); }\n", c10)
    doc = expect_none(wheel("tx-1.0-cp311-cp311-manylinux_2_28_x86_64.whl", {EXT: tx},
                            requires=["torch==2.4.*"]), "libc10 from torch")
    info = [f["detail"] for f in doc["findings"] if f["library"] == "libc10.so"]
    check(info and "from torch==2.4.* (torch's own)" in info[0], f"libc10 info: {info}")
    expect_one(wheel("tx-1.0-cp311-cp311-manylinux_2_28_x86_64.whl", {EXT: tx}),
               "libc10 without torch", "missing_library", EXT, "libc10.so")
    # A vendored OpenMP under auditwheel's mangled name, beside torch.
    gomp = "/usr/lib/x86_64-linux-gnu/libgomp.so.1"
    if os.path.exists(gomp):
        expect_one(wheel("omp-1.0-cp311-cp311-manylinux_2_36_x86_64.whl",
                         {EXT: good, "omp.libs/libgomp-a34b3233.so.1": gomp}, requires=["torch>=2.4"]),
                   "vendored libgomp", "duplicate_runtime", "libgomp-a34b3233.so.1", "libgomp.so.1",
                   severity="warning")
    else:
        print("skipped: vendored libgomp (no", gomp + ")")
    # A native module in a py3-none-any wheel installs everywhere.
    expect_one(wheel("any-1.0-py3-none-any.whl", {EXT: good}), "native code in any",
               "wrong_architecture", EXT, "any")
    # A program (a PIE) is no library: nothing imports it, so an 'any' wheel
    # carrying one is said (info), not an error.
    run("gcc", "-O2", "-o", os.path.join(T, "tool"), src("tool.c", "int main(void) { return 0; }\n"))
    expect_program_in_any(wheel("anytool-1.0-py3-none-any.whl", {"pkg/bin/tool": os.path.join(T, "tool")}),
                          "ELF program in any", ["pkg/bin/tool"])
    # RECORD: a member changed after RECORD was written; a member RECORD lacks.
    expect_one(wheel("rec-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
                     {EXT: good, "pkg/__init__.py": b"x = 1\n"}, tamper="pkg/__init__.py"),
               "tampered member", "corrupted_file", "pkg/__init__.py", "SHA-256")
    expect_one(wheel("stray-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {EXT: good},
                     extra={"pkg/extra.py": b"y = 2\n"}),
               "member outside RECORD", "stray_file", "pkg/extra.py", "not in its RECORD", severity="warning")
    # Debug info left in: a -g build whose sections are most of the wheel.
    dbg = gcc_so("dbg.so", PY_EXT + "int twice(int x) { return 2 * x; }\n", "-g3")
    doc = expect_one(wheel("dbg-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {EXT: dbg}, method=zipfile.ZIP_STORED),
                     "debug info", "debug_info_left", "dbg-1.0", "strip would save", severity="warning")
    sec = subprocess.run(["readelf", "-SW", dbg], capture_output=True, text=True).stdout
    debug = sum(int(line.split("]", 1)[1].split()[4], 16) for line in sec.splitlines()
                if "] .debug_" in line)
    got = doc["wheels"][0]["binaries"][0]["debug_bytes"]
    check(got == debug, f"debug bytes {got} == readelf's .debug_* sizes {debug}")


def pyd(cc, out, code, *libs):
    run(cc, "-O2", "-shared", "-s", "-o", os.path.join(T, out), src(out + ".c", code), *libs)
    return os.path.join(T, out)


def windows_cases():
    if not (have("x86_64-w64-mingw32-gcc") and have("i686-w64-mingw32-gcc")):
        print("skipped: Windows wheels (no mingw-w64 gcc)")
        return
    code = "__declspec(dllexport) void *PyInit__C(void) { return 0; }\n"
    for cc, tag, arch in (("x86_64-w64-mingw32-gcc", "win_amd64", "x86_64"),
                          ("i686-w64-mingw32-gcc", "win32", "x86")):
        p = pyd(cc, f"good_{tag}.pyd", code)
        doc = expect_none(wheel(f"w-1.0-cp311-cp311-{tag}.whl", {f"pkg/_C.cp311-{tag}.pyd": p}),
                          f"windows good {tag}")
        got = doc["wheels"][0]["binaries"][0]["arches"]
        check(got == [arch], f"{tag}: machine {got}")
    i686 = os.path.join(T, "good_win32.pyd")
    expect_one(wheel("w32-1.0-cp311-cp311-win_amd64.whl", {"pkg/_C.cp311-win_amd64.pyd": i686}),
               "i686 DLL in win_amd64", "wrong_architecture", "_C.cp311-win_amd64.pyd", "win_amd64")
    # ARM64 PE (clang, lld), tagged win_amd64.
    arm = os.path.join(T, "arm64.pyd")
    p = subprocess.run(["clang", "--target=aarch64-w64-windows-gnu", "-fuse-ld=lld", "-nostdlib", "-shared",
                        "-o", arm, src("arm.c", "int __stdcall DllMainCRTStartup(void *a, unsigned b, void *c)"
                                                " { return 1; }\n" + code)], capture_output=True, text=True)
    if p.returncode == 0:
        expect_one(wheel("arm-1.0-cp311-cp311-win_amd64.whl", {"pkg/_C.cp311-win_amd64.pyd": arm}),
                   "ARM64 DLL in win_amd64", "wrong_architecture", "_C.cp311-win_amd64.pyd", "aarch64")
        expect_none(wheel("arm-1.0-cp311-cp311-win_arm64.whl", {"pkg/_C.cp311-win_arm64.pyd": arm}),
                    "ARM64 DLL in win_arm64")
    else:
        print("skipped: ARM64 PE (clang --target=aarch64-w64-windows-gnu failed:", p.stderr[-200:], ")")
    # A DLL the wheel does not carry, and python310.dll in a cp311 wheel.
    with open(os.path.join(T, "foo.def"), "w") as f:
        f.write("LIBRARY foo.dll\nEXPORTS\nfoo_f\n")
    with open(os.path.join(T, "py.def"), "w") as f:
        f.write("LIBRARY python310.dll\nEXPORTS\nPyModule_Create2\n")
    run("x86_64-w64-mingw32-dlltool", "-d", "foo.def", "-l", "libfoo.a")
    run("x86_64-w64-mingw32-dlltool", "-d", "py.def", "-l", "libpy.a")
    miss = pyd("x86_64-w64-mingw32-gcc", "miss.pyd",
               "extern int foo_f(void);\n__declspec(dllexport) int PyInit__C(void) { return foo_f(); }\n",
               os.path.join(T, "libfoo.a"))
    expect_one(wheel("m-1.0-cp311-cp311-win_amd64.whl", {"pkg/_C.cp311-win_amd64.pyd": miss}),
               "missing DLL", "missing_library", "_C.cp311-win_amd64.pyd", "foo.dll")
    py = pyd("x86_64-w64-mingw32-gcc", "py.pyd",
             "extern void *PyModule_Create2(void *, int);\n"
             "__declspec(dllexport) void *PyInit__C(void) { return PyModule_Create2(0, 1013); }\n",
             os.path.join(T, "libpy.a"))
    expect_one(wheel("p-1.0-cp311-cp311-win_amd64.whl", {"pkg/_C.cp311-win_amd64.pyd": py}),
               "python310.dll in cp311", "python_abi_mismatch", "_C.cp311-win_amd64.pyd", "python310.dll")


def launcher_cases():
    """Windows launchers in an 'any' wheel, as pip and setuptools ship them
    (distlib's t32/t64.exe, setuptools' cli-32/cli-64.exe): programs that
    pip copies to make console scripts, never imported. The real wheels of
    this machine (Debian's python3-setuptools-whl / python3-pip-whl, which
    pip installs and runs everywhere) are the oracle: no error."""
    if have("x86_64-w64-mingw32-gcc") and have("i686-w64-mingw32-gcc"):
        main = src("launcher.c", "int main(void) { return 0; }\n")
        for cc, out in (("x86_64-w64-mingw32-gcc", "t64.exe"), ("i686-w64-mingw32-gcc", "t32.exe")):
            run(cc, "-O2", "-s", "-o", os.path.join(T, out), main)
        expect_program_in_any(wheel("launch-1.0-py3-none-any.whl",
                                    {f"launch/{n}": os.path.join(T, n) for n in ("t32.exe", "t64.exe")}),
                              "Windows launchers in any", ["launch/t32.exe", "launch/t64.exe"])
    else:
        print("skipped: Windows launchers in an 'any' wheel (no mingw-w64 gcc)")
    real = [os.path.join("/usr/share/python-wheels", n) for n in
            sorted(os.listdir("/usr/share/python-wheels"))] if os.path.isdir("/usr/share/python-wheels") else []
    real = [p for p in real if p.endswith("-none-any.whl")]
    if not real:
        print("skipped: the real pip/setuptools wheels (no /usr/share/python-wheels)")
    for p in real:
        rc, doc, serious = verdict(p)
        check(rc == 0 and not serious, f"{os.path.basename(p)}: a wheel pip installs everywhere gets "
              f"no warning or error: exit {rc}, {[(f['kind'], f['library']) for f in serious]}")


def macho(out, arch, version, code):
    obj = os.path.join(T, out + ".o")
    target = {"arm64": "arm64-apple-macos11", "x86_64": "x86_64-apple-macos10.15"}[arch]
    run("clang", "-target", target, "-c", "-o", obj, src(out + ".c", code))
    run("ld64.lld-14", "-arch", arch, "-platform_version", "macos", version, version, "-dylib",
        "-undefined", "dynamic_lookup", "-install_name", "@rpath/" + out, "-o", os.path.join(T, out), obj)
    return os.path.join(T, out)


def macos_cases():
    if not (have("ld64.lld-14") and have("clang")):
        print("skipped: macOS wheels (no clang / ld64.lld-14)")
        return
    code = "void *PyModule_Create2(void *, int);\nvoid *PyInit__C(void) { return PyModule_Create2(0, 1013); }\n"
    member = "pkg/_C.cpython-311-darwin.so"
    ok = macho("ok.so", "arm64", "11.0", code)
    expect_none(wheel("mac-1.0-cp311-cp311-macosx_11_0_arm64.whl", {member: ok}), "macOS good")
    # A need of the system's /usr/lib (a stand-in with libc++'s install name) is no finding.
    cxx = os.path.join(T, "libcxx.dylib")
    run("ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-dylib",
        "-install_name", "/usr/lib/libc++.1.dylib", "-o", cxx,
        os.path.join(T, macho("stub.o.dylib", "arm64", "11.0", "int cxx_f(void) { return 0; }\n") + ".o"))
    sysneed = os.path.join(T, "sys.so")
    run("ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-dylib",
        "-undefined", "dynamic_lookup", "-o", sysneed, os.path.join(T, "ok.so.o"), cxx)
    doc = expect_none(wheel("mac-1.0-cp311-cp311-macosx_11_0_arm64.whl", {member: sysneed}),
                      "macOS system library")
    check("/usr/lib/libc++.1.dylib" in doc["wheels"][0]["binaries"][0]["needed"],
          f"macOS needs: {doc['wheels'][0]['binaries'][0]['needed']}")
    new = macho("new.so", "arm64", "14.0", code)
    expect_one(wheel("mac-1.0-cp311-cp311-macosx_11_0_arm64.whl", {member: new}),
               "macOS 14 minimum under macosx_11_0", "symbol_version_too_new", member, "macOS 14.0")
    expect_one(wheel("mac-1.0-cp311-cp311-macosx_11_0_universal2.whl", {member: ok}),
               "thin arm64 under universal2", "wrong_architecture", member, "universal2")
    if have("llvm-lipo-14"):
        x86 = macho("x86.so", "x86_64", "10.15", code)
        fat = os.path.join(T, "fat.so")
        run("llvm-lipo-14", "-create", "-output", fat, ok, x86)
        doc = expect_none(wheel("mac-1.0-cp311-cp311-macosx_11_0_universal2.whl", {member: fat}),
                          "universal2 fat file")
        check(sorted(doc["wheels"][0]["binaries"][0]["arches"]) == ["aarch64", "x86_64"],
              "universal2 slices")
    else:
        print("skipped: universal2 (no llvm-lipo-14)")
    gone = macho("gone.so", "arm64", "11.0",
                 code + "int lib_f(void);\nint g(void) { return lib_f(); }\n")
    lib = macho("libgone.dylib", "arm64", "11.0", "int lib_f(void) { return 1; }\n")
    relinked = os.path.join(T, "gone2.so")
    run("ld64.lld-14", "-arch", "arm64", "-platform_version", "macos", "11.0", "11.0", "-dylib",
        "-undefined", "dynamic_lookup", "-o", relinked, os.path.join(T, "gone.so.o"), lib)
    expect_one(wheel("mac-1.0-cp311-cp311-macosx_11_0_arm64.whl", {member: relinked}),
               "dylib not carried", "missing_library", member, "libgone.dylib")
    check(gone and not verdict(wheel("mac-1.0-cp311-cp311-macosx_11_0_arm64.whl",
                                     {member: relinked, "pkg/.dylibs/libgone.dylib": lib}))[2],
          "a dylib the wheel carries is no finding")


def cuda_cases():
    nvcc = os.path.join(CUDA, "bin", "nvcc")
    cudart = os.path.join(CUDA, "lib64", "libcudart.so.13")
    if not (os.access(nvcc, os.X_OK) and os.path.exists(cudart)):
        print("skipped: CUDA wheels (no", nvcc, "or", cudart + ")")
        return
    # The real CUDA runtime repacked as nvidia's wheel: a correct wheel.
    doc = expect_none(wheel("nvidia_cuda_runtime-13.0.0-py3-none-manylinux_2_28_x86_64.whl",
                            {"nvidia/cuda_runtime/lib/libcudart.so.13": cudart}), "real libcudart wheel")
    check(doc["wheels"][0]["binaries"][0]["format"] == "elf", "libcudart read")
    # The same runtime vendored into a torch extension's wheel collides with nvidia's.
    expect_one(wheel("ext-1.0-cp311-cp311-manylinux_2_28_x86_64.whl",
                     {EXT: os.path.join(T, "good.so"), "ext.libs/libcudart.so.13": cudart},
                     requires=["torch==2.9.*"]),
               "vendored libcudart", "duplicate_runtime", "libcudart.so.13", "nvidia-cuda-runtime",
               severity="warning")
    # A real library too large to inflate whole (cuSPARSE, 162 MB, containers in .nv_fatbin
    # and beside it): the architectures streamed from the deflated member equal inspect's.
    big = os.path.join(CUDA, "lib64", "libcusparse.so.12")
    if os.path.exists(big) and os.path.getsize(big) > (128 << 20):
        _, doc = td_json("wheel", wheel("nvidia_cusparse-12.0.0-py3-none-manylinux_2_28_x86_64.whl",
                                        {"nvidia/cusparse/lib/libcusparse.so.12": big}), schema=True)
        got = doc["wheels"][0]["binaries"][0]
        _, ins = td_json("inspect", big)
        want = ins["files"][0]["fatbin"]["archs"]
        check(sorted(got["cuda_arches"]) == sorted(want) and got["not_parsed"] is None,
              f"cuSPARSE streamed: {sorted(got['cuda_arches'])} == inspect's {sorted(want)}; {got['not_parsed']}")
    else:
        print("skipped: cuSPARSE streamed (no", big, "over 128 MiB)")
    # An extension with sm_80 code only, made for torch 2.9 + CUDA 13.0, which runs on sm_120 too.
    cu = src("k.cu", "__global__ void k(float *x) { x[threadIdx.x] *= 2.0f; }\n"
                     "extern \"C\" void *PyModule_Create2(void *, int);\n"
                     "extern \"C\" void *PyInit__C(void) { k<<<1, 1>>>(0); return PyModule_Create2(0, 1013); }\n")
    so = os.path.join(T, "cu.so")
    run(nvcc, "-shared", "-Xcompiler", "-fPIC", "-cudart", "shared", "-gencode", "arch=compute_80,code=sm_80",
        "-o", so, cu)
    doc = expect_one(wheel("xf-0.1+cu130-cp311-cp311-manylinux_2_36_x86_64.whl", {EXT: so},
                           requires=["torch==2.9.*"]),
                     "sm_80 only for torch+cu130", "gpu_arch_unsupported", EXT, "sm_120", severity="warning")
    check(doc["wheels"][0]["binaries"][0]["cuda_arches"] == ["sm_80"],
          f"fatbin arches: {doc['wheels'][0]['binaries'][0]['cuda_arches']}")


def markdown():
    path = wheel("md-1.0-cp311-cp311-manylinux_2_17_x86_64.whl",
                 {"pkg/_C.cpython-310-x86_64-linux-gnu.so": os.path.join(T, "good.so")})
    p = subprocess.run([TD, "wheel", "--format", "markdown", path], capture_output=True, text=True)
    check(p.returncode == 1 and "| `pkg/_C.cpython-310-x86_64-linux-gnu.so` | elf | x86_64 |" in p.stdout
          and "**error** `python_abi_mismatch`" in p.stdout, f"markdown: exit {p.returncode}: {p.stdout[-600:]}")
    p = subprocess.run([TD, "wheel", "--color", "never", path], capture_output=True, text=True)
    check(p.returncode == 1 and "python_abi_mismatch" in p.stdout and "3.10" in p.stdout,
          f"text: exit {p.returncode}: {p.stdout[-600:]}")
    p = subprocess.run([TD, "wheel", os.path.join(T, "nothing.whl")], capture_output=True, text=True)
    check(p.returncode == 2 and "nothing.whl" in p.stderr, f"unreadable wheel: exit {p.returncode}: {p.stderr}")
    # Bytes that are no zip: the error alone, no report saying "No findings."
    junk = os.path.join(T, "junk-1.0-py3-none-any.whl")
    with open(junk, "wb") as f:
        f.write(bytes(range(256)) * 16)
    for fmt in ("text", "json", "markdown"):
        p = subprocess.run([TD, "wheel", "--format", fmt, junk], capture_output=True, text=True)
        check(p.returncode == 2 and "junk-1.0" in p.stderr and p.stdout == "",
              f"a wheel that is no zip ({fmt}): exit {p.returncode}, stdout {p.stdout[:200]!r}")
    _, doc = td_json("wheel", os.path.join(T, "dist"), schema=True)
    check(len(doc["wheels"]) > 10, f"a directory of wheels: {len(doc['wheels'])}")


# Real binaries built by others' toolchains: npm packages that ship a prebuilt
# MSVC DLL (Windows x64) and an arm64 Mach-O (macOS), pinned by version and
# cached beside the build (the registry is asked once; offline later runs
# use the cache, or say skipped).
NPM_PINS = {"win": ("@node-rs/crc32-win32-x64-msvc", "1.10.6", "crc32.win32-x64-msvc.node"),
            "mac": ("@node-rs/crc32-darwin-arm64", "1.10.6", "crc32.darwin-arm64.node")}


def npm_binary(key):
    """The pinned package's binary, from the cache or fetched with npm pack."""
    import tarfile
    pkg, version, member = NPM_PINS[key]
    cache = os.path.join(os.environ.get("TD_BUILD", T), "npm-cache")
    tgz = os.path.join(cache, pkg.strip("@").replace("/", "-") + f"-{version}.tgz")
    if not os.path.exists(tgz) and have("npm"):
        os.makedirs(cache, exist_ok=True)
        subprocess.run(["npm", "pack", "--silent", "--pack-destination", cache, f"{pkg}@{version}"],
                       capture_output=True, timeout=120)
    if not os.path.exists(tgz):
        return None
    with tarfile.open(tgz) as t:
        return t.extractfile("package/" + member).read()


def npm_cases():
    dll, dylib = npm_binary("win"), npm_binary("mac")
    if dll is None or dylib is None:
        print("skipped: the npm packages' real MSVC DLL and arm64 dylib (no npm, no registry, "
              "and nothing in the cache)")
        return
    check(dll[:2] == b"MZ" and dylib[:4] == b"\xcf\xfa\xed\xfe", "npm binaries: a PE and a Mach-O")
    expect_none(wheel("crc-1.0-py3-none-win_amd64.whl", {"crc/crc32.dll": dll}), "MSVC DLL, win_amd64")
    expect_one(wheel("crc-1.1-py3-none-win_arm64.whl", {"crc/crc32.dll": dll}),
               "MSVC x64 DLL under win_arm64", "wrong_architecture", "crc32.dll", "x86")
    expect_none(wheel("crc-1.0-py3-none-macosx_11_0_arm64.whl", {"crc/libcrc32.dylib": dylib}),
                "arm64 dylib, macosx_11_0_arm64")
    expect_one(wheel("crc-1.1-py3-none-macosx_11_0_x86_64.whl", {"crc/libcrc32.dylib": dylib}),
               "arm64 dylib under macosx_11_0_x86_64", "wrong_architecture", "libcrc32.dylib", "arm64")


def big_fatbin():
    """A deflated member too large to inflate whole whose fat binary (60 MB:
    nvcc's container for sm_80 + compute_90, repeated) is larger than any
    range it reads: listed by streaming it forward, as `inspect` lists it
    from the unpacked file."""
    nvcc = os.path.join(CUDA, "bin", "nvcc")
    if not os.access(nvcc, os.X_OK):
        print("skipped: streamed fat binary (no", nvcc + ")")
        return
    fb = os.path.join(T, "k.fatbin")
    run(nvcc, "-fatbin", "-gencode", "arch=compute_80,code=sm_80", "-gencode",
        "arch=compute_90,code=compute_90", "-o", fb, src("k2.cu", "__global__ void k(float *x) { *x = 1; }\n"))
    one = open(fb, "rb").read()
    one += b"\0" * (-len(one) % 8)
    with open(os.path.join(T, "fb.bin"), "wb") as f:
        f.write(one * ((60 << 20) // len(one) + 1))
    so = os.path.join(T, "fbig.so")
    run("objcopy", "--add-section", ".nv_fatbin=" + os.path.join(T, "fb.bin"), "--set-section-flags",
        ".nv_fatbin=readonly", os.path.join(T, "good.so"), so)
    with open(so, "ab") as f:
        f.truncate(os.path.getsize(so) + (100 << 20))
    _, doc = td_json("wheel", wheel("fb-1.0-cp311-cp311-manylinux_2_17_x86_64.whl", {EXT: so}), schema=True)
    b = doc["wheels"][0]["binaries"][0]
    _, ins = td_json("inspect", so)
    want = ins["files"][0]["fatbin"]["archs"]
    check(b["cuda_arches"] == want == ["sm_80", "compute_90"] and b["not_parsed"] is None,
          f"streamed fat binary: {b['cuda_arches']} (inspect: {want}), not_parsed {b['not_parsed']}")


def tag_oracle():
    """Our split of each tag field against packaging's expansion."""
    from packaging.utils import parse_wheel_filename
    names = ["a-1.0-cp311-cp311-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
             "b-2.0-cp38.cp39-abi3-macosx_10_9_x86_64.macosx_11_0_arm64.whl",
             "c-3.0-py2.py3-none-any.whl", "d-1.0-cp312-cp312-musllinux_1_2_aarch64.whl",
             "e-1.0-cp311-cp311-win32.win_amd64.win_arm64.whl"]
    for n in names:
        path = wheel(n, {"pkg/__init__.py": b""})
        _, doc = td_json("wheel", path, schema=True)
        w = doc["wheels"][0]
        tags = parse_wheel_filename(n)[3]
        ours = {(i, a, p) for i in w["python_tag"].split(".") for a in w["abi_tag"].split(".")
                for p in w["platform_tag"].split(".")}
        theirs = {(t.interpreter, t.abi, t.platform) for t in tags}
        check(ours == theirs, f"{n}: tags {sorted(ours)} == packaging's {sorted(theirs)}")


linux_cases()
windows_cases()
launcher_cases()
macos_cases()
cuda_cases()
markdown()
npm_cases()
big_fatbin()
tag_oracle()
shutil.rmtree(T, ignore_errors=True)
finish("wheel")
