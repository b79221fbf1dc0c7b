#!/usr/bin/env bash
# The shell completions the build writes (build/completions,
# src/cmd/args_complete.c). bash: its completion function is driven as bash
# drives it (COMP_WORDS, COMP_CWORD, then COMPREPLY is read). fish: asked
# with `complete -C`. zsh: syntax only (zsh -n).
set -u
td=$TD_BIN
dir=$TD_BUILD/completions
fails=0
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }

bash_file=$dir/bash/torchdoctor
[ -f "$bash_file" ] || { echo "FAIL: $bash_file was not built"; exit 1; }
"$td" __completion bash | cmp -s - "$bash_file" || fail "$bash_file is not what the program writes now"

# offers WORD... : what bash's completion offers for the words after it.
bash_offers() {
    bash --norc -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
        _torchdoctor; printf "%s\n" "${COMPREPLY[@]}"' _ "$bash_file" "$@" | sort
}
# expect "WANTED WORDS" WORD...: each wanted word is offered.
expect() {
    local want=$1
    shift
    local got
    got=$(bash_offers "$@")
    for w in $want; do
        grep -qxF -- "$w" <<<"$got" || fail "bash: '$*' does not offer $w (offers: $(echo $got))"
    done
}
# never "WORD" WORD...: the word is not offered.
never() {
    local bad=$1
    shift
    bash_offers "$@" | grep -qxF -- "$bad" && fail "bash: '$*' offers $bad"
}

commands=$("$td" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 {print $1}')
expect "$commands" torchdoctor ""
expect "deps" torchdoctor de
never "__man" torchdoctor ""
deps_options=$("$td" deps --help | grep -oE '^  (-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+')
expect "$deps_options" torchdoctor deps --
never "--workload" torchdoctor deps --
expect "text json markdown dot" torchdoctor deps --format ""
expect "text json markdown" torchdoctor check --format ""
never "dot" torchdoctor check --format ""
# --format=j: bash splits the line at '=' (COMP_WORDBREAKS) into these words
expect "json" torchdoctor check --format = j
expect "text json markdown" torchdoctor check --format =
expect "auto exe dlopen python-extension torch-import" torchdoctor deps --profile ""
expect "auto linux windows macos" torchdoctor deps --platform ""
expect "auto always never" torchdoctor inspect --color ""
# Workloads: the program's own list (--workload list), which is data/workloads.tsv.
workloads=$("$td" check --workload list | awk '/^[a-z0-9]/ {print $1}')
[ -n "$workloads" ] || fail "check --workload list lists nothing"
expect "list $workloads" torchdoctor check --workload ""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/somedir" && touch "$tmp/somefile"
expect "$tmp/somedir" torchdoctor deps --root "$tmp/some"
never "$tmp/somefile" torchdoctor deps --root "$tmp/some"
expect "$tmp/somefile" torchdoctor deps "$tmp/some"

if command -v fish >/dev/null; then
    fish_file=$dir/fish/torchdoctor.fish
    fish -n "$fish_file" || fail "fish -n refuses $fish_file"
    fish_offers() { HOME=$tmp fish --no-config -c "source $fish_file; complete -C '$1'" | cut -f1 | sort; }
    for w in $commands; do fish_offers "torchdoctor " | grep -qxF "$w" || fail "fish: no command $w"; done
    fish_offers "torchdoctor check --format " | grep -qxF markdown || fail "fish: no markdown after --format"
    fish_offers "torchdoctor deps --pro" | grep -qxF -- --profile || fail "fish: no --profile"
    fish_offers "torchdoctor check --workload " | grep -qxF "$(echo "$workloads" | head -1)" ||
        fail "fish: no workloads after --workload"
else
    echo "skipped: fish is not installed (Debian: fish)"
fi

if command -v zsh >/dev/null; then
    zsh -n "$dir/zsh/_torchdoctor" || fail "zsh -n refuses $dir/zsh/_torchdoctor"
    grep -qF "(text json markdown html dot)" "$dir/zsh/_torchdoctor" || fail "zsh: no deps formats"
else
    echo "skipped: zsh is not installed (Debian: zsh)"
fi

[ "$fails" -eq 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "ok"
