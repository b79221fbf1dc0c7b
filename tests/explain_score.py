"""How tests/cmd/explain_corpus.test.sh and tests/cmd/explain_fresh.test.sh
score `explain` on one real text: the first finding's kind must be one of the
expected kinds and its library (or, for a symbol missing from an unnamed
library, its needed_by) the expected file, compared by base name without
case, or by the name before its first dot; an entry expecting no library
wants a first finding without one.

A script finds this module with
    sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))"""
import json
import os
import re
import subprocess

import jsonschema


def validator(src):
    """The report schema's validator."""
    schema = json.load(open(os.path.join(src, "schema/report.schema.json")))
    schema.pop("$id", None)
    return jsonschema.Draft202012Validator(schema)


def base(p):
    return re.split(r"[\\/]", p.strip())[-1].strip().lower()


def same_file(got, want):
    g, w = base(got), want.lower()
    return g == w or g.split(".")[0] == w.split(".")[0]


def judge(td, check, c, docs=None):
    """Run explain on entry c's text. Returns (error, right, miss): error is a
    message when explain crashed, exited other than 0/1, or printed a document
    that is not JSON or not valid against the schema (check), else None; miss
    is the line describing a wrong answer, else None. The document is appended
    to the list DOCS when one is given."""
    out = subprocess.run([td, "explain", "--format", "json", "-"], input=c["text"].encode(),
                         capture_output=True)
    if out.returncode not in (0, 1):
        return f"exit {out.returncode}: {out.stderr.decode()[:200]}", False, None
    try:
        d = json.loads(out.stdout)
        check.validate(d)
    except (ValueError, jsonschema.ValidationError) as e:
        return f"bad JSON: {str(e)[:200]}", False, None
    if docs is not None:
        docs.append(d)
    f = d["findings"][0] if d["findings"] else {}
    lib = f.get("library") or f.get("needed_by")
    kind_ok = f.get("kind") in c["kind"]
    lib_ok = (not c["library"] and not f.get("library")) or \
             (lib is not None and any(same_file(lib, w) for w in c["library"]))
    if kind_ok and lib_ok:
        return None, True, None
    return None, False, (f"  {c['url']}: got {f.get('kind')} {lib!r}, want {'|'.join(c['kind'])} "
                         f"{'|'.join(c['library']) or 'no library'}")


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
