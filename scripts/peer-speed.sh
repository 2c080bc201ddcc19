#!/usr/bin/env bash
# Search speed side by side with a peer engine: this build and PEER_BINARY search the Jieqi start
# position in turn (`go movetime MS`, one thread, 64 MiB of hash), RUNS times each, alternating so
# that both see the same machine load. Prints each run's depth, nodes and nodes per second as the
# engines report them in their last `info depth` line, then the medians and the ratio of the
# medians (this build over the peer).
#
# Usage: scripts/peer-speed.sh PEER_BINARY [RUNS] [MS]     defaults: 3 runs of 5000 ms
# Depths are each engine's own nominal depth: they are not defined alike.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
peer=${1:?usage: scripts/peer-speed.sh PEER_BINARY [RUNS] [MS]}
[[ -f "$peer" && -x "$peer" ]] || { echo "error: $peer is not an executable" >&2; exit 2; }
peer=$(cd "$(dirname "$peer")" && pwd)/$(basename "$peer")
runs=${2:-3}
ms=${3:-5000}
[[ "$runs" =~ ^[1-9][0-9]*$ && "$ms" =~ ^[1-9][0-9]*$ ]] || {
    echo "error: RUNS and MS must be positive integers" >&2
    exit 2
}
cd "$root"
cargo build --release --quiet
wait_s=$(awk -v ms="$ms" 'BEGIN { printf "%.1f", ms / 1000 + 1.5 }')

# One search: prints "depth nodes nps" from the engine's last `info depth` line.
one_run() {
    { printf 'uci\nsetoption name Threads value 1\nsetoption name Hash value 64\nisready\n'
      printf 'position startpos\ngo movetime %s\n' "$ms"
      sleep "$wait_s"
      printf 'quit\n'; } | "$1" 2>/dev/null | grep '^info depth' | tail -1 |
        awk '{ for (i = 1; i < NF; i++) { if ($i == "depth") d = $(i + 1);
               if ($i == "nodes") n = $(i + 1); if ($i == "nps") p = $(i + 1) }
               print d, n, p }'
}

results=$(mktemp)
trap 'rm -f "$results"' EXIT
for ((r = 1; r <= runs; r++)); do
    for who in jieqi peer; do
        bin=target/release/jieqi
        [[ $who == peer ]] && bin=$peer
        line=$(one_run "$bin")
        [[ -n "$line" ]] || { echo "error: $who printed no info depth line" >&2; exit 1; }
        echo "run $r $who depth nodes nps: $line"
        echo "$who $line" >> "$results"
    done
done
awk '
    function median(a, n,   i, j, t) {
        for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
            t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
        return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
    }
    $1 == "jieqi" { jn++; jd[jn] = $2; jp[jn] = $4 }
    $1 == "peer"  { pn++; pd[pn] = $2; pp[pn] = $4 }
    END {
        mj = median(jp, jn); mp = median(pp, pn)
        printf "median nps: jieqi %d, peer %d, ratio %.2f\n", mj, mp, mj / mp
        printf "median depth: jieqi %s, peer %s\n", median(jd, jn), median(pd, pn)
    }' "$results"
