"""Writes the hostile archives of tests/faults/archives.test.sh into a
folder: bomb.whl (METADATA and RECORD each inflate to 1 GiB of zeros from
about 1 MiB), members.whl (1,000,000 empty members; the zip64 end records
say how many) and a RECORD of 1,000,000 lines. Built with zlib and struct
in one pass, so it takes seconds, not minutes."""
import os
import struct
import sys
import zlib

out = sys.argv[1]
GIB = 1 << 30


def deflate_zeros(n):
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    chunk = bytes(16 << 20)
    parts = [c.compress(chunk) for _ in range(n // len(chunk))]
    parts.append(c.flush())
    return b"".join(parts), zlib.crc32(bytes(0))


def crc_zeros(n):
    crc, chunk = 0, bytes(16 << 20)
    for _ in range(n // len(chunk)):
        crc = zlib.crc32(chunk, crc)
    return crc


def write_zip(path, members):
    """MEMBERS: (name, method, crc, compressed bytes, uncompressed size)."""
    local, central = [], []
    off = 0
    for name, method, crc, data, size in members:
        n = name.encode()
        z64 = size >= 0xFFFFFFFF
        extra = struct.pack("<HHQQ", 1, 16, size, len(data)) if z64 else b""
        sz = 0xFFFFFFFF if z64 else size
        csz = 0xFFFFFFFF if z64 else len(data)
        h = struct.pack("<IHHHHHIIIHH", 0x04034B50, 45, 0, method, 0, 0x21, crc, csz, sz, len(n),
                        len(extra)) + n + extra
        local.append(h + data)
        cextra = struct.pack("<HHQQQ", 1, 24, size, len(data), off) if z64 else b""
        coff = 0xFFFFFFFF if z64 else off
        central.append(struct.pack("<IHHHHHHIIIHHHHHII", 0x02014B50, 45, 45, 0, method, 0, 0x21,
                                   crc, csz, sz, len(n), len(cextra), 0, 0, 0, 0, coff) + n + cextra)
        off += len(h) + len(data)
    cd = b"".join(central)
    count = len(members)
    tail = b""
    if count >= 0xFFFF or off >= 0xFFFFFFFF:
        z64end = struct.pack("<IQHHIIQQQQ", 0x06064B50, 44, 45, 45, 0, 0, count, count, len(cd),
                             off)
        loc = struct.pack("<IIQI", 0x07064B50, 0, off + len(cd), 1)
        tail = z64end + loc
    end = struct.pack("<IHHHHIIH", 0x06054B50, 0, 0, min(count, 0xFFFF), min(count, 0xFFFF),
                      min(len(cd), 0xFFFFFFFF), min(off, 0xFFFFFFFF), 0)
    with open(path, "wb") as f:
        for part in local:
            f.write(part)
        f.write(cd)
        f.write(tail + end)


bomb, _ = deflate_zeros(GIB)
crc = crc_zeros(GIB)
write_zip(os.path.join(out, "bomb-1.0-py3-none-any.whl"),
          [("bomb-1.0.dist-info/METADATA", 8, crc, bomb, GIB),
           ("bomb-1.0.dist-info/WHEEL", 0, zlib.crc32(b"Wheel-Version: 1.0\n"),
            b"Wheel-Version: 1.0\n", 19),
           ("bomb-1.0.dist-info/RECORD", 8, crc, bomb, GIB)])

empty = zlib.crc32(b"")
write_zip(os.path.join(out, "members-1.0-py3-none-any.whl"),
          [(f"members/m{i:07d}.py", 0, empty, b"", 0) for i in range(1000000)])

with open(os.path.join(out, "RECORD"), "w") as f:
    digest = "sha256=47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU"
    f.writelines(f"torch/gen/f{i:07d}.py,{digest},0\n" for i in range(1000000))
