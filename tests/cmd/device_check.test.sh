#!/usr/bin/env bash
# bench/device-check.sh, the script run on a machine lent a real GPU: here,
# without one, it must pass by naming every check it skipped; and its
# comparison must hold: a stand-in driver (fake libcuda/libnvidia-ml) and a
# stand-in nvidia-smi that agree give exit 0, one fact changed gives 1.
set -uo pipefail
. "$TD_SRC/tests/check.sh"
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
script=$TD_SRC/bench/device-check.sh

out=$(env -i PATH=/usr/bin:/bin HOME=/nonexistent bash "$script" --no-build "$TD_BIN")
rc=$?
check "no GPU: exit 0 ($rc)" test "$rc" = 0
check "no GPU: nine checks named as skipped" test "$(grep -c '^  skipped: ' <<<"$out")" = 9

mkdir "$t/bin"
cat >"$t/bin/nvidia-smi" <<'SMI'
#!/bin/sh
echo "0, NVIDIA H100 80GB HBM3, ${FAKE_SMI_DRIVER:-590.44.01}, 9.0, 81559, 2520, 10501, 4, 16"
SMI
chmod +x "$t/bin/nvidia-smi"
fake() {
    env -i PATH="$t/bin:/usr/bin:/bin" HOME=/nonexistent LD_LIBRARY_PATH="$TD_FIXTURES/fake_cuda/lib" \
        TD_FAKE_CUDA_VERSION=13010 TD_FAKE_NVML_DRIVER=590.44.01 \
        TD_FAKE_GPUS="NVIDIA H100 80GB HBM3:9.0:85520809984" \
        TD_FAKE_BENCH="h2d=26,d2h=26.5,h2d_pageable=10,d2h_pageable=9,d2d=2900,fma=60000" "$@" \
        bash "$script" --no-build "$TD_BIN"
}
out=$(fake)
rc=$?
echo "$out"
check "agreeing stand-ins: exit 0 ($rc)" test "$rc" = 0
check "every fact agrees" test "$(grep -c ' agree$' <<<"$out")" -ge 7
out=$(fake FAKE_SMI_DRIVER=550.54.15)
rc=$?
check "another driver version: exit 1 ($rc)" test "$rc" = 1
check "the disagreement is named" grep -q 'driver version .*550.54.15 .*DISAGREE' <<<"$out"
exit $fail
