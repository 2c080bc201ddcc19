#!/usr/bin/env bash
# Builds the strength baseline (docs/strength.md, "Method"): commit 7dc98fd, the engine with its
# complete search and the hand-set weights, into target/baseline/jieqi-baseline. The commit is
# extracted with git archive and built in its own target directory.
# Usage: scripts/build-baseline.sh [COMMIT]   (default: the baseline commit)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:-7dc98fd}
out="$root/target/baseline"
src="$out/src-$commit"
mkdir -p "$out"
if [[ -x "$out/jieqi-$commit" ]]; then
    echo "already built: $out/jieqi-$commit"
else
    rm -rf "$src"
    mkdir -p "$src"
    git -C "$root" archive "$commit" | tar -x -C "$src"
    (cd "$src" && CARGO_TARGET_DIR="$out/target" cargo build --release --quiet)
    cp "$out/target/release/jieqi" "$out/jieqi-$commit"
    rm -rf "$src"
fi
if [[ $# -eq 0 ]]; then
    ln -sf "jieqi-$commit" "$out/jieqi-baseline"
    echo "baseline: $out/jieqi-baseline -> jieqi-$commit"
fi
"$out/jieqi-$commit" bench 2>/dev/null | tail -2
