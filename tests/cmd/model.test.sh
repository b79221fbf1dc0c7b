#!/usr/bin/env bash
# Model files (safetensors, sharded, diffusers, GGUF, a FLUX-shaped 12B header) through
# inspect, malformed headers, and check --workload's memory formula (model_cases.py).
set -euo pipefail
exec /usr/bin/python3 "$TD_SRC/tests/cmd/model_cases.py"
