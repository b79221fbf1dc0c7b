#!/usr/bin/env bash
# torchdoctor.exe trace under Wine: the debug-event tracer on the programs of
# tests/fixtures/windows_trace.sh. A LoadLibrary that loads (the program's
# own imports requested by it, the DLL loaded dynamically and its import,
# the model agreeing on the fixture's DLLs); one whose import is nowhere
# (missing_library names tdgone.dll, needed by needsgone.dll, and the model
# predicts it); a DllMain that returns FALSE (init_failure); a 32-bit DLL
# (wrong_architecture); a program whose own import is missing (exit code
# 0xC0000135); loader-snaps lines (search steps and the failed step); a
# timeout; a command that does not exist (exit 2). Every JSON report
# validates against the contract. One WINEPREFIX, WINEDEBUG=-all.
set -euo pipefail
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
app=$TD_FIXTURES/windows_trace/app
. "$(dirname "$0")/wine_prefix.sh"
A=$(winpath "$app")
fail=0
n=0
# trace ARGS... : the JSON report in $tmp/N.json, exit status in $rc.
trace() {
    n=$((n + 1))
    rc=0
    wine "$exe" trace --quiet --format json "$@" 2>"$tmp/$n.err" | tr -d '\r' >"$tmp/$n.json" || rc=${PIPESTATUS[0]}
}
# expect WHAT WANT_RC PYTHON: PYTHON is run with d (the report), t (its
# "trace"), libs (name -> library), A (the app dir as Windows names it);
# it asserts, and the report must validate against the contract.
expect() {
    local what=$1 want=$2 code=$3
    if [ "$rc" != "$want" ]; then
        echo "FAIL: $what: exit status $rc, want $want"
        cat "$tmp/$n.err"
        fail=1
        return
    fi
    if /usr/bin/python3 - "$tmp/$n.json" "$TD_SRC/schema/report.schema.json" "$A" "$code" <<'P'; then
import json, sys
import jsonschema
d = json.load(open(sys.argv[1]))
schema = json.load(open(sys.argv[2]))
schema.pop("$id", None)
jsonschema.validate(d, schema)
t, A = d["trace"], sys.argv[3]
libs = {l["name"].lower(): l for l in t["libraries"]}
try:
    exec(sys.argv[4])
except AssertionError as e:
    print("assertion:", e, json.dumps(t, indent=1)[:3000])
    sys.exit(1)
P
        echo "ok: $what"
    else
        echo "FAIL: $what"
        fail=1
    fi
}

# 1. A load that goes through: loadlib.exe's own imports, asked for by it,
#    mapped before the loader's breakpoint; ok.dll loaded dynamically, its
#    import dep.dll asked for by it; the model agrees on the fixture's DLLs.
trace -- "$A\\loadlib.exe" "$A\\ok.dll"
expect "load that goes through" 0 '
assert d["platform"] == "windows" and d["findings"] == [] and t["failed"] is None
assert t["exit_status"] == 0 and t["program"] == A + "\\loadlib.exe"
assert t["libraries"][0]["name"] == "loadlib.exe" and t["libraries"][0]["requested_by"] is None
for name in ("kernel32.dll", "msvcrt.dll"):
    l = libs[name]
    assert l["requested_by"] == A + "\\loadlib.exe" and l["status"] == "loaded" and not l["dlopened"], l
    assert l["path"].lower() == "c:\\windows\\system32\\" + name, l  # Wine: the builtin by its fake path
ok, dep = libs["ok.dll"], libs["dep.dll"]
assert ok["dlopened"] and ok["requested_by"] is None and ok["path"] == A + "\\ok.dll", ok
assert dep["requested_by"] == A + "\\ok.dll" and not dep["dlopened"] and dep["path"] == A + "\\dep.dll", dep
names = [l["name"].lower() for l in t["libraries"]]
assert names.index("ok.dll") < names.index("dep.dll")
opens = [e for e in t["events"] if e["event"] == "open"]
assert [e["event"] for e in t["events"]].count("preinit") == 1
assert len(opens) == len(t["libraries"])
assert not [x for x in t["divergences"] if A in (x["needed_by"] or "")], t["divergences"]
assert t["agreements"] >= 3, t["agreements"]  # KERNEL32 and msvcrt of loadlib.exe, dep.dll of ok.dll
'

