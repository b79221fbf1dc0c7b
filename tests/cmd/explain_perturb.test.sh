#!/usr/bin/env bash
# The same problem pasted differently gets the same answer (issue 25, item 5).
# Every text of the corpora (tests/cmd/explain_corpus.json, explain_heldout.json,
# explain_fresh_a.json, explain_fresh_b.json, explain_fresh_c.json, explain_fresh_d.json,
# explain_fresh_e.json, explain_fresh_g.json, explain_fresh_h.json, explain_fresh_f1.json,
# explain_fresh_f2.json, explain_fresh_i.json (open), explain_fresh_k.json (open),
# explain_fresh_j1.json and explain_fresh_j2.json (open), explain_fresh_m.json (open),
# explain_fresh_l1.json and explain_fresh_l2.json (open), explain_fresh_o3.json (open),
# explain_fresh_o1.json (open), explain_fresh_o4.json (open), explain_fresh_o2.json (open),
# explain_fresh_n1.json and explain_fresh_n2.json (opened),
# explain_fresh_p1.json and explain_fresh_p2.json (opened), explain_fresh_o5.json (open),
# explain_fresh_o6.json (open),
# explain_fresh_o7.json (open),
# explain_fresh_o8.json (open),
# explain_fresh_o9.json (open),
# explain_fresh_o10.json (open),
# explain_fresh_q1.json and explain_fresh_q2.json (opened),
# explain_fresh_r1.json and explain_fresh_r2.json (opened),
# explain_fresh_s1.json and explain_fresh_s2.json (opened),
# explain_fresh_o14.json (open),
# explain_fresh_o13.json (open),
# explain_fresh_o11.json (open),
# explain_fresh_o12.json (open),
# explain_fresh_o15.json (open),
# explain_fresh_o16.json (open),
# explain_fresh_o18.json (open),
# explain_fresh_o19.json (open),
# explain_fresh_o20.json (open),
# explain_fresh_o21.json (open),
# explain_fresh_o22.json (open),
# explain_fresh_o23.json (open),
# explain_fresh_o17.json (open),
# explain_fresh_o24.json (open),
# explain_fresh_o25.json (open),
# explain_fresh_o26.json (open),
# explain_fresh_o28.json (open),
# explain_fresh_o29.json (open),
# explain_fresh_o27.json (open),
# explain_fresh_o30.json (open),
# explain_fresh_o31.json (open),
# explain_fresh_o32.json (open),
# explain_fresh_o36.json (open),
# explain_fresh_o34.json (open),
# explain_fresh_u1.json and explain_fresh_u2.json (opened),
# explain_fresh_o33.json (open),
# explain_fresh_o35.json (open),
# explain_fresh_o37.json (open),
# explain_fresh_o39.json (open),
# explain_fresh_o38.json (open),
# explain_fresh_v1.json, explain_fresh_v2.json and explain_fresh_v3.json (opened),
# explain_fresh_w1.json, explain_fresh_w2.json and explain_fresh_w3.json (opened),
# explain_fresh_x1.json, explain_fresh_x2.json and explain_fresh_x3.json (opened),
# explain_fresh_y1.json, explain_fresh_y2.json and explain_fresh_y3.json (opened),
# explain_fresh_o40.json (open),
# explain_fresh_o41.json (open),
# explain_fresh_o43.json (open),
# explain_fresh_o42.json (open),
# explain_fresh_o45.json (open),
# explain_fresh_o44.json (open),
# explain_fresh_o46.json (open),
# explain_fresh_o47.json (open),
# explain_fresh_o48.json (open),
# explain_fresh_o49.json (open),
# explain_fresh_o51.json (open),
# explain_fresh_o50.json (open),
# explain_fresh_o54.json (open),
# explain_fresh_o53.json (open),
# explain_fresh_o52.json (open),
# explain_fresh_o55.json (open),
# explain_families.json and the composed explain_shapes.json) is perturbed the ways users paste it -- user names,
# drive letters and folders changed; versions bumped; hard-wrapped at 80
# columns (inside words too); only its last line; each line behind a log
# timestamp; backslashes turned into forward slashes; retyped with curly
# quotes; quoted in a reply ("> " before each line); under pytest ("E   "
# before each line); escaped on one line as a JSON log's record and as
# Python's repr of the exception; the English Windows
# message replaced by the same message in each display language that
# data/windows_error_messages.tsv knows (zh-CN, ja, ko, ru, de, fr, es, pt-BR, it);
# glibc's English loader message (and the errno text dlerror() puts after it)
# replaced by glibc's own translation in the same nine languages
# (data/glibc_message_translations.tsv)
# -- and each variant must get the unperturbed answer: the first finding's
# kind and library (or needed_by). Prints the stability per perturbation and
# overall, and every variant that changed; fails under 95% overall or for any
# one perturbation (99% for the curly quotes, the reply's "> " and pytest's
# "E   ", 96% for the JSON log, 95% for the repr) -- a regression in one way
# of pasting is not hidden by the others.
# "Only the last line" is asked only of texts whose last line is an error
# message of its own (it says error, failed, not found, cannot, unable) and
# names the answer's file (or the answer has none): a file named only on an
# earlier line, or the tail of a message wrapped over lines, cannot carry it.
set -euo pipefail
exec /usr/bin/python3 - "$TD_BIN" "$TD_SRC" <<'P'
import json, os, re, sys, collections
td, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "tests"))
from explain_score import explain_many
here = os.path.join(src, "tests/cmd")
texts = []
for name in ("explain_corpus.json", "explain_heldout.json", "explain_fresh_a.json",
             "explain_fresh_b.json", "explain_fresh_c.json", "explain_fresh_d.json",
             "explain_fresh_e.json", "explain_fresh_g.json",
             "explain_fresh_h.json", "explain_fresh_f1.json", "explain_fresh_f2.json",
             "explain_fresh_i.json", "explain_fresh_k.json",
             "explain_fresh_j1.json", "explain_fresh_j2.json", "explain_fresh_m.json",
             "explain_fresh_l1.json", "explain_fresh_l2.json",
             "explain_fresh_o3.json", "explain_fresh_o1.json", "explain_fresh_o4.json",
             "explain_fresh_o2.json", "explain_fresh_n1.json", "explain_fresh_n2.json",
             "explain_fresh_p1.json", "explain_fresh_p2.json", "explain_fresh_o5.json",
             "explain_fresh_o6.json",
             "explain_fresh_o7.json",
             "explain_fresh_o8.json",
             "explain_fresh_o9.json",
             "explain_fresh_o10.json",
             "explain_fresh_q1.json", "explain_fresh_q2.json",
             "explain_fresh_r1.json", "explain_fresh_r2.json",
             "explain_fresh_s1.json", "explain_fresh_s2.json",
             "explain_fresh_o14.json",
             "explain_fresh_o13.json",
             "explain_fresh_o11.json",
             "explain_fresh_o12.json",
             "explain_fresh_o15.json",
             "explain_fresh_o16.json",
             "explain_fresh_o18.json",
             "explain_fresh_o19.json",
             "explain_fresh_o20.json",
             "explain_fresh_o21.json",
             "explain_fresh_o22.json",
             "explain_fresh_o23.json",
             "explain_fresh_o17.json",
             "explain_fresh_o24.json",
             "explain_fresh_o25.json",
             "explain_fresh_o26.json",
             "explain_fresh_o28.json",
             "explain_fresh_o29.json",
             "explain_fresh_o27.json",
             "explain_fresh_o30.json",
             "explain_fresh_o31.json",
             "explain_fresh_o32.json",
             "explain_fresh_o36.json",
             "explain_fresh_o34.json",
             "explain_fresh_u1.json", "explain_fresh_u2.json",
             "explain_fresh_o33.json",
             "explain_fresh_o35.json",
             "explain_fresh_o37.json",
             "explain_fresh_o39.json",
             "explain_fresh_o38.json",
             "explain_fresh_v1.json", "explain_fresh_v2.json", "explain_fresh_v3.json",
             "explain_fresh_w1.json", "explain_fresh_w2.json", "explain_fresh_w3.json",
             "explain_fresh_x1.json", "explain_fresh_x2.json", "explain_fresh_x3.json",
             "explain_fresh_y1.json", "explain_fresh_y2.json", "explain_fresh_y3.json",
             "explain_fresh_o40.json",
             "explain_fresh_o41.json",
             "explain_fresh_o43.json",
             "explain_fresh_o42.json",
             "explain_fresh_o45.json",
             "explain_fresh_o44.json",
             "explain_fresh_o46.json",
             "explain_fresh_o47.json",
             "explain_fresh_o48.json",
             "explain_fresh_o49.json",
             "explain_fresh_o51.json",
             "explain_fresh_o50.json",
             "explain_fresh_o54.json",
             "explain_fresh_o53.json",
             "explain_fresh_o52.json",
             "explain_fresh_o55.json",
             "explain_families.json",
             "explain_shapes.json"):
    path = os.path.join(here, name)
    if not os.path.exists(path):
        print(f"skipped: {name} is not in the tree"); continue
    texts += [c["text"] for c in json.load(open(path, encoding="utf-8"))]
