"""An independent reading of CUDA fat binary containers, for the tests
to hold torchdoctor's against: the ELF section table read with struct,
every loaded data section (and .nv_fatbin) searched at 8-byte-aligned
offsets for the container magic 0xBA55ED50, a container kept when its
header says version 1 and its entries chain exactly to its end (NVIDIA's
fatbinary_section.h gives the header; the entry layout is the one
cuobjdump reads: kind u16 at 0, header size u32 at 4, payload size u64 at
8, architecture u32 at 0x1c, flags u64 at 0x28), and NVIDIA's binary and
PTX compatibility rules written out again here, not read from data/."""
import mmap
import struct

MAGIC = struct.pack("<I", 0xBA55ED50)
KIND = {1: "compute", 2: "sm", 8: "lto"}
ARCH_SPECIFIC, FAMILY_SPECIFIC = 0x100000, 0x200000


def sections(m):
    """(name, offset, size) of the sections to search, .nv_fatbin first."""
    if m[:4] != b"\x7fELF" or m[4] != 2:
        return []
    shoff, = struct.unpack_from("<Q", m, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", m, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQ", m, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = []
    for name, typ, flags, _, off, size in hdrs[1:]:
        nm = m[stroff + name:m.find(b"\0", stroff + name)].decode()
        if nm == ".nv_fatbin" or (typ == 1 and flags & 2 and not flags & 4):
            out.append((nm, off, size))
    return sorted(out, key=lambda s: s[0] != ".nv_fatbin")


def entries_of(m, start, end):
    """[(kind, arch, variant, ptx_isa)] of a container's entries, or None
    when they do not chain exactly to END."""
    out, at = [], start
    while at < end:
        if end - at < 0x30:
            return None
        kind, _, hsize, size = struct.unpack_from("<HHIQ", m, at)
        minor, major, arch = struct.unpack_from("<HHI", m, at + 0x18)
        flags, = struct.unpack_from("<Q", m, at + 0x28)
        if hsize < 0x30 or at + hsize + size > end:
            return None
        variant = "a" if flags & ARCH_SPECIFIC else "f" if flags & FAMILY_SPECIFIC else ""
        out.append((kind, arch, variant, (major, minor)))
        at += hsize + size
    return out


def read(path):
    """{arch name: lowest PTX ISA (or None)} and the container count."""
    with open(path, "rb") as f:
        m = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    archs, containers = {}, 0
    for _, off, size in sections(m):
        at, end = off + (-off) % 8, off + size
        while True:
            at = m.find(MAGIC, at, end)
            if at < 0:
                break
            if at % 8:
                at += 8 - at % 8
                continue
            version, hsize, fat = struct.unpack_from("<HHQ", m, at + 4)
            got = entries_of(m, at + hsize, at + hsize + fat) if version == 1 and hsize >= 16 and \
                fat and at + hsize + fat <= end else None
            if got is None:
                at += 8
                continue
            containers += 1
            for kind, arch, variant, isa in got:
                if kind in KIND:
                    name = f"{KIND[kind]}_{arch}{variant}"
                    low = archs.get(name)
                    archs[name] = isa if kind == 1 and (low is None or isa < low) else low
            at += hsize + fat
    m.close()
    return archs, containers


def runs(name, major, minor):
    """'sass', 'ptx' or None: whether code NAME runs on MAJOR.MINOR
    (CUDA C++ Programming Guide, "Binary Compatibility", "PTX
    Compatibility"; 'a' exact, 'f' same family)."""
    kind, _, arch = name.partition("_")
    variant = arch[-1] if arch[-1] in "af" else ""
    cc = int(arch.rstrip("af"))
    ma, mi = cc // 10, cc % 10
    if kind == "lto":
        return None
    if variant == "a":
        ok = (ma, mi) == (major, minor)
    elif kind == "sm" or variant == "f":
        ok = ma == major and mi <= minor
    else:
        ok = (ma, mi) <= (major, minor)
    return ("sass" if kind == "sm" else "ptx") if ok else None


# PTX ISA -> the first CUDA whose driver loads it (NVIDIA PTX ISA release notes).
PTX_CUDA = {(8, 0): (12, 0), (8, 1): (12, 1), (8, 2): (12, 2), (8, 3): (12, 3), (8, 4): (12, 4),
            (8, 5): (12, 5), (8, 6): (12, 7), (8, 7): (12, 8), (8, 8): (12, 9), (9, 0): (13, 0),
            (9, 1): (13, 1)}


def verdict(archs, major, minor, driver_cuda=(99, 0)):
    """native, ptx_jit, ptx_too_new or no_code."""
    fits = {a: runs(a, major, minor) for a in archs}
    if "sass" in fits.values():
        return "native"
    ptx = [archs[a] for a, f in fits.items() if f == "ptx"]
    if not ptx:
        return "no_code"
    loads = [isa for isa in ptx if isa is None or PTX_CUDA.get(isa, (0, 0)) <= driver_cuda]
    return "ptx_jit" if loads else "ptx_too_new"
