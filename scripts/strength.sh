#!/usr/bin/env bash
# One strength test: a paired-deal match of two engine specs through `jieqi match`, its records
# in target/strength/NAME.jsonl and its summary in target/strength/NAME.txt (also printed).
#
# Usage: scripts/strength.sh NAME [NEW] [OLD] [jieqi match options...]
#   NEW, OLD  engine specs for --engine (default: this build, and the baseline built by
#             scripts/build-baseline.sh). Words: name=, cmd=, option.X=, tc=, nodes= ...
#   options   default: --variant jieqi --tc 10+0.1 --games 400 --concurrency <cores>
#             (later options win; e.g. --tc 1+0.01 --games 200 --sprt elo0=0 elo1=10)
# Examples (the tests of docs/strength.md):
#   scripts/strength.sh vs-baseline
#   scripts/strength.sh probe-off "name=probe-off cmd=target/release/jieqi option.Param_probe=false" \
#       "name=default cmd=target/release/jieqi" --tc 2+0.02
#   scripts/strength.sh tuned "name=tuned cmd=target/release/jieqi option.WeightsFile=tuned.txt" \
#       "name=default cmd=target/release/jieqi" --tc 2+0.02
#   (search parameters and weight files are engine options: protocol.md section 8)
# RESUME=1: finish a test of the same name and arguments that stopped before its end, keeping
# the games of its records (`jieqi match --resume`).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
name=${1:?usage: scripts/strength.sh NAME [NEW] [OLD] [match options...]}
shift
new=${1:-name=new cmd=target/release/jieqi}
[[ $# -gt 0 ]] && shift
old=${1:-name=baseline cmd=target/baseline/jieqi-baseline}
[[ $# -gt 0 ]] && shift
cargo build --release --quiet
if [[ "$old" == *target/baseline/jieqi-baseline* && ! -x target/baseline/jieqi-baseline ]]; then
    scripts/build-baseline.sh
fi
mkdir -p target/strength
cores=$(nproc 2>/dev/null || echo 2)
tc=(--tc 10+0.1)
for a in "$@"; do
    case "$a" in --nodes | --movetime | --depth) tc=() ;; esac
done
target/release/jieqi match --engine "$new" --engine "$old" \
    --variant jieqi "${tc[@]}" --games 400 --concurrency "$cores" --seed 20261129 \
    --time-margin 200 "$@" ${RESUME:+--resume} --out "target/strength/$name.jsonl" \
    | tee "target/strength/$name.txt"
