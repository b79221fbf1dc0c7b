#!/usr/bin/env bash
# The man pages the build writes (build/man, src/cmd/args_man.c): one per
# command, each naming exactly the options its --help names, rendering with
# man -l and groff without a warning, and what the program writes now.
set -u
td=$TD_BIN
man_dir=$TD_BUILD/man
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
    echo "skipped: man or groff is not installed (Debian: man-db, groff-base)"
    exit 0
fi
[ -f "$man_dir/torchdoctor.1" ] || { echo "FAIL: $man_dir/torchdoctor.1 was not built"; exit 1; }

# The long option names of a --help text or of a rendered OPTIONS section.
help_options() { grep -oE '^  (-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort; }
man_options() {
    sed -n '/^OPTIONS/,/^[A-Z]/p' | grep -oE '^ {7}(-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort
}
render() { MANWIDTH=80 man -l "$1" 2>"$tmp/man.err" | col -b; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
commands=$("$td" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ -n "$commands" ] || fail "no commands in torchdoctor --help"
for c in $commands; do
    page=$man_dir/torchdoctor-$c.1
    [ -f "$page" ] || { fail "no man page for $c"; continue; }
    "$td" "$c" --help | help_options >"$tmp/help"
    render "$page" >"$tmp/page.txt"
    man_options <"$tmp/page.txt" >"$tmp/man"
    [ -s "$tmp/help" ] || fail "$c --help lists no options"
    diff -u "$tmp/help" "$tmp/man" >"$tmp/diff" || fail "$c: --help and man page differ: $(cat "$tmp/diff")"
    [ -s "$tmp/man.err" ] && fail "$c: man -l warns: $(cat "$tmp/man.err")"
    warn=$(groff -ww -z -man "$page" 2>&1)
    [ -z "$warn" ] || fail "$c: groff warns: $warn"
    grep -q "^SYNOPSIS" "$tmp/page.txt" && grep -q "^EXIT STATUS" "$tmp/page.txt" ||
        fail "$c: the page lacks SYNOPSIS or EXIT STATUS"
    "$td" __man "$c" | cmp -s - "$page" || fail "$c: $page is not what torchdoctor __man writes now"
    grep -q "torchdoctor-$c(1)" <(render "$man_dir/torchdoctor.1") || fail "torchdoctor(1) does not name $c"
done
warn=$(groff -ww -z -man "$man_dir/torchdoctor.1" 2>&1)
[ -z "$warn" ] || fail "torchdoctor.1: groff warns: $warn"
"$td" __man nosuch 2>/dev/null
[ $? -eq 2 ] || fail "__man of an unknown command is not exit 2"

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok: $(echo $commands | wc -w) pages agree with --help"
