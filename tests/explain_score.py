"""How tests/cmd/explain_corpus.test.sh and tests/cmd/explain_fresh.test.sh
score `explain` on one real text: the first finding's kind must be one of the
expected kinds and its library (or, for a symbol missing from an unnamed
library, its needed_by) the expected file, compared by base name without
case, or by the name before its first dot; an entry expecting no library
wants a first finding without one, except that a driver-level finding
(DRIVER_KINDS) may name the platform's driver library (DRIVER_FILES), and a
GPU-architecture finding may name torch's CUDA library (ARCH_FILES), as
issue 25 asks of every finding.

explain runs over many texts at once with `explain --each --format jsonl`
(explain_many): one process answers a chunk of texts, each as if it were
given alone, so a test pays a process start-up (costly under the sanitizers)
per chunk, not per text. judge() runs one process for one text, the way a
user pastes one.

A script finds this module with
    sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))"""
import json
import os
import re
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor

import jsonschema


def validator(src):
    """The report schema's validator."""
    schema = json.load(open(os.path.join(src, "schema/report.schema.json")))
    schema.pop("$id", None)
    return jsonschema.Draft202012Validator(schema)


def base(p):
    return re.split(r"[\\/]", p.strip())[-1].strip().lower()


# Issue 25, item 2: "for driver-level errors, the platform's driver library
# (libcuda.so.1, nvcuda.dll)". The collectors' brief told them to label such
# a text with no file, so an entry with no library accepts these names for
# these kinds and no other file.
DRIVER_KINDS = {"cuda_driver_too_old", "gpu_not_visible"}
DRIVER_FILES = {"libcuda.so.1", "libcuda.so", "nvcuda.dll"}
# Issue 25, item 2 again: "Every finding names a file". A GPU with no code in
# the torch build is a fault of the library that holds torch's kernels
# (libtorch_cuda.so, torch_cuda.dll; the _cu/_cpp halves of torch 1.9-1.12),
# which explain names; the collectors labelled such a text with no file.
ARCH_KINDS = {"gpu_arch_unsupported"}
ARCH_FILES = {"libtorch_cuda.so", "torch_cuda.dll", "libtorch_cuda_cu.so", "torch_cuda_cu.dll",
              "libtorch_cuda_cpp.so", "torch_cuda_cpp.dll"}


def no_file_wanted(f):
    """Whether finding F names no file, as an entry with no library wants, or only the
    driver library a driver-level finding names, or torch's CUDA library a GPU-architecture
    finding names."""
    lib = f.get("library")
    return not lib or (f.get("kind") in DRIVER_KINDS and base(lib) in DRIVER_FILES) or \
        (f.get("kind") in ARCH_KINDS and base(lib) in ARCH_FILES)


def same_file(got, want):
    g, w = base(got), want.lower()
    return g == w or g.split(".")[0] == w.split(".")[0]


def explain_one(td, text):
    """`explain --format json -` on TEXT in a process of its own: (error, doc),
    error a message when explain crashed, exited other than 0/1 or printed
    something that is not JSON, else None."""
    out = subprocess.run([td, "explain", "--format", "json", "-"], input=text.encode("utf-8"),
                         capture_output=True)
    if out.returncode not in (0, 1):
        return f"exit {out.returncode}: {out.stderr.decode(errors='replace')[:200]}", None
    try:
        return None, json.loads(out.stdout)
    except ValueError as e:
        return f"bad JSON: {str(e)[:200]}", None


CHUNK = 64


def explain_many(td, texts, jobs=None):
    """explain_one's (error, doc) for every text of TEXTS, in order, from
    `explain --each --format jsonl` over chunks of CHUNK texts (each in a file
    of its own), as many processes at once as there are cores. A chunk whose
    process fails (an exit other than 0/1, a line that is not JSON, a line
    too few or too many) is run again one process per text, so the failure
    is named on the text that causes it; when every text of it is fine
    alone, its first text gets the error of the --each run."""
    texts = list(texts)
    with tempfile.TemporaryDirectory(prefix="td-explain-") as tmp:
        def chunk(start):
            part = texts[start:start + CHUNK]
            files = []
            for i, t in enumerate(part):
                f = os.path.join(tmp, f"{start + i}.txt")
                with open(f, "wb") as out:
                    out.write(t.encode("utf-8"))
                files.append(f)
            out = subprocess.run([td, "explain", "--each", "--format", "jsonl", "--"] + files,
                                 capture_output=True)
            lines = out.stdout.decode("utf-8", errors="replace").splitlines()
            try:
                if out.returncode not in (0, 1) or len(lines) != len(part):
                    raise ValueError
                return [(None, json.loads(line)) for line in lines]
            except ValueError:
                alone = [explain_one(td, t) for t in part]
                if all(error is None for error, _ in alone):
                    # --each failed where no text fails alone (a sanitizer's
                    # report at exit, a lost line): an error of the first
                    alone[0] = (f"explain --each exit {out.returncode}, {len(lines)} lines for "
                                f"{len(part)} texts, each alone fine: "
                                f"{out.stderr.decode(errors='replace')[:200]}", None)
                return alone
        with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 2) as pool:
            return [r for rs in pool.map(chunk, range(0, len(texts), CHUNK)) for r in rs]


