#!/usr/bin/env bash
# Side by side, interleaved: the speed reference's validate mode (pgn-reader + shakmaty, main-line replay
# only) against `pgnkit convert --to en` on one and two threads, on the same file in the same run; then
# the peak memory of converting a file of more than 1 GB made by concatenating corpus files (created under
# target/, deleted at the end; never commit it).
#
# Usage (from the repository root):  bash benches/compare_convert.sh
#   RUNS=7 FILE=some.pgn BIG=0 bash benches/compare_convert.sh    # more runs, another file, no memory test
set -euo pipefail
cd "$(dirname "$0")/.."

RUNS=${RUNS:-5}
source benches/lib.sh
FILE=${FILE:-../shared/corpus/games-english/gnuchess-book_games-000001-020000.pgn}
BIG=${BIG:-1}
BIG_FILE=target/convert-big.pgn

CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path ../shared/bench/reference/Cargo.toml
cargo build --profile dist --quiet
REF=target/reference/release/pgnkit-reference
BIN=target/dist/pgnkit

size=$(stat -c %s "$FILE")
echo "input: $FILE ($size bytes), $RUNS interleaved runs each, load before: $(cut -d' ' -f1-3 /proc/loadavg)"

# Wall-clock milliseconds of one run, output discarded.
ms() {
    local start end
    start=$(date +%s%N)
    "$@" >/dev/null 2>&1 || true
    end=$(date +%s%N)
    echo $(((end - start) / 1000000))
}


declare -a ref j1 j2
for ((i = 0; i < RUNS; i++)); do
    ref+=("$(ms "$REF" --mode validate -q "$FILE")")
    j1+=("$(ms "$BIN" convert -q --to en -j1 "$FILE")")
    j2+=("$(ms "$BIN" convert -q --to en -j2 "$FILE")")
done

ref_ms=$(printf '%s\n' "${ref[@]}" | median)
j1_ms=$(printf '%s\n' "${j1[@]}" | median)
j2_ms=$(printf '%s\n' "${j2[@]}" | median)
mbs() { awk -v b="$size" -v m="$1" 'BEGIN {printf "%.1f", b / (m / 1000) / 1e6}'; }
ratio() { awk -v r="$ref_ms" -v m="$1" 'BEGIN {printf "%.2f", r / m}'; }

printf '%-34s %8s %8s %22s\n' "case (median)" "ms" "MB/s" "throughput vs ref"
printf '%-34s %8s %8s %22s\n' "reference --mode validate" "$ref_ms" "$(mbs "$ref_ms")" "1.00x"
printf '%-34s %8s %8s %21sx\n' "pgnkit convert --to en -j1" "$j1_ms" "$(mbs "$j1_ms")" "$(ratio "$j1_ms")"
printf '%-34s %8s %8s %21sx\n' "pgnkit convert --to en -j2" "$j2_ms" "$(mbs "$j2_ms")" "$(ratio "$j2_ms")"
echo "all runs (ms): ref ${ref[*]} | j1 ${j1[*]} | j2 ${j2[*]}"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"

[ "$BIG" = 1 ] || exit 0

# A file of more than 1 GB: the corpus's English and French game files, concatenated again and again.
rm -f "$BIG_FILE"
parts=(../shared/corpus/games-english/*.pgn ../shared/corpus/games-french/*.pgn)
while [ "$(stat -c %s "$BIG_FILE" 2>/dev/null || echo 0)" -lt 1100000000 ]; do
    for p in "${parts[@]}"; do
        cat "$p" >>"$BIG_FILE"
        printf '\n\n' >>"$BIG_FILE"
    done
done
big=$(stat -c %s "$BIG_FILE")
echo "peak memory on $BIG_FILE ($big bytes):"
for jobs in 1 2; do
    # %M: maximum resident set size in KB; the exit code is 1 when some game does not convert.
    /usr/bin/time -f "  pgnkit convert --to en -j$jobs: %e s, peak RSS %M KB" \
        "$BIN" convert -q --to en -j"$jobs" "$BIG_FILE" >/dev/null || true
done
/usr/bin/time -f "  reference --mode validate: %e s, peak RSS %M KB" \
    "$REF" --mode validate -q "$BIG_FILE" >/dev/null || true
rm -f "$BIG_FILE"
