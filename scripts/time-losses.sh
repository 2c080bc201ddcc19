#!/usr/bin/env bash
# Losses on time in self-play at a fast clock: plays the release engine against itself with
# `jieqi match` (protocol.md section 17), writes the records as JSON Lines, prints how many games
# ended with reason "time_forfeit" (and every game's reason), and exits 1 if there is any.
#
# Usage: scripts/time-losses.sh [GAMES] [OUT.jsonl]
#   GAMES       number of games (default 500)
#   OUT.jsonl   record file (default time-losses-<date>.jsonl in the current directory)
# Environment:
#   JIEQI       the engine binary (default: $CARGO_TARGET_DIR or target, /release/jieqi,
#               built with `cargo build --release` first so that it is current)
#   TC          time control (default 1+0.01: 1 s, 10 ms increment)
#   SEED        seed of the deals (default 1)
#   VARIANT     jieqi (default), maniac or xiangqi
#   MARGIN      --time-margin in ms (default: the runner's, 100)
#
# Exit status: 0 no time forfeit; 1 some game was lost on time, or records are missing;
# other: the match itself failed.
set -euo pipefail

games=${1:-500}
out=${2:-time-losses-$(date +%Y%m%d-%H%M%S).jsonl}
root=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${JIEQI:-}" ]; then
    engine=$JIEQI
else
    target=${CARGO_TARGET_DIR:-$root/target}
    (cd "$root" && cargo build --release --quiet)
    engine=$target/release/jieqi
fi
engine=$(cd "$(dirname "$engine")" && pwd)/$(basename "$engine")
[ -x "$engine" ] || { echo "error: no engine at $engine" >&2; exit 2; }

args=(match --engine "$engine" --engine "$engine" --games "$games" --tc "${TC:-1+0.01}"
      --concurrency 1 --seed "${SEED:-1}" --variant "${VARIANT:-jieqi}" --out "$out")
if [ -n "${MARGIN:-}" ]; then
    args+=(--time-margin "$MARGIN")
fi

rm -f "$out"
echo "time-losses: $engine ${args[*]:1}" >&2
"$engine" "${args[@]}"

python3 - "$out" "$games" <<'EOF'
import collections
import json
import sys

path, wanted = sys.argv[1], int(sys.argv[2])
reasons = collections.Counter()
forfeits = []
with open(path) as f:
    for line in f:
        if not line.strip():
            continue
        game = json.loads(line)
        reasons[game["reason"]] += 1
        if game["reason"] == "time_forfeit":
            forfeits.append(game)
played = sum(reasons.values())
print(f"games: {played}")
for reason, n in sorted(reasons.items()):
    print(f"  {reason}: {n}")
for game in forfeits:
    print(f"game {game['game']} after {game['plies']} plies: {game['detail']}")
print(f"time_forfeit: {len(forfeits)}")
# A match plays an even number of games (each deal twice).
if played < wanted:
    print(f"error: only {played} of {wanted} games were recorded", file=sys.stderr)
    sys.exit(1)
sys.exit(1 if forfeits else 0)
EOF
