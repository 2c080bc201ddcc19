#!/usr/bin/env bash
# One change screened against a peer engine: the control and the candidate each play the peer at
# the same time, on the same deals, each on half of the cores, and `jieqi compare` reports the
# candidate's score minus the control's, pair by pair. Playing both at once gives both the same
# conditions (the machine, its load), which move a single peer match by more than most changes.
#
# Usage: scripts/peer-ab.sh PEER_BINARY "OPTION=VALUE ..." [GAMES] [TC]
#   OPTION=VALUE  the candidate's engine options (e.g. "Param_qsearch_checks=true"); the
#                 control plays with the defaults (or CONTROL_OPTIONS, below).
#   GAMES  default 200 per side (100 pairs).     TC  default 10+0.1.
#   CONTROL=<binary>, CANDIDATE=<binary>: the builds to play (default: this build, both), so two
#   builds compare with no options ("" as OPTION=VALUE). CONTROL_OPTIONS="OPTION=VALUE ...": the
#   control's options (default: none), e.g. a default switched off to measure it against the
#   build's defaults. SEED=<n>: the deals (default 20261201).
#   NAME=<label>: the record files' name (default: the options). RESUME=1: finish a screen of
#   the same arguments that stopped before its end, keeping the games of its records.
# An option that the control or the candidate build refuses (its `info string ignored setoption`
# reply) stops the script before any game, with status 2.
# Only Jieqi peers (PikaJieQi). Records go to target/peer/ab-<label>-{control,candidate}.jsonl,
# the comparison also to target/peer/ab-<label>.txt.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
usage="usage: scripts/peer-ab.sh PEER_BINARY \"OPTION=VALUE ...\" [GAMES] [TC]"
peer=${1:?$usage}
[[ $# -ge 2 ]] || { echo "$usage" >&2; exit 2; }
options=$2
[[ -f "$peer" && -x "$peer" ]] || { echo "error: $peer is not an executable" >&2; exit 2; }
peer=$(cd "$(dirname "$peer")" && pwd)/$(basename "$peer")
absolute() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
control=${CONTROL:+$(absolute "$CONTROL")}
candidate=${CANDIDATE:+$(absolute "$CANDIDATE")}
cd "$root"
cargo build --release --quiet
control=${control:-$root/target/release/jieqi}
candidate=${candidate:-$root/target/release/jieqi}
games=${3:-200}
tc=${4:-10+0.1}
spec="option.Threads=1 option.Hash=64"
engine_options() {
    local o out=""
    for o in $1; do
        [[ "$o" == *=* ]] || { echo "error: '$o' is not OPTION=VALUE" >&2; return 2; }
        out+=" option.$o"
    done
    echo "$out"
}
extra=$(engine_options "$options") || exit 2
control_extra=$(engine_options "${CONTROL_OPTIONS:-}") || exit 2
# Every option must reach the engine: one it refuses (a switch given as 1, a number out of
# range, a name it does not know) leaves its default in place, and the screen measures nothing.
refusals() {
    local o lines="uci"
    for o in $2; do
        lines+=$'\n'"setoption name ${o%%=*} value ${o#*=}"
    done
    printf '%s\nisready\nquit\n' "$lines" | "$1" 2>/dev/null \
        | sed -n 's/^info string \(ignored setoption .*\)/\1/p'
}
for side_options in "$control|${CONTROL_OPTIONS:-}" "$candidate|$options"; do
    refused=$(refusals "${side_options%%|*}" "${side_options#*|}")
    if [[ -n "$refused" ]]; then
        echo "error: ${side_options%%|*}: $refused" >&2
        exit 2
    fi
done
label=${NAME:-$(echo "${options:-builds}" | tr -c 'A-Za-z0-9=.\n-' '_' | tr '=' '-')}
cores=$(nproc 2>/dev/null || echo 2)
half=$(( cores / 2 > 0 ? cores / 2 : 1 ))
mkdir -p target/peer
out="target/peer/ab-$label"
side() {
    target/release/jieqi match --engine "name=jieqi cmd='$1' $spec$2" \
        --engine "name=$(basename "$peer") cmd='$peer' $spec" --variant jieqi --tc "$tc" \
        --games "$games" --concurrency "$half" --seed "${SEED:-20261201}" --quiet \
        ${RESUME:+--resume} --out "$out-$3.jsonl" > "$out-$3.txt"
}
[[ -n "${RESUME:-}" ]] || rm -f "$out-control.jsonl" "$out-candidate.jsonl"
side "$control" "$control_extra" control &
first=$!
side "$candidate" "$extra" candidate &
second=$!
status=0
wait "$first" || status=$?
wait "$second" || status=$?
for s in control candidate; do
    echo "# $s"
    cat "$out-$s.txt"
done
target/release/jieqi compare "$out-control.jsonl" "$out-candidate.jsonl" | tee "$out.txt"
exit "$status"
