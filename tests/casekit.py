"""Helpers shared by the Python case scripts under tests/: record a failed
check (and go on with the others) and end with the exit status they
decide, run torchdoctor with --format json and get its document and exit
status back, validate a report against the schema, pick findings by kind,
build a small shared library, run a shell command that must work.

A script finds this module with the one preamble line
    sys.path.insert(0, os.path.join(os.environ["TD_SRC"], "tests"))
(TD_SRC, TD_BIN and TD_FIXTURES are set for every test by tests.cmake); a
shell test's here-document runs under casekit_py (tests/check.sh), which
puts it on PYTHONPATH. The shell side of this: tests/check.sh (check,
fail) and tests/windows/wine_prefix.sh (a fresh WINEPREFIX)."""
import json
import os
import re
import subprocess
import sys

TD = os.environ.get("TD_BIN", "")
SRC = os.environ.get("TD_SRC", "")
SCHEMA = os.path.join(SRC, "schema", "report.schema.json")
NO_HOME = "/nonexistent"

failures = []
show_ok = False  # a script that lists its passed checks too sets this


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)
    elif show_ok:
        print("ok:", what)


def finish(label=None, extra=""):
    """Print the failure count (after LABEL, before EXTRA) and exit 1 if
    any check failed, else 0."""
    print(f"{label + ': ' if label else ''}{len(failures)} failures{extra}")
    sys.exit(1 if failures else 0)


def sh(cmd, cwd=None):
    subprocess.run(cmd, shell=True, check=True, cwd=cwd)


def validate(doc):
    import jsonschema
    schema = json.load(open(SCHEMA))
    schema.pop("$id", None)
    jsonschema.Draft202012Validator(schema).validate(doc)


def td_json(cmd, *args, env=None, cwd=None, timeout=None, schema=False, strict=False, prog=None,
            what=None, tail=400):
    """Run `torchdoctor CMD --format json ARGS` (PROG instead of [TD_BIN]:
    wine and the .exe) and return (exit status, parsed document). The exit
    being 0 or 1 is a check, named WHAT (default CMD) and the exit status
    (STRICT: no check, a bad exit stops the script);
    SCHEMA: the document must validate against report.schema.json."""
    p = subprocess.run([*(prog or [TD]), cmd, "--format", "json", *args], capture_output=True, text=True,
                       env=env, cwd=cwd, timeout=timeout)
    ok = p.returncode in (0, 1)
    what = cmd if what is None else what
    msg = f"{what + ': ' if what else ''}exit {p.returncode}: {p.stderr[-tail:]}"
    if strict and not ok:
        raise SystemExit(msg)
    if not strict:
        check(ok, msg)
    doc = json.loads(p.stdout.replace("\r", ""))
    if schema:
        validate(doc)
    return p.returncode, doc


def check_py(py, *extra, env=None, **kw):
    """`torchdoctor check --no-gpu --python PY` with HOME gone (no user
    site): (exit status, document)."""
    return td_json("check", "--no-gpu", "--python", py, *extra,
                   env=env if env is not None else dict(os.environ, HOME=NO_HOME), **kw)


def kinds(doc, kind, severity=None):
    """DOC's findings of KIND (and SEVERITY), in report order."""
    return [f for f in doc["findings"] if f["kind"] == kind and (severity is None or f["severity"] == severity)]


def by_library(doc, kind):
    """DOC's findings of KIND, keyed by the library each names."""
    return {f["library"]: f for f in kinds(doc, kind)}


GPU_VARS = ("TD_FAKE", "LD_LIBRARY_PATH", "CUDA_VISIBLE", "PYTORCH")  # what picks or fakes a GPU


def env_without(*prefixes):
    """os.environ less every variable whose name starts with one of PREFIXES."""
    return {k: v for k, v in os.environ.items() if not k.startswith(prefixes)}


def shared_lib(out, soname, needs=(), rpath=None, libdirs=(), fn=None):
    """gcc a shared library OUT with SONAME and a function FN (named after
    the soname unless given), linked
    against NEEDS (found in LIBDIRS, kept as DT_NEEDED), RPATH as DT_RPATH."""
    args = ["gcc", "-shared", "-fPIC", "-o", out, "-x", "c", "-", f"-Wl,-soname,{soname}",
            "-Wl,--no-as-needed"]
    if rpath:
        args += ["-Wl,--disable-new-dtags", f"-Wl,-rpath,{rpath}"]
    args += [f"-L{d}" for d in libdirs] + [f"-l:{n}" for n in needs]
    fn = fn or re.sub(r"[^a-z]", "_", soname)
    subprocess.run(args, input=f"int {fn}(void) {{ return 0; }}\n", text=True, check=True)


def table(name):
    """data/NAME.tsv as a list of dicts keyed by its header row (# lines and blank ones skipped)."""
    rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(SRC, "data", name + ".tsv"), encoding="utf-8")
            if l.strip() and not l.startswith("#")]
    return [dict(zip(rows[0], r)) for r in rows[1:]]


def check_schema(doc, what="schema"):
    """A check that DOC validates against report.schema.json (its message
    the first error), for scripts that go on with the other checks."""
    import jsonschema
    schema = json.load(open(SCHEMA))
    schema.pop("$id", None)
    try:
        jsonschema.validate(doc, schema)
        check(True, what)
    except jsonschema.ValidationError as e:
        check(False, f"{what}: {e.message}")