def valid_answer(check, answer):
    """ANSWER, explain_one's (error, doc), with a document the schema (check)
    refuses turned into an error."""
    error, d = answer
    if error:
        return error, None
    try:
        check.validate(d)
    except jsonschema.ValidationError as e:
        return f"bad JSON: {str(e)[:200]}", None
    return None, d


def judge_answer(check, c, answer, docs=None):
    """Scores ANSWER, explain_one's (error, doc) for entry c's text. Returns
    (error, right, miss): error is a message when explain crashed, exited
    other than 0/1, or printed a document that is not JSON or not valid
    against the schema (check), else None; miss is the line describing a
    wrong answer, else None. The document is appended to the list DOCS when
    one is given."""
    error, d = valid_answer(check, answer)
    if error:
        return error, False, None
    if docs is not None:
        docs.append(d)
    f = d["findings"][0] if d["findings"] else {}
    lib = f.get("library") or f.get("needed_by")
    kind_ok = f.get("kind") in c["kind"]
    lib_ok = (not c["library"] and no_file_wanted(f)) or \
             (lib is not None and any(same_file(lib, w) for w in c["library"]))
    if kind_ok and lib_ok:
        return None, True, None
    return None, False, (f"  {c['url']}: got {f.get('kind')} {lib!r}, want {'|'.join(c['kind'])} "
                         f"{'|'.join(c['library']) or 'no library'}")


def judge_negative(check, c, answer):
    """Scores ANSWER for an entry of the negative set (tests/cmd/explain_negatives.json:
    a text with no loader failure, kind and library both empty): right when
    explain gives no finding at all. Returns (error, right, miss) as
    judge_answer does; miss names the finding explain invented."""
    error, d = valid_answer(check, answer)
    if error:
        return error, False, None
    if not d["findings"]:
        return None, True, None
    f = d["findings"][0]
    lib = f.get("library") or f.get("needed_by")
    return None, False, f"  {c['url']}: got {f.get('kind')} {lib!r}, want no finding ({c['cause']})"


def judge(td, check, c, docs=None):
    """judge_answer on entry c's text explained in a process of its own."""
    return judge_answer(check, c, explain_one(td, c["text"]), docs)


def judge_all(td, check, entries):
    """judge_answer for every entry, their texts explained by explain_many."""
    answers = explain_many(td, [c["text"] for c in entries])
    return [judge_answer(check, c, a) for c, a in zip(entries, answers)]


def on_users_machine(td, entries, answers):
    """ANSWERS (explain_many's for ENTRIES) as each user would get them on
    their own machine: a text with no sign of its platform is read as the
    machine explain runs on (platform_from "host"), which for these tests is
    Linux and for the user was the entry's platform; such a text is explained
    again with `--platform` set to the entry's (equal to the host's default
    when the text carries no sign). Every other answer is kept."""
    answers = list(answers)
    for i, (c, (error, d)) in enumerate(zip(entries, answers)):
        parts = ((d or {}).get("explain") or {}).get("parts") or {}
        if error or parts.get("platform_from") != "host" or parts.get("platform") == c["platform"]:
            continue
        out = subprocess.run([td, "explain", "--platform", c["platform"], "--format", "json", "-"],
                             input=c["text"].encode("utf-8"), capture_output=True)
        if out.returncode in (0, 1):
            try:
                answers[i] = (None, json.loads(out.stdout))
            except ValueError as e:
                answers[i] = (f"bad JSON: {str(e)[:200]}", None)
        else:
            answers[i] = (f"exit {out.returncode}: {out.stderr.decode(errors='replace')[:200]}", None)
    return answers


def unnamed_file(d):
    """The first library file the structural reading found in a text whose
    first finding names no library (nor needed_by), else None: every finding
    about a text that names a file must name one. A file the text names only
    in a list of three or more ("X, Y and Z are present", "listed") is
    mentioned, not singled out."""
    f = d["findings"][0] if d["findings"] else None
    files = [x for x in (d.get("explain") or {}).get("parts", {}).get("files") or []
             if not x.get("listed")]
    if f and files and not (f.get("library") or f.get("needed_by")):
        return files[0]["name"]
    return None