if not texts:
    print("skipped: no corpus"); sys.exit(0)
# Under a sanitizer each explain is ten times slower: a fixed quarter of the
# texts (every fourth) still puts every kind of variant through the
# sanitized reader, and the plain build runs them all.
if os.environ.get("TD_SANITIZE") == "ON":
    print(f"under a sanitizer: every fourth text ({len(texts[::4])} of {len(texts)}); "
          "the plain build perturbs them all")
    texts = texts[::4]

# The Windows messages, per code and language (the canonical English text first).
msgs = collections.defaultdict(dict)
english = {}
for line in open(os.path.join(src, "data/windows_error_messages.tsv"), encoding="utf-8"):
    if line.startswith("#") or not line.strip() or line.startswith("code\t"):
        continue
    code, name, lang, canon, msg = line.rstrip("\n").split("\t")[:5]
    if lang == "en":
        english.setdefault(code, []).append(msg)
    elif lang.split("-")[0] in ("zh", "ja", "ko", "ru", "de", "fr", "es", "pt", "it") and lang != "zh-TW":
        msgs[code].setdefault(lang.split("-")[0], msg)

# glibc's loader messages and errno texts, per language (glibc's po names)
GLIBC_LANGS = ("zh_CN", "ja", "ko", "ru", "de", "fr", "es", "pt_BR", "it")
glibc = {"loader": collections.defaultdict(dict), "errno": collections.defaultdict(dict)}
for line in open(os.path.join(src, "data/glibc_message_translations.tsv"), encoding="utf-8"):
    if line.startswith("#") or not line.strip() or line.startswith("message\t"):
        continue
    msg, role, lang, tr = line.rstrip("\n").split("\t")[:4]
    if lang in GLIBC_LANGS:
        glibc[role][msg][lang] = tr

