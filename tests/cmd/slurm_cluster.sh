# A real single-node Slurm for the tests (sourced): munged, slurmctld and
# slurmd from Debian's munge, slurmctld, slurmd and slurm-client, on
# localhost with a temporary configuration and their own ports, torn down
# by slurm_down. slurm_up returns 1 with the reason in $slurm_why when this
# machine cannot run them; the caller then prints "skipped: $slurm_why".
# Facts from tests on this kind of machine (no systemd, root without
# CAP_SYS_RESOURCE): munged refuses a key others can read and a socket
# folder any of whose parents is not searchable by all; slurmctld names
# itself by the short host name; readiness is polled (scontrol ping, then
# sinfo's node state), never waited for with a fixed sleep.

slurm_pids=()
slurm_why=""

slurm_need() {
    for p in munged slurmctld slurmd srun sbatch scontrol sinfo; do
        command -v "$p" >/dev/null || {
            slurm_why="$p is not on PATH (Debian packages munge slurmctld slurmd slurm-client)"
            return 1
        }
    done
}

# slurm_wait SECONDS COMMAND...: polls COMMAND every 0.2 s until it succeeds.
slurm_wait() {
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $deadline ] || return 1
        sleep 0.2
    done
}

slurm_node_idle() {
    sinfo -h -N -o '%t' | grep -qE '^(idle|mix|alloc)'
}

slurm_up() {
    slurm_need || return 1
    local dir=$1 host port
    host=$(hostname -s)
    mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
    chmod 755 "$dir" "$dir/munge"
    # munged checks every parent of its socket folder for o+x.
    local d=$dir
    while [ "$d" != / ]; do
        [ -n "$(find "$d" -maxdepth 0 -perm -o+x)" ] || {
            slurm_why="munged needs every parent of its socket folder searchable by all: $d is not"
            return 1
        }
        d=$(dirname "$d")
    done
    dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
    chmod 400 "$dir/munge/munge.key"
    munged -f --key-file="$dir/munge/munge.key" --socket="$dir/munge/sock" \
        --pid-file="$dir/munge/pid" --log-file="$dir/munge/log" \
        --seed-file="$dir/munge/seed" >/dev/null 2>&1 || {
        slurm_why="munged did not start: $(tail -1 "$dir/munge/log" 2>/dev/null)"
        return 1
    }
    slurm_pids+=("$(cat "$dir/munge/pid")")
    # Ports from this shell's PID, kept clear of others' (two per run).
    port=$((20000 + ($$ % 20000) * 2))
    local hw
    hw=$(slurmd -C 2>/dev/null | head -1 | sed 's/^NodeName=[^ ]* //; s/ UpTime.*//')
    cat >"$dir/slurm.conf" <<CONF
ClusterName=tdtest
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge/sock
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$port
SlurmdPort=$((port + 1))
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
MailProg=/bin/true
ReturnToService=2
SchedulerType=sched/builtin
SelectType=select/linear
NodeName=$host NodeAddr=127.0.0.1 $hw State=UNKNOWN
PartitionName=test Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF=$dir/slurm.conf
    slurmctld -c -f "$SLURM_CONF" >"$dir/slurmctld.out" 2>&1 || {
        slurm_why="slurmctld did not start: $(tail -2 "$dir/slurmctld.log" "$dir/slurmctld.out" 2>/dev/null | tr '\n' ' ')"
        return 1
    }
    slurm_wait 30 test -s "$dir/slurmctld.pid" && slurm_pids+=("$(cat "$dir/slurmctld.pid")")
    slurmd -f "$SLURM_CONF" >"$dir/slurmd.out" 2>&1 || {
        slurm_why="slurmd did not start: $(tail -2 "$dir/slurmd.log" "$dir/slurmd.out" 2>/dev/null | tr '\n' ' ')"
        return 1
    }
    slurm_wait 30 test -s "$dir/slurmd.pid" && slurm_pids+=("$(cat "$dir/slurmd.pid")")
    slurm_wait 60 scontrol ping || {
        slurm_why="slurmctld does not answer scontrol ping within 60 s: $(tail -3 "$dir/slurmctld.log" | tr '\n' ' ')"
        return 1
    }
    slurm_wait 60 slurm_node_idle || {
        slurm_why="node $host is not idle within 60 s ($(sinfo -h -N -o '%t %E' 2>&1)): $(tail -3 "$dir/slurmd.log" | tr '\n' ' ')"
        return 1
    }
}

# Stops what slurm_up started, by PID, newest first; waits for each to go.
slurm_down() {
    local i pid
    for ((i = ${#slurm_pids[@]} - 1; i >= 0; i--)); do
        pid=${slurm_pids[i]}
        kill "$pid" 2>/dev/null || continue
        slurm_wait 30 bash -c "! kill -0 $pid" || kill -9 "$pid" 2>/dev/null
    done
    slurm_pids=()
}
