#!/usr/bin/env bash
# --format html in a real browser: a broken library tree (one dependency
# missing, one found, both with names made of HTML) rendered by `deps` and
# `check`, loaded in headless Chromium; the DOM must hold every finding and
# every library of the JSON report, show the hostile names as text (no
# element made from them), and the page must log no console error. A
# screenshot of the broken report is left in $TD_BUILD/html-report.png.
set -u
bin=${TD_BIN:?}
chromium=$(command -v chromium || command -v chromium-browser || true)
[ -n "$chromium" ] || { echo "FAIL: chromium missing (scripts/install-deps.sh test installs it)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$tmp/lib
mkdir -p "$lib"
evil='<img src=x onerror=alert(1)>.so'
odd="libq&\"'ok.so"
printf 'int dep(void) { return 1; }\n' >"$tmp/dep.c"
printf 'int ok(void) { return 2; }\n' >"$tmp/ok.c"
printf 'int dep(void); int ok(void); int entry(void) { return dep() + ok(); }\n' >"$tmp/main.c"
gcc -shared -fPIC -Wl,-soname,"$evil" -o "$lib/$evil" "$tmp/dep.c" &&
    gcc -shared -fPIC -Wl,-soname,"$odd" -o "$lib/$odd" "$tmp/ok.c" &&
    gcc -shared -fPIC -Wl,-rpath,'$ORIGIN' -o "$lib/libmain.so" "$tmp/main.c" "$lib/$evil" "$lib/$odd" ||
    { echo "FAIL: building the fixture"; exit 1; }
rm "$lib/$evil" # the dependency goes missing
"$bin" deps --format json "$lib/libmain.so" >"$tmp/deps.json"
[ $? = 1 ] || { echo "FAIL: deps should find an error"; exit 1; }
"$bin" deps --format html "$lib/libmain.so" >"$tmp/deps.html"
"$bin" check --no-gpu --format html >"$tmp/check.html"
[ $? -le 1 ] || { echo "FAIL: check --format html"; exit 1; }
# explain on a message naming the hostile file, and diff of two snapshots
# whose packages carry HTML in their name and version.
msg="OSError: [WinError 126] The specified module could not be found. Error loading \"C:\\venv\\torch\\lib\\$evil\" or one of its dependencies."
"$bin" explain --format json "$msg" >"$tmp/explain.json"
"$bin" explain --format html "$msg" >"$tmp/explain.html"
[ $? -le 1 ] || { echo "FAIL: explain --format html"; exit 1; }
"$bin" snapshot --no-gpu -o "$tmp/old.json" || { echo "FAIL: snapshot"; exit 1; }
/usr/bin/python3 - "$tmp/old.json" "$tmp/new.json" "$evil" <<'P' || { echo "FAIL: making new.json"; exit 1; }
import json, sys
d = json.load(open(sys.argv[1]))
env = d["snapshot"]["environments"][0]
env["packages"].append({"name": sys.argv[3], "version": "1.0\"<b>x</b>", "installer": "pip",
                        "location": "/tmp"})
json.dump(d, open(sys.argv[2], "w"))
P
"$bin" diff --format json "$tmp/old.json" "$tmp/new.json" >"$tmp/diff.json"
"$bin" diff --format html "$tmp/old.json" "$tmp/new.json" >"$tmp/diff.html"
[ $? -le 1 ] || { echo "FAIL: diff --format html"; exit 1; }

browse() { # FILE WHAT -> FILE.dom, FILE.log
    timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
        --disable-component-update --disable-sync --no-first-run --disable-quic \
        --user-data-dir="$tmp/profile-$2" --enable-logging=stderr --v=0 \
        --virtual-time-budget=2000 --dump-dom "file://$1" >"$1.dom" 2>"$1.log"
}
browse "$tmp/deps.html" deps || { echo "FAIL: chromium on deps.html"; tail "$tmp/deps.html.log"; exit 1; }
browse "$tmp/check.html" check || { echo "FAIL: chromium on check.html"; tail "$tmp/check.html.log"; exit 1; }
for page in explain diff; do
    browse "$tmp/$page.html" "$page" || { echo "FAIL: chromium on $page.html"; exit 1; }
done
shot=${TD_BUILD:-$tmp}/html-report.png
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-background-networking \
    --disable-component-update --disable-sync --no-first-run --disable-quic \
    --user-data-dir="$tmp/profile-shot" --window-size=1200,900 --screenshot="$shot" \
    "file://$tmp/deps.html" >/dev/null 2>&1

/usr/bin/python3 - "$tmp" "$evil" "$odd" "$shot" <<'P'
import json, os, sys
from html.parser import HTMLParser

tmp, evil, odd, shot = sys.argv[1:]
passed = failed = 0

def check(cond, what):
    global passed, failed
    if cond:
        passed += 1
    else:
        failed += 1
        print("FAIL:", what)

class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags, self.text, self.attrs = [], [], []
    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(v for _, v in attrs if v)
    def handle_data(self, d):
        self.text.append(d)

def dom(name):
    d = Dom()
    d.feed(open(os.path.join(tmp, name + ".dom"), encoding="utf-8").read())
    return d, "".join(d.text)

def console_errors(name):
    log = open(os.path.join(tmp, name + ".log"), encoding="utf-8", errors="replace").read()
    return [l for l in log.splitlines() if "CONSOLE" in l or "Uncaught" in l]

report = json.load(open(os.path.join(tmp, "deps.json")))
d, text = dom("deps.html")
check("img" not in d.tags and d.tags.count("script") <= 1,
      "an element was made from the input (tags: %s)" % sorted(set(d.tags)))
check(evil in text, "the missing library's name is not shown as text")
check(odd in text, "the found library's odd name is not shown as text")
for f in report["findings"]:
    check(any(f["kind"] == a for a in d.attrs), "finding kind %s not in the DOM" % f["kind"])
    check(f["detail"] in text, "finding detail not in the DOM: %s" % f["detail"])
    if f.get("fix"):
        check(f["fix"] in text, "finding fix not in the DOM: %s" % f["fix"])
    if f.get("library"):
        check(f["library"] in text, "finding library not in the DOM: %s" % f["library"])
for l in report["libraries"]:
    check(l["name"] in d.attrs or l["name"] in text, "library %s not in the DOM" % l["name"])
    for p in l.get("searched") or []:
        path = p.get("path") if isinstance(p, dict) else None
        if path:
            check(path in text, "searched place %s not in the DOM" % path)
check(not console_errors("deps.html"), "console errors: %s" % console_errors("deps.html"))
check("details" in d.tags, "the tree is not collapsible (no <details>)")

c, ctext = dom("check.html")
check("Findings" in ctext and "System" in ctext, "check page lacks its sections")
check("details" in c.tags, "check page has no collapsible tree")
check(not console_errors("check.html"), "console errors: %s" % console_errors("check.html"))
for page in ("explain", "diff"):
    rep = json.load(open(os.path.join(tmp, page + ".json")))
    p, ptext = dom(page + ".html")
    check("img" not in p.tags and p.tags.count("script") <= 1, page + ": an element was made from the input")
    check(evil in ptext, page + ": the hostile name is not shown as text")
    check(not console_errors(page + ".html"), page + ": console errors")
    for f in rep["findings"]:
        check(f["detail"] in ptext, page + ": finding detail missing: " + f["detail"])
    for c in rep.get("causes") or [x for f in rep["findings"] for x in (f.get("causes") or [])]:
        check(c["detail"] in ptext, page + ": cause missing: " + c["detail"])
    for c in rep.get("changes") or []:
        check(c["item"] in ptext, page + ": change missing: " + c["item"])
check(os.path.getsize(shot) > 10000 if os.path.exists(shot) else False, "no screenshot")
print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
P
