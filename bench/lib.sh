# Shared by the benchmark scripts (sourced, not run).
# measure LABEL VAR COMMAND...: median wall time from hyperfine (no shell,
# exit status ignored: check exits 1 when it finds an error,
# 3 warm-up runs, then 10 to 30 runs: at least 3 s of them), and the peak
# RSS (largest of 3 runs, /usr/bin/time), printed and kept in T_VAR
# (seconds) and M_VAR (KiB). Needs $tmp.
# The tools measure needs; without them every number would be 0 and the
# ratios a division by zero.
for tool in hyperfine bc /usr/bin/time; do
    command -v "$tool" >/dev/null || {
        echo "bench: $tool is not installed (bash scripts/install-deps.sh bench)" >&2
        exit 2
    }
done

measure() {
    local name=$1 var=$2
    shift 2
    local cmd
    cmd=$(printf '%q ' "$@")
    hyperfine -N -i --warmup 3 --min-runs 10 --max-runs 30 --export-json "$tmp.hf" \
        --output=null "$cmd" >/dev/null 2>&1 || true
    local median rss=0 out
    median=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["median"])' "$tmp.hf" 2>/dev/null || echo 0)
    for _ in 1 2 3; do
        /usr/bin/time -o "$tmp" -f '%M' "$@" >/dev/null 2>&1 || true
        out=$(tail -1 "$tmp")
        [ "$out" -gt "$rss" ] 2>/dev/null && rss=$out
    done
    rm -f "$tmp.hf"
    printf '%-44s %8.4f s %9d KiB\n' "$name" "$median" "$rss"
    eval "T_$var=$median; M_$var=$rss"
}
