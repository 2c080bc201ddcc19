#!/bin/sh
# Turns the seed corpora of tests/corpus/ (one input per line) into cargo-fuzz corpus folders,
# one file per line: fuzz/corpus/fuzz_fen, fuzz_move and fuzz_protocol_line.
set -eu
cd "$(dirname "$0")"
for pair in fuzz_fen:fen fuzz_move:moves fuzz_protocol_line:protocol; do
    target=${pair%%:*}
    name=${pair#*:}
    mkdir -p "corpus/$target"
    i=0
    while IFS= read -r line || [ -n "$line" ]; do
        i=$((i + 1))
        printf '%s' "$line" > "corpus/$target/seed-$i"
    done < "../tests/corpus/$name.txt"
done
