#!/usr/bin/env bash
# The PEP 440/508 evaluator against python3-packaging (see pep508_oracle.py).
set -euo pipefail
if ! /usr/bin/python3 -c 'import packaging.requirements' 2>/dev/null; then
    echo "skipped: python3-packaging is not installed (scripts/install-deps.sh test)"
    exit 0
fi
exec /usr/bin/python3 "$TD_SRC/tests/kb/pep508_oracle.py" "$TD_BUILD/test_kb_pep508"
