#!/usr/bin/env bash
# The standard match against a peer engine: this build against PEER_BINARY, one thread and 64 MiB
# of hash each, paired deals (or paired openings), through `jieqi match`. Prints the summary.
#
# Usage: scripts/peer-match.sh PEER_BINARY [GAMES] [TC]
#   A peer that offers the option UCI_Variant (Fairy-Stockfish) is played at Xiangqi, from the
#   100 two-ply openings of scripts/xiangqi-openings.txt, with its moves read and written in ranks
#   1-10 (ranks=1); any other peer (PikaJieQi) is played at Jieqi.
#   GAMES  default 400 at Jieqi, 200 at Xiangqi.     TC  default 10+0.1.
#   CONCURRENCY=<n> games at once (default: the number of cores; each game has one engine
#   thinking at a time). SEED=<n> the deals' seed (default 20261201). RESUME=1: finish a match
#   of the same arguments that stopped before its end, keeping the games of its records.
# Records go to target/peer/<variant>-<peer>-<tc>.jsonl, the summary also to the .txt beside it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peer=${1:?usage: scripts/peer-match.sh PEER_BINARY [GAMES] [TC]}
[[ -f "$peer" && -x "$peer" ]] || { echo "error: $peer is not an executable" >&2; exit 2; }
peer=$(cd "$(dirname "$peer")" && pwd)/$(basename "$peer")
cd "$root"
cargo build --release --quiet
if printf 'uci\nquit\n' | timeout 10 "$peer" 2>/dev/null | grep -q 'option name UCI_Variant'; then
    variant=xiangqi
    peer_spec=(--engine "name=$(basename "$peer") cmd='$peer' ranks=1 option.Threads=1 option.Hash=64")
    extra=(--openings scripts/xiangqi-openings.txt)
    games=${2:-200}
else
    variant=jieqi
    peer_spec=(--engine "name=$(basename "$peer") cmd='$peer' option.Threads=1 option.Hash=64")
    extra=()
    games=${2:-400}
fi
tc=${3:-10+0.1}
cores=$(nproc 2>/dev/null || echo 2)
mkdir -p target/peer
out="target/peer/$variant-$(basename "$peer")-$tc"
target/release/jieqi match --engine "name=jieqi cmd=target/release/jieqi option.Threads=1 option.Hash=64" \
    "${peer_spec[@]}" --variant "$variant" --tc "$tc" --games "$games" \
    --concurrency "${CONCURRENCY:-$cores}" --seed "${SEED:-20261201}" "${extra[@]}" \
    ${RESUME:+--resume} --out "$out.jsonl" | tee "$out.txt"