def answer(error, doc):
    if error and error.startswith("exit "):
        return (error.split(":")[0], None)
    if error:
        print(f"FAIL: explain printed {error}"); sys.exit(1)
    f = (doc["findings"] or [{}])[0]
    lib = f.get("library") or f.get("needed_by")
    return (f.get("kind"), re.split(r"[\\/]", lib.strip())[-1].lower() if lib else None)

def users(t):
    t = re.sub(r"(?i)([\\/](Users|home)[\\/])[^\\/\s\"']+", lambda m: m.group(1) + "Zoë_Müller", t)
    t = re.sub(r"\b[C-H]:\\", r"Q:\\", t)
    t = re.sub(r"\b[C-H]:/", "Q:/", t)
    return re.sub(r"(?i)(anaconda3|miniconda3)", "miniforge3", t)

def bump(t):
    # versions outside file names: 2.4.0 -> 2.4.1, 3.10.12 -> 3.10.13, "Python 3.10" -> 3.11
    t = re.sub(r"((?:torch|Python|python|CUDA|cuda|cuDNN|version)[ =:v]*)(\d+)\.(\d+)(?![.\d])",
               lambda m: f"{m.group(1)}{m.group(2)}.{int(m.group(3)) + 1}", t)
    return re.sub(r"(?<![\w.])(\d+)\.(\d+)\.(\d+)(?![\w.]*\.(so|dll|dylib|pyd)\b)(?![.\w])",
                  lambda m: f"{m.group(1)}.{m.group(2)}.{int(m.group(3)) + 1}", t)

def wrap(t):
    out = []
    for line in t.split("\n"):
        while len(line) > 80:
            out.append(line[:80]); line = line[80:]
        out.append(line)
    return "\n".join(out)

def last_line(t):
    lines = [l for l in t.split("\n") if l.strip()]
    return lines[-1] if lines else t

def stamped(t):
    return "\n".join(f"2025-03-14 09:26:53,589 - ERROR - {l}" if i % 2 == 0 else
                     f"[2025-03-14T09:26:53.589Z] {l}" for i, l in enumerate(t.split("\n")))

def slashes(t):
    # a path's separators; not an escape of Python's repr ("\\n  Referenced from")
    return re.sub(r"\\(?!n[ \t])", "/", t)

def curly(t):
    # retyped in an editor that curls quotes: an opening one after a blank or
    # a bracket, a closing one elsewhere (a backtick opens)
    t = re.sub(r"(^|[\s(\[{=:])['`]", lambda m: m.group(1) + "\u2018", t, flags=re.M)
    t = t.replace("'", "\u2019").replace("`", "\u2018")
    t = re.sub(r'(^|[\s(\[{=:])"', lambda m: m.group(1) + "\u201c", t, flags=re.M)
    return t.replace('"', "\u201d")

def replied(t):
    # quoted in a reply (Markdown, mail): "> " before every line
    return "\n".join("> " + l if l else ">" for l in t.split("\n"))

def pytest_e(t):
    # pytest's report of the exception: "E   " before each of its lines
    return "\n".join("E   " + l for l in t.split("\n"))

