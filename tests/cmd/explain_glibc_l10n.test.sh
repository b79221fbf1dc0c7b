#!/usr/bin/env bash
# explain reads glibc's loader messages in every language of
# data/glibc_message_translations.tsv as the English they stand for: for each
# loader row, dlerror()'s line as Python repeats it ("ImportError: LIB:
# MESSAGE: ERRNO-TEXT", the errno text in the same language) must get the
# answer of the same line in English -- the first finding's kind and library
# -- and the four messages a load failure most often prints must get a
# finding at all. The same holds with the full-width colon a CJK input
# method types for dlerror()'s ": ", and for Java's UnsatisfiedLinkError,
# which prefixes the path. An errno text on its own (strerror in another
# program's message) is no loader failure in any language.
set -euo pipefail
exec /usr/bin/python3 - "$TD_BIN" "$TD_SRC" <<'P'
import os, sys
td, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "tests"))
from explain_score import explain_many

rows = []
for line in open(os.path.join(src, "data/glibc_message_translations.tsv"), encoding="utf-8"):
    line = line.rstrip("\n")
    if line and not line.startswith("#"):
        rows.append(line.split("\t"))
header, rows = rows[0], rows[1:]
M, R, L, T = (header.index(c) for c in ("message", "role", "language", "translation"))
enoent = {r[L]: r[T] for r in rows if r[R] == "errno" and r[M] == "No such file or directory"}
MUST = {"cannot open shared object file", "wrong ELF class: ELFCLASS32",
        "wrong ELF class: ELFCLASS64", "invalid ELF header"}

cases = []  # (what, text, english text)
for r in rows:
    if r[R] != "loader":
        continue
    lib = "/opt/app/lib/libfoo.so.1"
    errno_en, errno_tr = ("No such file or directory", enoent.get(r[L])) \
        if r[M] == "cannot open shared object file" else (None, None)
    tail_en = f": {errno_en}" if errno_tr else ""
    tail_tr = f": {errno_tr}" if errno_tr else ""
    en = f"ImportError: {lib}: {r[M]}{tail_en}"
    cases.append((f"{r[L]} {r[M]!r}", f"ImportError: {lib}: {r[T]}{tail_tr}", en))
    if r[L].startswith("zh") or r[L] in ("ja", "ko"):
        cases.append((f"{r[L]} {r[M]!r} (full-width colons)",
                      f"ImportError: {lib}\uff1a{r[T]}{tail_tr.replace(': ', chr(0xff1a))}", en))
    if r[M] == "cannot open shared object file":
        java = ("Exception in thread \"main\" java.lang.UnsatisfiedLinkError: /opt/app/lib/libfoo_jni.so: "
                f"libbar.so.2: %s{'%s'}\n\tat java.lang.ClassLoader$NativeLibrary.load(Native Method)")
        cases.append((f"{r[L]} {r[M]!r} (Java)", java % (r[T], tail_tr), java % (r[M], tail_en)))

texts = [t for _, t, _ in cases] + [e for _, _, e in cases]
answers = explain_many(td, texts)
n = len(cases)

def key(answer):
    error, d = answer
    if error:
        return ("error", error)
    f = d["findings"][0] if d["findings"] else {}
    return (f.get("kind"), f.get("library") or f.get("needed_by"))

bad = 0
for i, (what, text, en) in enumerate(cases):
    got, want = key(answers[i]), key(answers[n + i])
    if got != want:
        print(f"FAIL: {what}: {got} where the English gets {want}\n  {text!r}"); bad += 1
    elif want[0] is None and any(m in en for m in MUST):
        print(f"FAIL: {what}: no finding, in English either\n  {en!r}"); bad += 1

# strerror's text alone, in another program's message: no loader failure
alone = [f"cp: cannot stat '/tmp/x/y.txt': {t}" for t in sorted(set(enoent.values()))]
for t, answer in zip(alone, explain_many(td, alone)):
    if key(answer)[0] is not None:
        print(f"FAIL: {t!r}: a finding {key(answer)} for an errno text alone"); bad += 1
print(f"{n} translated loader lines, each as its English; {len(alone)} errno texts alone; {bad} wrong")
sys.exit(1 if bad else 0)
P
