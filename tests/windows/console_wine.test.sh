#!/usr/bin/env bash
# torchdoctor.exe writing to a console (Wine's, on a pseudo-terminal made
# by script(1)): the text of deps on a DLL under a folder named 用户张三
# reads right (the path, ✗, the tree's ├──; nothing double-encoded, as the
# C runtime's byte-wise console writes give), in colour by default (virtual-
# terminal processing enabled), and plain with NO_COLOR=1 or --color never,
# as on Linux. One WINEPREFIX; four wine invocations.
set -euo pipefail
if ! command -v script >/dev/null; then
    echo "skipped: script(1) (util-linux) is not installed"
    exit 0
fi
exe=${TD_FIXTURES:?}/windows_exe/win64/torchdoctor.exe
fx=$TD_FIXTURES/windows_unicode
. "$(dirname "$0")/wine_prefix.sh"
root=$tmp/root
mkdir -p "$root/Windows" "$root/Users/用户张三"
cp -r "$fx/System32" "$root/Windows/"
cp -r "$fx/user/Python311" "$root/Users/用户张三/"
dll=$(winpath "$root/Users/用户张三/Python311/Lib/site-packages/torch/lib/fbgemm.dll")
args="deps --root '$(winpath "$root")' '$dll'"
# Wine's own start-up fails now and then on a loaded machine (see
# wine_prefix.sh): a run whose output does not hold the folder name at all
# (the program's every line does) is Wine's, not the program's, and is
# given one more start, with a note; colour in it is never retried.
on_console() { # OUT ENV OPTIONS: the exe's console output
    timeout 120 script -qec "env $2 wine '$exe' $args $3" /dev/null >"$1" || true
    if ! grep -a "用户张三" "$1" >/dev/null; then
        echo "note: $(basename "$1" .txt): no output from Wine ($(wc -c <"$1") bytes), once more"
        timeout 120 script -qec "env $2 wine '$exe' $args $3" /dev/null >"$1" || true
    fi
}
on_console "$tmp/auto.txt" "" ""
on_console "$tmp/nocolor.txt" NO_COLOR=1 ""
on_console "$tmp/never.txt" "" "--color never"
casekit_py - "$tmp" <<'P' || fail=1
import re, sys
import casekit
from casekit import check, failures as bad
casekit.show_ok = True
tmp = sys.argv[1]
def text(name):
    raw = open(f"{tmp}/{name}.txt", "rb").read().decode("utf-8", "replace")
    sgr = re.findall(r"\x1b\[[0-9;]*m", raw)
    # Wine's console wraps at 80 columns and moves its cursor: undo both.
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", raw).replace("\r", "").replace("\n", "")
    return plain, sgr
plain, sgr = text("auto")
check("用户张三\\Python311" in plain, "the folder name reads right on the console")
check("✗ error" in plain and "├──" in plain, "✗ and the tree's ├── read right")
check("ç" not in plain and "â" not in plain, "nothing double-encoded (no 'ç', 'â')")
check("vcruntime140_1.dll is not found" in plain, "the finding is there")
check(len(sgr) > 0, "colour by default on a console with VT processing")
for name in ("nocolor", "never"):
    p, s = text(name)
    ok = "用户张三" in p and not s
    check(ok, f"{name}: the same text, no colour")
    if not ok:  # what Wine's console gave, to tell its failure from ours
        print(f"  {name}: {len(p)} characters, colour codes {s[:5]}, starts {p[:200]!r}")
sys.exit(1 if bad else 0)
P
exit $fail
