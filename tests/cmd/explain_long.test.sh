#!/usr/bin/env bash
# explain on a long text (docs/explain.md "Long texts"): a log over 256 KiB
# is cut down to its first 64 KiB, its last 192 KiB and the lines between
# that name a failure. A failure at the end, near the start (megabytes of
# noise after it) and in the middle gets the same answer as the failure
# alone, with the note saying what was read; a text of exactly 256 KiB is
# read whole (no note). Every JSON validates against the report schema.
set -euo pipefail
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 - "$tmp" <<'P'
import sys
tmp = sys.argv[1]
noise = "2024-05-01 10:00:%02d,123 - INFO - trainer.py:412 - epoch 3 step %d/60000 loss=0.%04d lr=3.0e-04\n"
def lines(n, at=0):
    return "".join(noise % (i % 60, at + i, i % 9999) for i in range(n))
end = "OSError: libcudnn.so.9: cannot open shared object file: No such file or directory\n"
start = ("2023-01-01 12:00:00.000000: W tensorflow/stream_executor/platform/default/dso_loader.cc:64] "
         "Could not load dynamic library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open "
         "shared object file: No such file or directory\n")
middle = ("Traceback (most recent call last):\n  File \"train.py\", line 3, in <module>\n    import torch\n"
          "ImportError: /opt/venv/lib/python3.11/site-packages/torch/lib/libtorch_cuda.so: undefined symbol: "
          "cudaGraphInstantiateWithFlags, version libcudart.so.12\n")
texts = {
    "end": (lines(40000) + end, end),
    "start": (lines(10) + start + lines(40000), start),
    "middle": (lines(20000) + middle + lines(20000, 20000), middle),
}
for name, (text, alone) in texts.items():
    open(f"{tmp}/{name}.log", "w").write(text)
    open(f"{tmp}/{name}.alone", "w").write(alone)
small = lines(2000) + end
pad = 256 * 1024 - len(small)
small = lines(2000) + ("ok " * pad)[: pad - 1] + "\n" + end
assert len(small) == 256 * 1024
open(f"{tmp}/window.log", "w").write(small)
open(f"{tmp}/over.log", "w").write(small + "\n")
P
for f in end start middle window over; do
    "$TD_BIN" explain --format json "$tmp/$f.log" >"$tmp/$f.json" || true
done
for f in end start middle; do
    "$TD_BIN" explain --format json "$tmp/$f.alone" >"$tmp/$f.alone.json" || true
done
"$TD_BIN" explain "$tmp/end.log" >"$tmp/end.txt" || true
/usr/bin/python3 - "$tmp" "$TD_SRC/schema/report.schema.json" <<'P'
import json, sys
import jsonschema
tmp = sys.argv[1]
schema = json.load(open(sys.argv[2]))
schema.pop("$id", None)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for name, want in (("end", "linux-libcudnn-purelib-platlib"), ("start", "linux-libcudart-bazel"),
                   ("middle", None)):
    d = json.load(open(f"{tmp}/{name}.json"))
    a = json.load(open(f"{tmp}/{name}.alone.json"))
    validator.validate(d)
    x, y = d["explain"], a["explain"]
    note = x.get("input_shortened") or ""
    ok = (x["id"] == y["id"] and (want is None or x["id"] == want) and x["id"]
          and x["load_error"] == y["load_error"] and note.startswith("a long text (")
          and "first 64 KiB, its last 192 KiB" in note)
    if name == "middle":
        ok = ok and " 0 lines" not in note
    print(("ok: " if ok else "FAIL: ") + f"{name}: {x['id']} (alone: {y['id']}); note: {note!r}")
    bad += not ok
w = json.load(open(f"{tmp}/window.json"))
o = json.load(open(f"{tmp}/over.json"))
validator.validate(w)
ok = "input_shortened" not in w["explain"] and "input_shortened" in o["explain"]
ok = ok and w["explain"]["id"] == o["explain"]["id"] == "linux-libcudnn-purelib-platlib"
print(("ok: " if ok else "FAIL: ") + "256 KiB read whole, one byte more shortened")
bad += not ok
text = open(f"{tmp}/end.txt").read()
ok = "a long text (" in text
print(("ok: " if ok else "FAIL: ") + "the text output carries the note")
bad += not ok
sys.exit(1 if bad else 0)
P
