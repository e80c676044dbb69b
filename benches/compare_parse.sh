#!/usr/bin/env bash
# Side by side: the speed reference (pgn-reader 0.29, --mode parse) and pgnkit's parse-only path
# (examples/parse_only.rs: read_games over fixed-size blocks), interleaved, on the same file.
# Prints per-run times, then min/median MB/s and games/s for each and the ratio pgnkit / reference.
#
# Usage: benches/compare_parse.sh [RUNS] [FILE]
#   RUNS defaults to 7; FILE to the 11.7 MB GNU Chess book slice (20,000 games).
# Run from the repository root. Builds both: pgnkit with the dist profile (as shipped: fat LTO), the reference
# (release) to target/reference.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-7}
FILE=${2:-../shared/corpus/games-english/gnuchess-book_games-000001-020000.pgn}
[ -f "$FILE" ] || { echo "no such file: $FILE" >&2; exit 2; }

CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path ../shared/bench/reference/Cargo.toml
cargo build --profile dist --quiet --example parse_only
REF=target/reference/release/pgnkit-reference
PGNKIT=target/dist/examples/parse_only

bytes=$(stat -c %s "$FILE")
cat "$FILE" > /dev/null  # warm the page cache
games=$("$REF" --mode parse "$FILE" | sed -n 's/^games=\([0-9]*\).*/\1/p')
ours=$("$PGNKIT" "$FILE" | sed -n 's/^games=\([0-9]*\).*/\1/p')
if [ "$games" != "$ours" ]; then
    # e.g. TWIC 1389: pgn-reader counts its leading `;` comment as a game; games/s below use pgnkit's count
    echo "note: game counts differ: reference $games, pgnkit $ours (games/s use pgnkit's count)"
    games=$ours
fi

now() { date +%s.%N; }
run() { local t0 t1; t0=$(now); "$@" > /dev/null; t1=$(now); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.6f", b - a }'; }

ref_times=(); our_times=()
for i in $(seq "$RUNS"); do
    r=$(run "$REF" --mode parse "$FILE")
    o=$(run "$PGNKIT" "$FILE")
    ref_times+=("$r"); our_times+=("$o")
    printf 'run %d: reference %.4f s   pgnkit %.4f s\n' "$i" "$r" "$o"
done

stats() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[1], a[int((NR+1)/2)]}'; }
read -r ref_min ref_med <<< "$(stats "${ref_times[@]}")"
read -r our_min our_med <<< "$(stats "${our_times[@]}")"
report() {
    awk -v name="$1" -v min="$2" -v med="$3" -v b="$bytes" -v g="$games" 'BEGIN {
        printf "%-10s best %.4f s (%6.1f MB/s, %8.0f games/s)   median %.4f s (%6.1f MB/s, %8.0f games/s)\n",
            name, min, b / min / 1e6, g / min, med, b / med / 1e6, g / med }'
}
echo "file: $FILE ($bytes bytes, $games games), $RUNS interleaved runs each, wall clock, page cache warm"
report reference "$ref_min" "$ref_med"
report pgnkit "$our_min" "$our_med"
awk -v a="$ref_min" -v b="$our_min" -v c="$ref_med" -v d="$our_med" \
    'BEGIN { printf "speed ratio pgnkit/reference: best %.2fx, median %.2fx\n", a / b, c / d }'