def json_log(t):
    # one record of a structured (JSON) log: the message escaped on one line
    return json.dumps({"level": "error", "msg": t}, ensure_ascii=False)

def repr_line(t):
    # Python's repr of the exception, printed on one line
    return "Exception(" + repr(t) + ")"

def translations(t):
    for code, ens in english.items():
        for en in ens:
            if en in t or en.rstrip(".") in t:
                for lang, msg in sorted(msgs[code].items()):
                    yield lang, t.replace(en if en in t else en.rstrip("."), msg)

def glibc_translations(t):
    # as a desktop in LANG prints it: each loader message, and the errno text
    # right after it and its ": ", in glibc's translation
    for lang in GLIBC_LANGS:
        v = t
        for en, per in glibc["loader"].items():
            if lang not in per or en not in v:
                continue
            for een, eper in glibc["errno"].items():
                if lang in eper:
                    v = v.replace(f"{en}: {een}", f"{per[lang]}: {eper[lang]}")
            v = v.replace(en, per[lang])
        if v != t:
            yield lang, v

# a line that is an error message on its own, not the tail of a wrapped one
ERROR_LINE = re.compile(r"(Error|error|failed|Failed|not found|cannot|Cannot|[Uu]nable|Could not)\b")
# a user's sentence about the error ("I was facing this error", "If I install
# 2.1.1 it works without the error.") is prose, not a message: a line that
# names no file is an error message only in a message's own shape -- an
# exception or error word followed by its colon or parenthesis, or an
# "error:"/"failed:" a program prints
MESSAGE_SHAPE = re.compile(r"\b[A-Za-z_.]*(Error|Exception|Warning)\b\s*[:(]|\b(error|ERROR|failed|FAILED|Failed)\b\s*[:#(]")

def digits(lib):
    return re.sub(r"\d+", "#", lib) if lib else lib

# explain answers a chunk of texts per process (`explain --each`, each as if
# given alone), as many processes at once as there are cores: the answers
# are the same in any order, and the suite's time stays bounded as the
# corpora grow
def answers(batch):
    return [answer(*a) for a in explain_many(td, batch)]

bases = answers(texts)
jobs = []
for i, t in enumerate(texts):
    base = bases[i]
    variants = [("users", users(t)), ("versions", bump(t)), ("wrap80", wrap(t)),
                ("timestamps", stamped(t)), ("slashes", slashes(t)), ("curly", curly(t)),
                ("replied", replied(t)), ("pytest", pytest_e(t)), ("json_log", json_log(t)),
                ("repr", repr_line(t))]
    ll = last_line(t)
    if ll != t and ERROR_LINE.search(ll) and (base[1] in ll.lower() if base[1] else MESSAGE_SHAPE.search(ll)):
        variants.append(("last_line", ll))
    variants += [("lang-" + lang, v) for lang, v in translations(t)]
    variants += [("glibc-" + lang, v) for lang, v in glibc_translations(t)]
    jobs += [(i, what, v) for what, v in variants if v != t]
got_all = answers([v for _, _, v in jobs])

stats = collections.Counter(); same = collections.Counter(); changed = []
for (i, what, v), got in zip(jobs, got_all):
    base = bases[i]
    ok = got == base or (what == "versions" and got[0] == base[0] and digits(got[1]) == digits(base[1]))
    key = "language" if what.startswith("lang-") else "glibc" if what.startswith("glibc-") else what
    stats[key] += 1
    same[key] += ok
    if not ok:
        changed.append(f"  text {i} {what}: {base} -> {got}")
total, stable = sum(stats.values()), sum(same.values())
for k in sorted(stats):
    print(f"  {k:<11} {same[k]}/{stats[k]}")
share = stable / total if total else 1
print(f"explain perturbation: {stable}/{total} variants of {len(texts)} texts kept their answer ({share:.1%})")
for c in changed:
    print(c)
# the ways of quoting a text that the cleaner undoes (session 19: curly
# quotes, a reply's "> ", pytest's "E   ") are held closer: on main before
# they were undone 86%, 97.6% and 96.6% of their variants kept their answer;
# a message escaped on one line (a JSON log's record, Python's repr) kept it
# in 88.2% and 90.6%, and 98.2% and 97.4% once such a line was read whole
# glibc's translated messages (session 20): 838 of 2,358 variants on main
# (35.5%), 2,358 once glibc's translations were read as their English
floors = {"curly": 0.99, "replied": 0.99, "pytest": 0.99, "json_log": 0.98, "repr": 0.98,
          "glibc": 0.99}
weak = [k for k in stats if same[k] / stats[k] < floors.get(k, 0.95)]
for k in weak:
    print(f"FAIL: {k}: under {floors.get(k, 0.95):.0%} of its variants kept their answer")
sys.exit(0 if share >= 0.95 and not weak else 1)
P