# 2. LoadLibrary of a DLL whose import is nowhere: Windows names only the
#    DLL being loaded; the missing import is named from the import tables.
trace -- "$A\\loadlib.exe" "$A\\needsgone.dll"
expect "missing import of a LoadLibrary'd DLL" 1 '
f = d["findings"]
assert [(x["kind"], x["library"], x["needed_by"]) for x in f] == [
    ("missing_library", "tdgone.dll", A + "\\needsgone.dll")], f
assert t["failed"]["kind"] == "missing_library" and "[WinError 126]" in t["failed"]["message"]
assert t["failed"]["predicted"] is True
assert libs["tdgone.dll"]["status"] == "missing" and libs["needsgone.dll"]["dlopened"]
assert "[WinError 126]" in t["stderr_tail"]
'

# 3. A DllMain that returns FALSE.
trace -- "$A\\loadlib.exe" "$A\\initfail.dll"
expect "DllMain returns FALSE" 1 '
f = d["findings"]
assert [(x["kind"], x["library"]) for x in f] == [("init_failure", A + "\\initfail.dll")], f
assert libs["initfail.dll"]["status"] == "unloaded" and libs["initfail.dll"]["dlopened"]
assert "[WinError 1114]" in t["failed"]["message"]
'

# 4. A 32-bit DLL in a 64-bit process: never mapped; its header says why.
trace -- "$A\\loadlib.exe" "$A\\wrong.dll"
expect "32-bit DLL" 1 '
f = d["findings"]
assert [(x["kind"], x["library"]) for x in f] == [("wrong_architecture", A + "\\wrong.dll")], f
assert libs["wrong.dll"]["tried"] == [{"path": A + "\\wrong.dll", "via": None, "outcome": "wrong machine"}]
assert "[WinError 193]" in t["failed"]["message"]
'

# 5. The program's own import is missing: no message, only the exit code.
trace -- "$A\\staticgone.exe"
expect "missing import of the program" 1 '
assert t["exit_status"] == 0xC0000135 - 2**32, t["exit_status"]
f = d["findings"]
assert [(x["kind"], x["library"], x["needed_by"]) for x in f] == [
    ("missing_library", "tdgone.dll", A + "\\staticgone.exe")], f
assert t["failed"]["message"] == "exit code 0xC0000135 (STATUS_DLL_NOT_FOUND)"
assert t["failed"]["predicted"] is True
'

# 6. Loader snaps (written by the fixture itself: Wine has none): the
#    failed step as the loader states it, and the path it tried.
trace -- "$A\\snaps.exe" "$A\\needsgone.dll"
expect "loader snaps" 1 '
f = t["failed"]
assert f["library"] == "tdgone.dll" and f["needed_by"] == A + "\\needsgone.dll", f
assert "LdrpProcessWork - ERROR: Unable to load DLL" in f["message"]
assert f["tried"] == [{"path": "C:\\tdnowhere\\tdgone.dll", "via": None, "outcome": "absent"}], f
s = [e for e in t["events"] if e["event"] == "search"]
assert [e["path"] for e in s] == [A + "\\needsgone.dll", "C:\\tdnowhere\\tdgone.dll"], s
assert s[0]["via"] == "path as given" and s[1]["via"] is None
'

# 7. --timeout: the command is terminated.
trace --timeout 2 -- "$A\\sleeper.exe"
expect "timeout" 0 '
assert t["timed_out"] is True and t["exit_status"] is None and t["failed"] is None
assert t["duration_ms"] >= 2000, t["duration_ms"]  # killed at 2 s, never before; no upper bound: a busy machine is slow
'

# 8. A command that cannot be started.
trace -- "$A\\nosuch.exe"
if [ "$rc" == 2 ] && grep -q "cannot run" "$tmp/$n.err"; then
    echo "ok: no such command"
else
    echo "FAIL: no such command: exit status $rc"
    cat "$tmp/$n.err"
    fail=1
fi

# 9. The text report names the same things.
rc=0
wine "$exe" trace --quiet --color never -- "$A\\loadlib.exe" "$A\\needsgone.dll" 2>/dev/null |
    tr -d '\r' >"$tmp/text.txt" || rc=${PIPESTATUS[0]}
if [ "$rc" == 1 ] && grep -q "needsgone.dll .*dlopen" "$tmp/text.txt" &&
    grep -q "tdgone.dll not found <- .*needsgone.dll" "$tmp/text.txt" &&
    grep -q "error \[missing_library\] tdgone.dll was not found, needed by" "$tmp/text.txt"; then
    echo "ok: text report"
else
    echo "FAIL: text report (exit status $rc)"
    cat "$tmp/text.txt"
    fail=1
fi
exit $fail
