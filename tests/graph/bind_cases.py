#!/usr/bin/python3
"""Symbol binding of `torchdoctor deps` against glibc's own loader, on
programs and libraries built here: for each case the program is run with
LD_BIND_NOW=1 (every symbol bound at start, as deps checks them) and deps
must report a missing symbol exactly when ld.so fails, naming the symbol
ld.so names. Cases: a provider with only DT_HASH and one with only
DT_GNU_HASH, symbol versions (the version a reference names, the oldest
version an unversioned reference takes, a hidden one it does not, the one
default version it takes), a GNU hash table whose bucket no longer reaches
the symbol, a 32-bit program, a name that differs from the wanted one
only in its last byte (same length), one with the same GNU hash and
length (only comparing the names tells them apart), and a library loaded before the one
that calls it, its tables together and far apart."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
from casekit import TD, check, env_without, finish, kinds, sh  # noqa: E402


def write(d, name, text):
    with open(os.path.join(d, name), "w") as f:
        f.write(text)


def env_without_path():
    return env_without("LD_LIBRARY_PATH")


def ldso(prog, expect):
    """(ok, undefined symbol ld.so names) for PROG run with every symbol
    bound; EXPECT when this kernel cannot run it (no 32-bit support)."""
    env = env_without_path()
    env["LD_BIND_NOW"] = "1"
    try:
        p = subprocess.run([prog], capture_output=True, text=True, env=env)
    except OSError as e:
        print(f"note: {prog} cannot run here ({e.strerror}): deps checked against the expectation")
        return expect
    m = re.search(r"undefined symbol: ([^\s,]+)|symbol (\S+) version (\S+) not defined", p.stderr)
    if p.returncode == 0:
        return True, None
    if not m:
        return False, p.stderr.strip()
    return False, m.group(1) or f"{m.group(2)}@{m.group(3)}"


def deps(prog):
    p = subprocess.run([TD, "deps", "--format", "json", prog], capture_output=True, text=True,
                       env=env_without_path())
    assert p.returncode in (0, 1), p.stderr
    doc = json.loads(p.stdout)
    missing = kinds(doc, "missing_symbol")
    return doc, missing


def agree(name, prog, want_ok, want_symbol=None, needed_by=None):
    ok, symbol = ldso(prog, (want_ok, want_symbol))
    check(ok == want_ok, f"{name}: ld.so {'ran' if ok else 'failed: ' + str(symbol)}")
    doc, missing = deps(prog)
    if want_ok:
        check(not missing, f"{name}: deps reports {missing}")
        return
    check(len(missing) == 1, f"{name}: deps reports {len(missing)} missing_symbol findings")
    if missing:
        f = missing[0]
        check(f["symbol"] == (want_symbol or symbol),
              f"{name}: deps names {f['symbol']}, ld.so {symbol}")
        check(symbol and symbol.split("@")[0] == (want_symbol or symbol).split("@")[0],
              f"{name}: ld.so names {symbol}, expected {want_symbol}")
        if needed_by:
            check(f["needed_by"] == needed_by, f"{name}: needed_by {f['needed_by']}")


def gnu_hash(name):
    h = 5381
    for c in name.encode():
        h = (h * 33 + c) & 0xFFFFFFFF
    return h


def break_bucket(path, symbol):
    """Points the GNU hash bucket of SYMBOL at nothing (ELF64 little-endian)."""
    data = bytearray(open(path, "rb").read())
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names_off = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)[0]
    for i in range(shnum):
        sh = shoff + i * shentsize
        name = struct.unpack_from("<I", data, sh)[0]
        end = data.index(b"\0", names_off + name)
        if data[names_off + name:end] != b".gnu.hash":
            continue
        off = struct.unpack_from("<Q", data, sh + 0x18)[0]
        nbuckets, symoffset, bloom_size, _ = struct.unpack_from("<IIII", data, off)
        bucket = off + 16 + 8 * bloom_size + 4 * (gnu_hash(symbol) % nbuckets)
        struct.pack_into("<I", data, bucket, 0)
        open(path, "wb").write(bytes(data))
        return
    raise AssertionError(f"{path}: no .gnu.hash")


def pair(d, wanted, lacking, want, cc="", libflags=""):
    """libp.so defining WANTED (in D) and one defining LACKING instead (in
    D/old); prog, found next to the first, and prog_old, next to the
    second, both built against the first and calling WANT. CC: flags for
    everything built, LIBFLAGS for the libraries."""
    os.makedirs(d + "/old")
    write(d, "p.c", f"int {wanted}(void){{return 0;}}\n")
    write(d, "p_old.c", f"int {lacking}(void){{return 0;}}\n")
    write(d, "main.c", f"int {want}(void); int main(void){{return {want}();}}\n")
    lib = f"gcc {cc} {libflags} -shared -fPIC -Wl,-soname,libp.so"
    sh(f"{lib} -o {d}/libp.so {d}/p.c", d)
    sh(f"{lib} -o {d}/old/libp.so {d}/p_old.c", d)
    sh(f"gcc {cc} -o {d}/prog {d}/main.c -L{d} -lp -Wl,-rpath,'$ORIGIN'", d)
    sh(f"gcc {cc} -o {d}/prog_old {d}/main.c -L{d} -lp -Wl,-rpath,'$ORIGIN/old'", d)
    return f"{d}/prog", f"{d}/prog_old"


def case_hash_styles(t):
    for style in ("sysv", "gnu"):
        prog, old = pair(os.path.join(t, style), "f", "g", "f",
                         libflags=f"-Wl,--hash-style={style}")
        agree(f"{style} hash, defined", prog, True)
        agree(f"{style} hash, not defined", old, False, "f", old)


def case_versions(t):
    d = os.path.join(t, "ver")
    os.makedirs(d + "/v2moved")
    os.makedirs(d + "/hidden")
    os.makedirs(d + "/oldest")
    os.makedirs(d + "/default")
    write(d, "v.map", "V1 { global: f; local: *; };\nV2 { global: g; } V1;\n")
    write(d, "p.c", "int f(void){return 1;}\nint g(void){return 2;}\n")
    # g moved to V1; V2 still defined (by h), so the version need is met.
    write(d, "moved.map", "V1 { global: f; g; local: *; };\nV2 { global: h; } V1;\n")
    write(d, "moved.c", "int f(void){return 1;}\nint g(void){return 2;}\nint h(void){return 3;}\n")
    write(d, "main.c", "int f(void); int g(void); int main(void){return f() + g() - 3;}\n")
    sh(f"gcc -shared -fPIC -Wl,-soname,libv.so -Wl,--version-script={d}/v.map -o {d}/libv.so "
       f"{d}/p.c", d)
    sh(f"gcc -shared -fPIC -Wl,-soname,libv.so -Wl,--version-script={d}/moved.map "
       f"-o {d}/v2moved/libv.so {d}/moved.c", d)
    sh(f"gcc -o {d}/prog {d}/main.c -L{d} -lv -Wl,-rpath,'$ORIGIN'", d)
    sh(f"gcc -o {d}/prog_moved {d}/main.c -L{d} -lv -Wl,-rpath,'$ORIGIN/v2moved'", d)
    agree("versioned references, defined", f"{d}/prog", True)
    agree("g@V2 defined as g@V1 only", f"{d}/prog_moved", False, "g@V2", f"{d}/prog_moved")
    # Unversioned references (the program links against an unversioned
    # libu.so), then the library found has versions.
    write(d, "u.c", "int f(void){return 1;}\n")
    write(d, "umain.c", "int f(void); int main(void){return f() - 1;}\n")
    sh(f"gcc -shared -fPIC -Wl,-soname,libu.so -o {d}/libu.so {d}/u.c", d)
    for sub, rpath in (("oldest", "oldest"), ("hidden", "hidden"), ("default", "default")):
        sh(f"gcc -o {d}/uprog_{sub} {d}/umain.c -L{d} -lu -Wl,-rpath,'$ORIGIN/{rpath}'", d)
    # f only as f@V1, hidden, V1 the first version (index 2): glibc takes it.
    write(d, "oldest.c", 'int f_1(void){return 1;}\n__asm__(".symver f_1,f@V1");\n')
    write(d, "one.map", "V1 { global: f; local: *; };\n")
    sh(f"gcc -shared -fPIC -Wl,-soname,libu.so -Wl,--version-script={d}/one.map "
       f"-o {d}/oldest/libu.so {d}/oldest.c", d)
    # f only as f@V2, hidden, V2 the second version (index 3): glibc refuses.
    write(d, "two.map", "V1 { global: k; local: *; };\nV2 { global: f; } V1;\n")
    write(d, "hidden.c", 'int k(void){return 0;}\nint f_2(void){return 1;}\n'
                         '__asm__(".symver f_2,f@V2");\n')
    sh(f"gcc -shared -fPIC -Wl,-soname,libu.so -Wl,--version-script={d}/two.map "
       f"-o {d}/hidden/libu.so {d}/hidden.c", d)
    # f@V1 hidden and f@@V2 the default: the one default is taken.
    write(d, "default.c", 'int k(void){return 0;}\nint f_1(void){return 1;}\n'
                          'int f_2(void){return 1;}\n__asm__(".symver f_1,f@V1");\n'
                          '__asm__(".symver f_2,f@@V2");\n')
    write(d, "twod.map", "V1 { global: k; f; local: *; };\nV2 { global: f; } V1;\n")
    sh(f"gcc -shared -fPIC -Wl,-soname,libu.so -Wl,--version-script={d}/twod.map "
       f"-o {d}/default/libu.so {d}/default.c", d)
    agree("unversioned reference, oldest version hidden", f"{d}/uprog_oldest", True)
    agree("unversioned reference, later version hidden", f"{d}/uprog_hidden", False, "f",
          f"{d}/uprog_hidden")
    agree("unversioned reference, one default version", f"{d}/uprog_default", True)


def case_broken_bucket(t):
    d = os.path.join(t, "bucket")
    os.makedirs(d)
    # Many symbols, so that f's chain is not the last one (whose end also
    # ends the symbol count).
    write(d, "p.c", "".join(f"int s{i}(void){{return {i};}}\n" for i in range(64)) +
          "int f(void){return 0;}\n")
    write(d, "main.c", "int f(void); int main(void){return f();}\n")
    sh(f"gcc -shared -fPIC -Wl,--hash-style=gnu -Wl,-soname,libp.so -o {d}/libp.so {d}/p.c", d)
    sh(f"gcc -o {d}/prog {d}/main.c -L{d} -lp -Wl,-rpath,'$ORIGIN'", d)
    break_bucket(f"{d}/libp.so", "f")
    agree("bucket of f emptied", f"{d}/prog", False, "f", f"{d}/prog")


def case_same_length_name(t):
    prog, old = pair(os.path.join(t, "near"), "compute_a", "compute_b", "compute_a")
    agree("compute_a defined", prog, True)
    agree("compute_b where compute_a is wanted", old, False, "compute_a", old)


def case_same_hash_name(t):
    """A provider whose only symbol has the wanted name's GNU hash and
    length, not its name ('x' * 33 + 'B' == 'w' * 33 + 'c'): the chain word
    matches, so only the comparison of the names tells them apart."""
    assert gnu_hash("compute_xB") == gnu_hash("compute_wc")
    prog, old = pair(os.path.join(t, "samehash"), "compute_xB", "compute_wc", "compute_xB",
                     libflags="-Wl,--hash-style=gnu")
    agree("compute_xB defined", prog, True)
    agree("compute_wc (the same GNU hash) where compute_xB is wanted", old, False, "compute_xB",
          old)


def case_load_order(t):
    """A library loaded before the one that refers to it: prog needs libb
    then liba, and liba calls b_fn of libb. deps reads libb's tables while
    only prog's references are known, so b_fn is asked of it once the
    closure is complete. With a megabyte between libb's string table and
    its version table, its tables are read in pieces instead."""
    d = os.path.join(t, "order")
    write(t, "gap.ld", "SECTIONS { .gap : { BYTE(1); . += 0x100000; } } INSERT AFTER .dynstr;\n")
    for sub, extra in (("near", ""), ("apart", f"-Wl,-T,{t}/gap.ld")):
        e = os.path.join(d, sub)
        os.makedirs(e + "/old")
        # getpid@GLIBC_2.2.5 gives libb a version table, after the gap.
        other = "#include <unistd.h>\nint b_other(void){return getpid() < 0;}\n"
        write(e, "b.c", "int b_fn(void){return 0;}\n" + other)
        write(e, "b_old.c", other)
        write(e, "a.c", "int b_fn(void); int a_fn(void){return b_fn();}\n")
        write(e, "main.c", "int a_fn(void); int main(void){return a_fn();}\n")
        lib = f"gcc -shared -fPIC {extra} -Wl,-soname,libb.so"
        sh(f"{lib} -o {e}/libb.so {e}/b.c", e)
        sh(f"{lib} -o {e}/old/libb.so {e}/b_old.c", e)
        sh(f"gcc -shared -fPIC -Wl,-soname,liba.so -o {e}/liba.so {e}/a.c -L{e} -lb", e)
        for prog, rpath in (("prog", "$ORIGIN"), ("prog_old", "$ORIGIN/old:$ORIGIN")):
            sh(f"gcc -o {e}/{prog} {e}/main.c -L{e} -Wl,--no-as-needed -lb -la "
               f"-Wl,-rpath,'{rpath}'", e)
        agree(f"tables {sub}: defined by a library loaded first", f"{e}/prog", True)
        agree(f"tables {sub}: not defined by a library loaded first", f"{e}/prog_old", False,
              "b_fn", f"{e}/liba.so")


def case_32bit(t):
    prog, old = pair(os.path.join(t, "m32"), "f", "g", "f", "-m32")
    agree("32-bit, defined", prog, True)
    agree("32-bit, not defined", old, False, "f", old)


with tempfile.TemporaryDirectory() as t:
    case_hash_styles(t)
    case_versions(t)
    case_broken_bucket(t)
    case_same_length_name(t)
    case_same_hash_name(t)
    case_load_order(t)
    case_32bit(t)
finish()
