#!/usr/bin/env bash
# explain on a fresh set of real error texts (session 10), collected after the
# rules of explain_corpus.json / explain_heldout.json and labelled from each
# thread's resolution (docs/explain.md "Fresh set (session 10)"). Two halves,
# split at random with a fixed seed:
#   tests/cmd/explain_fresh_a.json -- A: may be read while working on explain;
#   tests/cmd/explain_fresh_b.json -- B: kept out of sight until it was scored at
#                                     the end of session 10; open since, and
#                                     worked on (no longer held out), so its
#                                     misses are printed too.
# Scores `explain --format json` with tests/explain_score.py, as
# explain_corpus.test.sh does: the first finding's kind must be one of the
# expected kinds and its library (or, for a symbol missing from an unnamed
# library, its needed_by) the expected file.
# Prints "N passed, N failed" per half and per platform, and both halves'
# misses. The thresholds (90% of each half and of each platform in it) are
# explain_corpus.test.sh's; this one fails only when explain crashes or exits
# other than 0/1, when its output is not JSON or not valid against the report
# schema, or when a set file is unreadable or malformed.
set -euo pipefail
exec /usr/bin/python3 - "$TD_BIN" "$TD_SRC" <<'P'
import json, os, sys
td, src = sys.argv[1], sys.argv[2]
sys.path.insert(0, os.path.join(src, "tests"))
from explain_score import judge, validator
check = validator(src)
FIELDS = ["url", "platform", "kind", "library", "cause", "text"]
PLATFORMS = ["linux", "macos", "windows"]

def score(name, show_misses):
    bad = 0
    try:
        corpus = json.load(open(os.path.join(src, "tests/cmd", name), encoding="utf-8"))
        for c in corpus:
            assert sorted(c) == sorted(FIELDS), f"fields {sorted(c)}"
            assert c["platform"] in PLATFORMS, c["platform"]
            assert isinstance(c["kind"], list) and c["kind"], "kind"
            assert isinstance(c["library"], list), "library"
    except (OSError, ValueError, AssertionError) as e:
        print(f"FAIL: {name}: malformed: {e}")
        return 1, set()
    right = {p: 0 for p in PLATFORMS}
    total = {p: 0 for p in PLATFORMS}
    misses = []
    for i, c in enumerate(corpus):
        total[c["platform"]] += 1
        error, ok, miss = judge(td, check, c)
        if error:
            print(f"FAIL: {name} {i} ({c['url']}): {error}")
            bad += 1
            continue
        right[c["platform"]] += ok
        if miss:
            misses.append(f"{miss} [{c['platform']}]")
    n, r = len(corpus), sum(right.values())
    print(f"explain {name}: {r} passed, {n - r} failed ({r / n if n else 0:.1%} of {n})")
    for p in PLATFORMS:
        print(f"explain {name} {p}: {right[p]} passed, {total[p] - right[p]} failed")
    if show_misses:
        for m in misses:
            print(m)
    return bad, {c["url"] for c in corpus}

bad_a, urls_a = score("explain_fresh_a.json", True)
bad_b, urls_b = score("explain_fresh_b.json", True)
older = set()
for name in ("explain_corpus.json", "explain_heldout.json"):
    older |= {c["url"] for c in json.load(open(os.path.join(src, "tests/cmd", name), encoding="utf-8"))}
for u in sorted((urls_a & urls_b) | ((urls_a | urls_b) & older)):
    print(f"note: {u} is in more than one set")
sys.exit(1 if bad_a or bad_b else 0)
P
