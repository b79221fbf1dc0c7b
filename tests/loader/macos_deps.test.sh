#!/usr/bin/env bash
# End to end: `torchdoctor deps --platform macos` over the fake macOS system of
# tests/fixtures/macos_loader.sh, asserting from its JSON how each library was
# found (found_via), who needed it, and the findings (kind, library, needed_by).
set -euo pipefail
: "${TD_BIN:?}" "${TD_FIXTURES:?}"
root=$TD_FIXTURES/macos_loader/root
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

set +e
"$TD_BIN" deps "$root/app/bin/main" --platform macos --root "$root" --no-symbols --format json \
    >"$out/plain.json"
rc_plain=$?
"$TD_BIN" deps "$root/app/bin/main" --platform macos --root "$root" --no-symbols --format json \
    --env DYLD_LIBRARY_PATH=/override:/override2 >"$out/override.json"
rc_override=$?
set -e

python3 - "$out" "$root" "$rc_plain" "$rc_override" <<'EOF'
import json, sys
out, root, rc_plain, rc_override = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
main = root + "/app/bin/main"
foo = root + "/app/bin/../lib/libfoo.dylib"
bad = 0

def check(what, got, want):
    global bad
    if got != want:
        print(f"FAIL {what}: got {got!r}, want {want!r}")
        bad += 1

def lib(doc, name):
    hits = [l for l in doc["libraries"] if l["name"] == name]
    if len(hits) != 1:
        print(f"FAIL {name}: {len(hits)} entries in libraries")
        sys.exit(1)
    return hits[0]

plain = json.load(open(out + "/plain.json"))
check("platform", plain["platform"], "macos")
# libgone is missing: an error, so exit status 1.
check("exit status", rc_plain, 1)

want = {
    "@rpath/libfoo.dylib": (foo, "LC_RPATH of main", [main]),
    "@rpath/libsecond.dylib": (root + "/app/bin/../lib2/libsecond.dylib", "LC_RPATH of main", [main]),
    # found through main's LC_RPATH although libfoo needs it: the load chain
    "@rpath/libbar.dylib": (root + "/app/bin/../lib2/libbar.dylib", "LC_RPATH of main", [foo]),
    "@loader_path/libsib.dylib": (root + "/app/bin/../lib/libsib.dylib", "@loader_path of libfoo.dylib", [foo]),
    "@executable_path/../Frameworks/libexe.dylib":
        (root + "/app/bin/../Frameworks/libexe.dylib", "@executable_path of main", [foo]),
    "/opt/missing/libfb.dylib": ("/usr/local/lib/libfb.dylib", "DYLD_FALLBACK_LIBRARY_PATH", [main]),
    "@rpath/libwa.dylib": (root + "/app/bin/../lib2/libwa.dylib", "LC_RPATH of main", [main]),
    "@rpath/libuni.dylib": (root + "/app/bin/../lib/libuni.dylib", "LC_RPATH of main", [main]),
}
for name, (path, via, needed_by) in want.items():
    l = lib(plain, name)
    check(name + " path", l["path"], path)
    check(name + " found_via", l["found_via"], via)
    check(name + " needed_by", l["needed_by"], needed_by)
    check(name + " arch", l["arch"], "arm64")

# The universal libuni: its arm64 slice, though x86_64 comes first.
check("libuni arch", lib(plain, "@rpath/libuni.dylib")["arch"], "arm64")

# The missing @rpath dylib: every place tried, in dyld's order.
gone = lib(plain, "@rpath/libgone.dylib")
check("libgone path", gone["path"], None)
check("libgone searched", [(s["path"], s["rule"], s["verdict"]) for s in gone["searched"]], [
    (root + "/app/bin/../lib/plugins/libgone.dylib", "LC_RPATH", "absent"),
    (root + "/app/bin/../lib/libgone.dylib", "LC_RPATH", "absent"),
    (root + "/app/bin/../lib2/libgone.dylib", "LC_RPATH", "absent"),
    ("/usr/local/lib/libgone.dylib", "DYLD_FALLBACK_LIBRARY_PATH", "absent"),
    ("/usr/lib/libgone.dylib", "DYLD_FALLBACK_LIBRARY_PATH", "absent"),
])

def findings(doc, kind, library):
    return [f for f in doc["findings"] if f["kind"] == kind and f["library"] == library]

f = findings(plain, "missing_library", "@rpath/libgone.dylib")
check("libgone finding", [(x["severity"], x["needed_by"]) for x in f], [("error", foo)])

# The weak dylib: reported, never as an error.
f = findings(plain, "missing_library", "@rpath/libweak.dylib")
check("libweak finding count", len(f), 1)
check("libweak is a warning", [x["severity"] for x in f], ["warning"])
check("libweak needed_by", [x["needed_by"] for x in f], [main])
check("libweak last probe", lib(plain, "@rpath/libweak.dylib")["searched"][-1].get("detail"),
      "weak dylib (LC_LOAD_WEAK_DYLIB): missing is not an error, its symbols bind to NULL")

# The x86_64 libwa met first: skipped, reported, and the arm64 one used.
f = findings(plain, "wrong_architecture", root + "/app/bin/../lib/libwa.dylib")
check("libwa finding", [(x["severity"], x["needed_by"]) for x in f], [("info", main)])

# libSystem: in the dyld shared cache, not on disk.
sysl = lib(plain, "/usr/lib/libSystem.B.dylib")
check("libSystem searched", [(s["path"], s["rule"], s["verdict"], s.get("detail")) for s in sysl["searched"]],
      [("/usr/lib/libSystem.B.dylib", "install name", "skipped", "system library in the dyld shared cache")])
cache_errors = [x for x in findings(plain, "missing_library", "/usr/lib/libSystem.B.dylib") if x["severity"] == "error"]
check("no finding for libraries in the dyld shared cache", len(cache_errors), 0)

# DYLD_LIBRARY_PATH: the leaf name in each directory, before any LC_RPATH.
over = json.load(open(out + "/override.json"))
l = lib(over, "@rpath/libfoo.dylib")
check("override libfoo path", l["path"], "/override2/libfoo.dylib")
check("override libfoo found_via", l["found_via"], "DYLD_LIBRARY_PATH")
check("override libfoo searched", [(s["path"], s["verdict"]) for s in l["searched"]],
      [("/override/libfoo.dylib", "absent"), ("/override2/libfoo.dylib", "found")])
# libfoo's @loader_path dependency now follows it to /override2 (and is missing there).
sib = lib(over, "@loader_path/libsib.dylib")
check("override libsib searched", [(s["path"], s["rule"], s["verdict"]) for s in sib["searched"]][:3], [
    ("/override/libsib.dylib", "DYLD_LIBRARY_PATH", "absent"),
    ("/override2/libsib.dylib", "DYLD_LIBRARY_PATH", "absent"),
    ("/override2/libsib.dylib", "@loader_path", "absent"),
])
check("override exit status", rc_override, 1)

if bad:
    sys.exit(1)
print("ok")
EOF
