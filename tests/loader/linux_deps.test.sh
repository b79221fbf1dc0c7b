#!/usr/bin/env bash
# End to end through `torchdoctor deps`: the Linux loader model's answers for
# the linux_loader fixtures, read from the JSON report (kind, library,
# needed_by, found_via), each checked against what glibc's ld.so does.
set -euo pipefail
fx=$(cd "$TD_FIXTURES/linux_loader" && pwd -P)
exec /usr/bin/python3 - "$TD_BIN" "$fx" <<'P'
import json, subprocess, sys
bin, fx = sys.argv[1], sys.argv[2]
bad = 0
def deps(prog, *args):
    out = subprocess.run([bin, "deps", f"{fx}/{prog}", "--format", "json", *args],
                         capture_output=True, text=True)
    assert out.returncode in (0, 1), out.stderr
    return json.loads(out.stdout)
def lib(d, name):
    return next(l for l in d["libraries"] if l["name"] == name)
def check(what, got, want):
    global bad
    if got != want:
        print(f"{what}: got {got!r}, want {want!r}"); bad += 1

# DT_RPATH inherited: libA's RPATH finds libC for libB.
d = deps("chain/bin/prog")
c = lib(d, "libC.so")
check("chain libC path", c["path"], f"{fx}/chain/bin/../a/../c/libC.so")
check("chain libC found_via", c["found_via"], "rpath of libA.so")
check("chain libC needed_by", c["needed_by"], [f"{fx}/chain/bin/../a/libB.so"])
check("chain findings", [f["kind"] for f in d["findings"]], [])

# DT_RUNPATH not inherited: libB2 is missing, needed by libA2.
d = deps("runpath/bin/prog")
check("runpath finding", [(f["kind"], f["library"], f["needed_by"]) for f in d["findings"]
                          if f["severity"] == "error"],
      [("runpath_not_inherited", "libB2.so", f"{fx}/runpath/bin/../a/libA2.so")])
check("runpath libA2 found_via", lib(d, "libA2.so")["found_via"],
      "runpath of prog")

# Wrong class and machine skipped; the later good copy taken.
d = deps("wrong/bin/prog")
w = lib(d, "libW.so")
check("wrong libW path", w["path"], f"{fx}/wrong/bin/../good/libW.so")
check("wrong libW searched", [s["verdict"] for s in w["searched"]],
      ["wrong class", "wrong machine", "found"])

# Already loaded by soname: no second copy of libdup.so.1.
d = deps("dup/bin/prog")
check("dup paths", sorted(l["path"] for l in d["libraries"] if "dup" in (l["path"] or "")
                          and l["path"].endswith("libdup.so.1")), [])

# The link stub is what ld.so loads, and it is reported as a stub.
d = deps("cuda/bin/prog")
check("stub finding", [(f["kind"], f["needed_by"]) for f in d["findings"]],
      [("stub_library", f"{fx}/cuda/bin/prog")])

# A private ld.so.cache under --root.
d = deps("cache/bin/prog", "--root", f"{fx}/root")
check("cache libK", (lib(d, "libK.so.1")["path"], lib(d, "libK.so.1")["found_via"]),
      ("/srv/tdlinux/libK.so.1", "ld.so.cache"))

# A linker script earlier in the path stops ld.so: libS.so is not loaded.
d = deps("script/bin/prog")
s = lib(d, "libS.so")
check("script libS path", s["path"], None)
check("script libS searched", [(x["path"], x["verdict"]) for x in s["searched"]],
      [(f"{fx}/script/bin/../ld/libS.so", "not a library")])
check("script finding", [(f["kind"], f["library"]) for f in d["findings"] if f["severity"] == "error"],
      [("not_a_library", "libS.so")])
print(f"linux deps: {bad} problems")
sys.exit(1 if bad else 0)
P
