# Shared by the benchmark scripts (sourced, not run).
# measure LABEL VAR COMMAND...: median wall time of 5 runs after one warm-up,
# and peak RSS of the last, printed and kept in T_VAR / M_VAR. Needs $tmp.
measure() {
    local name=$1 var=$2
    shift 2
    "$@" >/dev/null 2>&1 || true
    local times=() rss=0 out
    for _ in 1 2 3 4 5; do
        /usr/bin/time -o "$tmp" -f '%e %M' "$@" >/dev/null 2>&1 || true
        out=$(tail -1 "$tmp")
        times+=("${out% *}")
        rss=${out#* }
    done
    local median
    median=$(printf '%s\n' "${times[@]}" | sort -n | sed -n 3p)
    printf '%-44s %7.3f s %9d KiB\n' "$name" "$median" "$rss"
    eval "T_$var=$median; M_$var=$rss"
}
