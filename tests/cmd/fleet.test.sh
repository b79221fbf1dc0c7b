#!/usr/bin/env bash
# torchdoctor fleet on 1,000 generated nodes (this machine's real check
# report, rewritten by tests/cmd/fleet_gen.py) with three planted outliers:
# exactly those three are named, with what differs, in hostlist notation.
# Then bad report files beside good ones, srun -l's interleaved labelled
# output on stdin, --expect, and the JSON against the schema.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
td=$TD_BIN

"$td" check --no-gpu --format jsonl >"$tmp/check.jsonl" || [ $? -eq 1 ]
[ "$(wc -l <"$tmp/check.jsonl")" -eq 1 ] || { echo "check --format jsonl is not one line"; exit 1; }
python3 "$TD_SRC/tests/cmd/fleet_gen.py" "$tmp/check.jsonl" -n 1000 -o "$tmp/fleet.jsonl" \
    --old-driver gpu0042 --missing-gpu gpu0500 --slow gpu0777

set +e
"$td" fleet --format json "$tmp/fleet.jsonl" >"$tmp/fleet.json"
rc=$?
"$td" fleet "$tmp/fleet.jsonl" >"$tmp/fleet.txt"
set -e
[ $rc -eq 1 ] || { echo "outliers are error findings: exit 1 expected, got $rc"; exit 1; }
grep -q 'majority.* gpu\[0001-0041,0043-0499,0501-1000\] (998 nodes)' "$tmp/fleet.txt" ||
    { echo "the majority's node set is not in hostlist notation:"; cat "$tmp/fleet.txt"; exit 1; }

python3 - "$TD_SRC/schema/report.schema.json" "$tmp/fleet.json" <<'P'
import json, sys
import jsonschema
schema = json.load(open(sys.argv[1]))
schema.pop("$id", None)
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(schema).validate(doc)
fl = doc["fleet"]
assert fl["nodes"] == 1000 and fl["reports"] == 2000, (fl["nodes"], fl["reports"])
groups = fl["groups"]
assert groups[0]["majority"] and groups[0]["count"] == 998, groups[0]
assert groups[0]["hosts"] == "gpu[0001-0041,0043-0499,0501-1000]", groups[0]["hosts"]
outliers = {g["hosts"]: g["differs"] for g in groups[1:]}
assert outliers == {
    "gpu0042": [{"field": "driver", "value": "535.104.05", "fleet": "550.54.15"}],
    "gpu0500": [{"field": "gpu_count", "value": "7", "fleet": "8"}],
}, outliers
assert all(g["fix"] for g in groups[1:]), groups
assert "550.54.15" in groups[1]["fix"] or "550.54.15" in groups[2]["fix"]
slow = {(s["host"], s["metric"]) for s in fl["slow"]}
assert slow == {("gpu0777", "gpu_fp32_fma")}, fl["slow"]
assert fl["unfinished"] == [] and fl["unreadable"] == [], fl
named = {f["library"] for f in doc["findings"]}
assert named == {"gpu0042", "gpu0500", "gpu0777"}, doc["findings"]
P

# Bad reports beside good ones: each named on stderr, the others read.
head -n 6 "$tmp/fleet.jsonl" >"$tmp/good.jsonl"
printf 'garbage\n' >"$tmp/garbage.json"
head -c 5000 "$tmp/check.jsonl" >"$tmp/truncated.json"
printf '{"hello": "world"}\n' >"$tmp/other.json"
python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).readline()); d.pop("host"); d["system"].pop("hostname"); print(json.dumps(d))' \
    "$tmp/check.jsonl" >"$tmp/nohost.json"
set +e
"$td" fleet "$tmp/good.jsonl" "$tmp/garbage.json" "$tmp/truncated.json" "$tmp/other.json" \
    "$tmp/nohost.json" "$tmp/absent.json" >"$tmp/mixed.txt" 2>"$tmp/mixed.err"
rc=$?
set -e
[ $rc -eq 0 ] || { echo "3 good nodes beside bad files: exit 0 expected, got $rc"; cat "$tmp/mixed.err"; exit 1; }
grep -q '3 nodes from 6 reports' "$tmp/mixed.txt" || { cat "$tmp/mixed.txt"; exit 1; }
for f in garbage.json truncated.json other.json nohost.json absent.json; do
    grep -q "$f" "$tmp/mixed.err" || { echo "$f is not named on stderr:"; cat "$tmp/mixed.err"; exit 1; }
done
grep -q 'truncated.json: not valid JSON' "$tmp/mixed.err" || { cat "$tmp/mixed.err"; exit 1; }
# A file that is not there is named once: "PATH: cannot open: ...", not "PATH: PATH: ...".
grep -qx "torchdoctor fleet: $tmp/absent.json: cannot open: No such file or directory" "$tmp/mixed.err" ||
    { echo "absent.json's line:"; grep absent.json "$tmp/mixed.err"; exit 1; }
set +e
"$td" fleet "$tmp/garbage.json" "$tmp/absent.json" >/dev/null 2>"$tmp/none.err"
rc=$?
set -e
[ $rc -eq 2 ] || { echo "nothing readable: exit 2 expected, got $rc"; exit 1; }
grep -q 'no report could be read' "$tmp/none.err" || { cat "$tmp/none.err"; exit 1; }

# srun -l on stdin: three tasks' pretty-printed reports, lines interleaved.
python3 - "$tmp/check.jsonl" >"$tmp/labelled.txt" <<'P'
import json, sys
d = json.loads(open(sys.argv[1]).readline())
tasks = []
for t, host in enumerate(["node1", "node2", "node3"]):
    d["host"] = d["system"]["hostname"] = host
    tasks.append(json.dumps(d, indent=1).splitlines())
for i in range(max(map(len, tasks))):
    for t, lines in enumerate(tasks):
        if i < len(lines):
            print("%d: %s" % (t, lines[i]))
P
"$td" fleet - <"$tmp/labelled.txt" >"$tmp/labelled.out"
grep -q 'node\[1-3\] (3 nodes)' "$tmp/labelled.out" || { cat "$tmp/labelled.out"; exit 1; }

# --expect: a named node without a report is missing, not dropped.
set +e
"$td" fleet --expect 'gpu[0001-0004]' "$tmp/good.jsonl" >"$tmp/expect.txt"
rc=$?
set -e
[ $rc -eq 1 ] && grep -q 'missing gpu0004' "$tmp/expect.txt" || { echo "rc $rc"; cat "$tmp/expect.txt"; exit 1; }

# Every format renders.
for f in markdown html; do "$td" fleet --format $f "$tmp/good.jsonl" >"$tmp/out.$f"; done
grep -q '^| `gpu\[0001-0003\]` | 3 |' "$tmp/out.markdown" || { cat "$tmp/out.markdown"; exit 1; }
grep -q '<code>gpu\[0001-0003\]</code>' "$tmp/out.html" || { echo "html"; exit 1; }
echo "fleet: ok"
