#!/usr/bin/env bash
# data/glibc_message_translations.tsv judged by the real artefact: glibc's
# own translations, compiled by Debian into /usr/share/locale/LANG/
# LC_MESSAGES/libc.mo (package libc-l10n, in scripts/install-deps.sh's test
# list). Each .mo is decoded here (GNU gettext's format: a magic number, the
# count, two tables of (length, offset) pairs for the msgids and their
# msgstrs) and every row must be that language's msgstr for its message,
# exactly; every message of the table must be a msgid of glibc's; and a
# language the table has must not lack a message its libc.mo translates (a
# newer glibc that adds one shows up here). Says "skipped" and passes when
# libc-l10n is not installed.
set -euo pipefail
exec /usr/bin/python3 - "$TD_SRC" <<'P'
import os, struct, subprocess, sys
src = sys.argv[1]
LOCALE = "/usr/share/locale"

def read_mo(path):
    """msgid -> msgstr of a GNU .mo file (the first form of a plural)."""
    b = open(path, "rb").read()
    magic = struct.unpack("<I", b[:4])[0]
    end = "<" if magic == 0x950412DE else ">" if magic == 0xDE120495 else None
    if end is None:
        raise ValueError(f"{path}: not a .mo file")
    _rev, n, ids, strs = struct.unpack(end + "4I", b[4:20])
    out = {}
    for i in range(n):
        il, io = struct.unpack(end + "2I", b[ids + 8 * i:ids + 8 * i + 8])
        sl, so = struct.unpack(end + "2I", b[strs + 8 * i:strs + 8 * i + 8])
        msgid = b[io:io + il].split(b"\0")[0].decode("utf-8")
        out[msgid] = b[so:so + sl].split(b"\0")[0].decode("utf-8")
    return out

rows = []
for line in open(os.path.join(src, "data/glibc_message_translations.tsv"), encoding="utf-8"):
    line = line.rstrip("\n")
    if not line or line.startswith("#"):
        continue
    rows.append(line.split("\t"))
header, rows = rows[0], rows[1:]
col = {name: header.index(name) for name in ("message", "role", "language", "translation", "source")}

mos = {}
for lang in sorted({r[col["language"]] for r in rows}):
    path = os.path.join(LOCALE, lang, "LC_MESSAGES", "libc.mo")
    if os.path.exists(path):
        mos[lang] = read_mo(path)
if not mos:
    print("skipped: libc-l10n is not installed (no libc.mo under /usr/share/locale)")
    sys.exit(0)
try:
    version = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "libc-l10n"],
                             capture_output=True, text=True).stdout or "?"
except OSError:
    version = "?"

bad = checked = 0
english = {m: d for d in mos.values() for m in d}  # every msgid glibc has
for r in rows:
    msg, role, lang, tr, source = (r[col[k]] for k in ("message", "role", "language", "translation", "source"))
    if role not in ("loader", "errno"):
        print(f"FAIL: {lang} {msg!r}: role {role!r} is neither loader nor errno"); bad += 1
    if f"po/{lang}.po" not in source or msg not in source:
        print(f"FAIL: {lang} {msg!r}: the source does not name po/{lang}.po and the msgid"); bad += 1
    if msg not in english:
        print(f"FAIL: {msg!r} is no msgid of glibc's libc.mo"); bad += 1
    if lang not in mos:
        continue
    got = mos[lang].get(msg)
    checked += 1
    if got != tr:
        print(f"FAIL: {lang} {msg!r}: the table has {tr!r}, glibc's libc.mo ({version}) has {got!r}"); bad += 1
have = {(r[col["language"]], r[col["message"]]) for r in rows}
for lang, d in mos.items():
    for msg in sorted({r[col["message"]] for r in rows}):
        if d.get(msg) and d[msg] != msg and (lang, msg) not in have:
            print(f"FAIL: {lang} translates {msg!r} as {d[msg]!r}: no row"); bad += 1
print(f"{checked} of {len(rows)} rows checked against libc.mo of libc-l10n {version} "
      f"({len(mos)} languages installed); {bad} wrong")
sys.exit(1 if bad else 0)
P
