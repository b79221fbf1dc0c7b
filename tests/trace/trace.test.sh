#!/usr/bin/env bash
# torchdoctor trace on real loads: fixture programs that fail in known ways
# (tests/fixtures/trace.sh), then Debian's python3-torch, whole and with a
# broken libc10 put first on LD_LIBRARY_PATH. Every JSON report validates
# against the contract's schema and is checked field by field.
set -euo pipefail
fx=$TD_FIXTURES/trace
schema=$TD_SRC/schema/report.schema.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# trace NAME [VAR=VALUE...] -- COMMAND...: JSON report in $tmp/NAME.json, exit status in $tmp/NAME.rc.
trace() {
    local name=$1
    shift
    local envs=()
    while [ "$1" != "--" ]; do envs+=("$1"); shift; done
    set +e
    env "${envs[@]}" "$TD_BIN" trace --quiet --format json --timeout 120 "$@" >"$tmp/$name.json" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
    set -e
}

trace missing -- "$fx/dl" libtd_nothere.so
trace skip32 LD_LIBRARY_PATH="$fx/dir32:$fx/dir64" -- "$fx/dl" libwa.so
trace only32 LD_LIBRARY_PATH="$fx/dir32" -- "$fx/dl" libwa.so
trace undef -- "$fx/dl" "$fx/libundef.so"
trace version -- "$fx/dl" "$fx/libneedver.so"
trace omp -- "$fx/dl" "$fx/libusesgomp.so" "$fx/omp/libomp.so.5"
trace diverge -- env LD_LIBRARY_PATH="$fx/dvalt" "$fx/needrun"
trace torch -- /usr/bin/python3 -c 'import torch'
mkdir -p "$tmp/broken"
printf 'not a library\n' >"$tmp/broken/libc10.so.1.13"
trace torch_broken LD_LIBRARY_PATH="$tmp/broken" -- /usr/bin/python3 -c 'import torch'
trace torch_launcher -- env LD_LIBRARY_PATH="$tmp/broken" /usr/bin/python3 -c 'import torch'
# --timeout kills the command; the report says so (no exit status). What it
# loaded before is checked in test_probe_trace.c, where the timeout is an
# event rather than the clock (here 0.5 s may end before libc is mapped).
"$TD_BIN" trace --quiet --format json --timeout 0.5 -- sleep 30 >"$tmp/timeout.json" || true
echo 0 >"$tmp/timeout.rc"
# A command that cannot be run is exit 2, not a report.
set +e
"$TD_BIN" trace --quiet -- "$tmp/no-such-program" 2>"$tmp/norun.err"
norun=$?
set -e
[ $norun -eq 2 ] || { echo "an unrunnable command must exit 2, got $norun"; exit 1; }
grep -q "cannot run" "$tmp/norun.err"
# A command that loads everything and then fails (a traceback, a crash) is no
# load problem, but the report's last line must not say "no problems found".
for cmd in "/usr/bin/python3 -c 'import sys; sys.exit(3)'|failed: exit status 3" \
           "sh -c 'kill -SEGV \$\$'|failed: killed by signal 11"; do
    set +e
    eval "\"\$TD_BIN\" trace --quiet --color never -- ${cmd%%|*}" >"$tmp/fails.txt" 2>/dev/null
    set -e
    last=$(tail -n 1 "$tmp/fails.txt")
    if [ "$last" = "no problems found" ] || [[ "$last" != *"${cmd#*|}"* ]]; then
        echo "trace of a failing command (${cmd%%|*}): last line '$last' must say it ${cmd#*|}"
        exit 1
    fi
done

/usr/bin/python3 - "$schema" "$tmp" "$fx" <<'P'
import json, os, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
schema.pop("$id", None)
validator = jsonschema.Draft202012Validator(schema)
tmp, fx = sys.argv[2], sys.argv[3]

def load(name):
    doc = json.load(open(f"{tmp}/{name}.json"))
    validator.validate(doc)
    assert doc["command"] == "trace", doc["command"]
    rc = int(open(f"{tmp}/{name}.rc").read())
    return doc, doc["trace"], rc

def lib(t, name):
    hits = [l for l in t["libraries"] if l["name"] == name]
    assert hits, (name, [l["name"] for l in t["libraries"]])
    return hits[-1]

def kinds(doc):
    return [(f["severity"], f["kind"]) for f in doc["findings"]]

# Missing library: the failure, who asked, every place tried (all absent).
doc, t, rc = load("missing")
assert rc == 1 and t["exit_status"] == 1, (rc, t["exit_status"])
assert kinds(doc) == [("error", "missing_library")], kinds(doc)
f = doc["findings"][0]
assert f["library"] == "libtd_nothere.so" and f["needed_by"] == f"{fx}/dl", f
# No package lists it: the distribution's file search, never "the package that ships".
assert ("apt-file search libtd_nothere.so" in f["fix"] or "dnf provides '*/libtd_nothere.so'" in f["fix"]) \
    and "package that ships" not in f["fix"], f["fix"]
assert t["failed"]["kind"] == "missing_library" and t["failed"]["library"] == "libtd_nothere.so"
miss = lib(t, "libtd_nothere.so")
assert miss["status"] == "missing" and miss["path"] is None, miss
assert len(miss["tried"]) > 3 and all(x["outcome"] == "absent" for x in miss["tried"]), miss["tried"]
assert "/usr/lib/libtd_nothere.so" in [x["path"] for x in miss["tried"]]
assert t["failed"]["tried"] == miss["tried"]
# A dlopen by bare name is not part of the static model (only what was mapped is a root).
assert t["failed"]["predicted"] is None, t["failed"]["predicted"]

