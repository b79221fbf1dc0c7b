#!/usr/bin/env bash
# Hostile archives and manifests (hostile_zips.py): a zip bomb whose
# METADATA and RECORD each inflate to 1 GiB, a wheel of 1,000,000 members,
# a RECORD of 1,000,000 lines. Read within bounds or refused with a message
# that says why; never a hang, a crash or a silent "nothing wrong".
source "$TD_SRC/tests/faults/faultkit.sh"
td=$TD_BIN
gen=$work/gen
mkdir "$gen"
python3 "$TD_SRC/tests/faults/hostile_zips.py" "$gen" || { echo "FAIL: cannot generate the archives"; exit 1; }
bomb=$gen/bomb-1.0-py3-none-any.whl
many=$gen/members-1.0-py3-none-any.whl

expect "inspect a zip bomb" 0 "METADATA +size 1073741824" -- "$td" inspect "$bomb"
expect "inspect --symbols a zip bomb" 0 "" -- "$td" inspect --symbols --format json "$bomb"
expect "inspect 1,000,000 members" 2 "members-1\.0-py3-none-any\.whl.*limit reached for 1000000 entries" -- \
    "$td" inspect "$many"
pip_root record
cat "$gen/RECORD" >>"$site"/torch-*.dist-info/RECORD
expect "check --verify: a RECORD of 1,000,000 lines" "0|1" \
    "RECORD cannot be read \(RECORD: arena limit reached for 1000010 rows\)" -- \
    "$td" check --root "$root" --no-gpu --verify --format json
finish
