#!/usr/bin/env bash
# explain on hostile texts (docs/explain.md "Long texts", issues 25 and 31):
# lines of 100,000 characters without a blank (identifiers, dots, digits,
# dashes, slashes, a dotted module path, a deep path, ".1" and ".so"
# repeated), alone, and an identifier line of 150,000 before and after a
# real error; an undefined symbol, whose EREs may span lines (a blank class
# between the file and "undefined symbol:"), after the long line, and the
# same message wrapped after its colon at the end of the long line; a text
# of 80,000 short paths ("/a ") around a missing library, whose directories
# the requirer scan reads (docs/explain.md "Long texts"); ld.so's version
# message glued to a 150,000-character run (a one-line ERE over a line
# longer than 4 KiB is tried in windows around its needles).
# glibc's regexec tries every start position of a line, so one ERE without a
# needle, the library-name ERE, or a one-line ERE run past its needle's line
# costs time in the square of the line's length: 0.5-1.6 s a 10,000-character
# line each before (three patterns), so over 100 s each on these; an ERE that
# may span lines was tried at every start of the line before its needle's
# (0.82 s for 10,000 characters, some 180 s for 150,000), and the short paths
# were found by regexec from each match on (0.32 s: the text is cut to
# 256 KiB, so no guard catches it; docs/performance.md has the numbers). Each text
# must be answered inside a generous timeout: a guard against a hang, not a
# measure of speed. The answer to a text with a real error is that of the
# error alone.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'P'
import random, sys
tmp = sys.argv[1]
L = 100000
rnd = random.Random(7)
lines = {
    "ident": "".join(rnd.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") for _ in range(L)),
    "dots": "." * L,
    "digits": "9" * L,
    "dashes": "-" * L,
    "slashes": "/" * L,
    "dotted": ".".join("mod%d" % i for i in range(L // 7)),
    "path": "/" + "/".join("dir%d" % i for i in range(L // 7)),
    "dotone": ".1" * (L // 2),
    "dotso": ".so" * (L // 3),
    # ld.so's version message glued to the run, at its end, at both ends, or
    # its needle alone over and over: the version extractors open with a
    # class ("([^ \t\n'\"(]+): version") that ran from every start of the
    # line to the needle (minutes for 150,000 characters)
    "version-glued": "a" * (L + 50000) + ": version `GLIBC_2.34' not found (required by ./x)",
    "version-both-ends": ": version " + "a" * (L + 50000) + ": version `GLIBC_2.34' not found",
    "version-many": ": version x" * (L // 10),
}
errors = {
    "linux": "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory\n",
    "dotnet": "System.IO.FileNotFoundException: Could not load file or assembly 'Foo.Bar, Version=1.0.0.0' or one of its dependencies.\n",
    "c10d": "[c10d] The client socket has failed to connect to [localhost]:29500 (errno: 111 - Connection refused).\n",
    # its line holds needles (".dll") of EREs it does not match: they must
    # not go on into the long line after it
    "undef": "ImportError: /opt/venv/lib/libtorch_cuda.so: undefined symbol: cudaGraphInstantiateWithFlags\n",
    "win": "OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\Python311\\Lib\\site-packages\\torch\\lib\\fbgemm.dll\" or one of its dependencies.\n",
    "version": "./prog: /lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.34' not found (required by ./prog)\n",
}
long_ident = lines["ident"] + "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz0123456789_") for _ in range(50000))
for name, line in lines.items():
    open(f"{tmp}/{name}.txt", "w").write(line + "\n")
for name, err in errors.items():
    open(f"{tmp}/{name}.alone", "w").write(err)
    open(f"{tmp}/{name}-after-ident.txt", "w").write(long_ident + "\n" + err)
    open(f"{tmp}/{name}-before-ident.txt", "w").write(err + long_ident + "\n")
# wrapped after its colon: the file is the long line's last token
wrapped = "ImportError: /opt/venv/lib/libtorch_cuda.so:\n    undefined symbol: cudaGraphInstantiateWithFlags\n"
open(f"{tmp}/wrapped.alone", "w").write(wrapped)
open(f"{tmp}/wrapped-after-ident.txt", "w").write(long_ident + " " + wrapped)
missing = "OSError: libfoozz.so.1: cannot open shared object file: No such file or directory\n"
open(f"{tmp}/short-paths.txt", "w").write("/a " * 40000 + "\n" + missing + "/a " * 40000 + "\n")
P
bad=0
for f in "$tmp"/*.txt; do
    set +e
    timeout 20 "$TD_BIN" explain --format json "$f" >"$f.json" 2>"$f.err"
    rc=$?
    set -e
    name=$(basename "$f" .txt)
    if [ "$rc" -gt 1 ]; then
        echo "FAIL: $name: status $rc (124: over the 20 s guard)"
        bad=1
    else
        echo "ok: $name: status $rc"
    fi
done
for err in linux dotnet c10d undef win version wrapped; do
    "$TD_BIN" explain --format json "$tmp/$err.alone" >"$tmp/$err.alone.json" 2>/dev/null || true
done
/usr/bin/python3 - "$tmp" <<'P' || bad=1
import json, sys
tmp = sys.argv[1]
bad = 0
for err in ("linux", "dotnet", "c10d", "undef", "win", "version", "wrapped"):
    y = json.load(open(f"{tmp}/{err}.alone.json"))["explain"]
    for where in ("after",) if err == "wrapped" else ("after", "before"):
        try:
            x = json.load(open(f"{tmp}/{err}-{where}-ident.txt.json"))["explain"]
        except ValueError:
            x = {"id": "(no answer)"}
        ok = x["id"] == y["id"] and x.get("load_error") == y.get("load_error")
        # the file and the symbol of an undefined symbol, wrapped or not, are read
        ok = ok and (err not in ("undef", "wrapped") or bool((x.get("load_error") or {}).get("symbol")))
        print(("ok: " if ok else "FAIL: ") + f"{err} {where} a long line: {x['id']} (alone: {y['id']})")
        bad += not ok
sys.exit(1 if bad else 0)
P
exit "$bad"
