#!/usr/bin/env bash
# Builds the strength baseline: the engine as it was when the search issue was resolved
# (commit 7dc98fd, tagged baseline-search when the tag exists), into target/baseline/jieqi-baseline.
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