# A 32-bit copy first on the path: glibc skips it, visibly, and loads the 64-bit one.
doc, t, rc = load("skip32")
assert rc == 0 and doc["findings"] == [] and t["failed"] is None, (rc, doc["findings"])
wa = lib(t, "libwa.so")
assert wa["status"] == "loaded" and wa["path"] == f"{fx}/dir64/libwa.so", wa
assert wa["found_via"] == "LD_LIBRARY_PATH" and wa["dlopened"] is True, wa
assert wa["tried"][0] == {"path": f"{fx}/dir32/libwa.so", "via": "LD_LIBRARY_PATH",
                          "outcome": "wrong ELF class"}, wa["tried"]
assert wa["tried"][-1]["outcome"] == "loaded"
searches = [e["path"] for e in t["events"] if e["event"] == "search"]
assert searches.index(f"{fx}/dir32/libwa.so") < searches.index(f"{fx}/dir64/libwa.so")

# Only the 32-bit copy: ld.so reports the wrong class.
doc, t, rc = load("only32")
assert rc == 1 and kinds(doc) == [("error", "wrong_architecture")], kinds(doc)
assert t["failed"]["message"] == "dl: libwa.so: wrong ELF class: ELFCLASS32", t["failed"]
assert doc["findings"][0]["library"] == "libwa.so"

# Undefined symbol under RTLD_NOW: the object is mapped, then unloaded.
doc, t, rc = load("undef")
assert rc == 1 and kinds(doc) == [("error", "missing_symbol")], kinds(doc)
f = doc["findings"][0]
assert f["symbol"] == "td_absent_fn" and f["needed_by"] == f"{fx}/libundef.so", f
assert lib(t, f"{fx}/libundef.so")["status"] == "unloaded"

# A version node the copy found lacks.
doc, t, rc = load("version")
assert rc == 1 and kinds(doc) == [("error", "missing_symbol_version")], kinds(doc)
f = doc["findings"][0]
assert (f["library"], f["needed_by"], f["symbol"]) == (
    f"{fx}/ver/libver.so", f"{fx}/libneedver.so", "VER_2"), f
assert lib(t, "libver.so")["found_via"] == "RPATH/RUNPATH"

# Two OpenMP runtimes really loaded.
doc, t, rc = load("omp")
assert rc == 0 and kinds(doc) == [("warning", "duplicate_runtime")], kinds(doc)
f = doc["findings"][0]
assert f["library"] == f"{fx}/omp/libomp.so.5" and "libgomp.so.1" in f["detail"], f
assert lib(t, "libgomp.so.1")["requested_by"] == f"{fx}/libusesgomp.so"

# A launcher changed LD_LIBRARY_PATH: the static model and ld.so disagree.
doc, t, rc = load("diverge")
assert rc == 0 and t["exit_status"] == 0 and t["program"] == f"{fx}/needrun", t["program"]
assert t["ld_library_path"] == f"{fx}/dvalt"
assert len(t["divergences"]) == 1, t["divergences"]
d = t["divergences"][0]
assert (d["name"], d["predicted"], d["predicted_via"], d["loaded"], d["loaded_via"]) == (
    "libdv.so", f"{fx}/dvmain/libdv.so", "runpath", f"{fx}/dvalt/libdv.so", "LD_LIBRARY_PATH"), d
assert d["why"].startswith("LD_LIBRARY_PATH differed"), d

# Real PyTorch (Debian python3-torch): it loads, with libtorch_cpu.
doc, t, rc = load("torch")
assert rc == 0 and t["exit_status"] == 0 and t["failed"] is None, (rc, t["stderr_tail"])
loaded = [l for l in t["libraries"] if l["status"] == "loaded"]
assert len(loaded) > 100, len(loaded)
cpu = lib(t, "libtorch_cpu.so.1.13")
assert cpu["path"].endswith("/libtorch_cpu.so.1.13") and cpu["found_via"] == "ld.so.cache", cpu
c = lib(t, "/usr/lib/python3/dist-packages/torch/_C.cpython-311-x86_64-linux-gnu.so")
assert c["dlopened"] and c["found_via"] == "path as given", c
assert t["divergences"] == [] and t["agreements"] > 100, (t["divergences"], t["agreements"])

# A broken libc10 first on LD_LIBRARY_PATH: the exact failing file, predicted by the model.
broken = f"{tmp}/broken/libc10.so.1.13"
doc, t, rc = load("torch_broken")
assert rc == 1 and kinds(doc) == [("error", "not_a_library")], kinds(doc)
f = doc["findings"][0]
assert f["library"] == broken and f["needed_by"].endswith("libtorch_python.so.1.13"), f
assert t["failed"]["message"] == f"ImportError: {broken}: file too short", t["failed"]
assert t["failed"]["tried"] == [{"path": broken, "via": "LD_LIBRARY_PATH", "outcome": "not ELF"}]
assert t["failed"]["predicted"] is True and t["divergences"] == [], t["divergences"]

# The same file set by a launcher: the model (this shell's environment) diverges.
doc, t, rc = load("torch_launcher")
assert rc == 1 and kinds(doc) == [("error", "not_a_library")], kinds(doc)
assert t["failed"]["predicted"] is False
d = [d for d in t["divergences"] if d["name"] == "libc10.so.1.13"]
assert len(d) == 1 and d[0]["loaded"] is None and d[0]["predicted_via"] == "ld.so.cache", d
assert d[0]["predicted"].endswith("/libc10.so.1.13") and "LD_LIBRARY_PATH differed" in d[0]["why"]
doc, t, rc = load("timeout")
assert t["timed_out"] is True and t["exit_status"] is None and t["signal"] == 9, t
print("trace: 11 traced runs checked field by field")
P
