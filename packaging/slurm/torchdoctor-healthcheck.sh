#!/bin/sh
# Slurm HealthCheckProgram (slurm.conf) or an NHC check: torchdoctor check
# --health prints one line fit for a drain reason and exits 1 when this node
# cannot run PyTorch on its GPUs (the driver, the GPUs, the torch closure,
# the environment); it prints the `scontrol update ... state=drain` line and
# never runs it. This wrapper logs both lines; it drains the node only when
# the admin asks for it with TD_DRAIN=1 in its environment.
#
#   slurm.conf:  HealthCheckProgram=/usr/share/torchdoctor/slurm/torchdoctor-healthcheck.sh
#                HealthCheckInterval=300
td=${TORCHDOCTOR:-torchdoctor}
out=$("$td" check --health 2>&1)
status=$?
[ $status -eq 0 ] && exit 0
printf '%s\n' "$out" | logger -t torchdoctor 2>/dev/null || printf '%s\n' "$out" >&2
if [ "${TD_DRAIN:-0}" = 1 ]; then
    drain=$(printf '%s\n' "$out" | grep '^scontrol update ')
    [ -n "$drain" ] && sh -c "$drain"
fi
exit $status
