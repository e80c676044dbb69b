#!/usr/bin/env bash
# Speed and memory of `pgnkit stats` against the speed reference (pgn-reader + shakmaty, ../shared/bench).
#
# Usage (from the repository root): benches/compare_stats.sh [RUNS] [--no-big]
#   RUNS      interleaved runs of each command (default 5); the median wall time is reported
#   --no-big  skip the peak-memory run on a >1 GB file
#
# 1. Builds the reference (release) and pgnkit (the dist profile, as shipped: fat LTO).
# 2. Runs, interleaved RUNS times on the 11.7 MB GNU Chess book slice: the reference's `validate` and
#    `outcome` modes, `pgnkit stats -j1` and `pgnkit stats -j2` (CSV to /dev/null), and prints wall time,
#    CPU time, MB/s, games/s and the throughput ratio to the reference's `validate`.
# 3. Concatenates corpus files under target/ into a file of more than 1 GB, measures the peak resident
#    memory (/usr/bin/time -v, else VmHWM from /proc) of `stats -j2` and `stats --summary -j2` on it, and
#    deletes the file.
set -euo pipefail

RUNS=5
BIG=1
for arg in "$@"; do
    case "$arg" in
        --no-big) BIG=0 ;;
        *) RUNS="$arg" ;;
    esac
done

cd "$(dirname "$0")/.."
CORPUS=../shared/corpus/games-english
INPUT=$CORPUS/gnuchess-book_games-000001-020000.pgn
[ -f "$INPUT" ] || { echo "no $INPUT: the shared corpus is needed" >&2; exit 2; }

echo "building the reference and pgnkit..." >&2
CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path ../shared/bench/reference/Cargo.toml
cargo build --profile dist --quiet
REF=target/reference/release/pgnkit-reference
PGNKIT=target/dist/pgnkit

BYTES=$(stat -c %s "$INPUT")
GAMES=$("$REF" --mode parse "$INPUT" | sed -E 's/games=([0-9]+).*/\1/')
source benches/lib.sh
HAVE_TIME=0
[ -x /usr/bin/time ] && HAVE_TIME=1

# Runs a command once; prints "wall user sys" (seconds): wall time from the shell's microsecond clock
# (GNU time's is only to the hundredth, too coarse for 0.1 s runs), CPU time from GNU time when present
# (0 0 without it: unlike lib.sh's `measure`, this script runs without GNU time).
measure_cpu() {
    local out start end cpu="0 0"
    out=$(mktemp)
    start=$EPOCHREALTIME
    if [ "$HAVE_TIME" = 1 ]; then
        /usr/bin/time -f "%U %S" -o "$out" "$@" > /dev/null 2>/dev/null || true
    else
        "$@" > /dev/null 2>/dev/null || true
    fi
    end=$EPOCHREALTIME
    [ "$HAVE_TIME" = 1 ] && cpu=$(tail -n 1 "$out")
    rm -f "$out"
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }') $cpu"
}

NAMES=("reference validate" "reference outcome" "pgnkit stats -j1" "pgnkit stats -j2")
run_case() {
    case "$1" in
        0) measure_cpu "$REF" --mode validate -q "$INPUT" ;;
        1) measure_cpu "$REF" --mode outcome -q "$INPUT" ;;
        2) measure_cpu "$PGNKIT" stats -q -j1 "$INPUT" ;;
        3) measure_cpu "$PGNKIT" stats -q -j2 "$INPUT" ;;
    esac
}

declare -A WALL CPU
for ((r = 1; r <= RUNS; r++)); do
    for c in 0 1 2 3; do
        read -r wall user sys < <(run_case "$c")
        WALL[$c]+="$wall "
        CPU[$c]+="$(echo "$user + $sys" | bc) "
    done
done


echo
echo "input: $INPUT ($(echo "scale=1; $BYTES/1000000" | bc) MB, $GAMES games), $RUNS interleaved runs, medians"
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-22s %9s %9s %9s %11s %9s\n" "command" "wall s" "cpu s" "MB/s" "games/s" "vs ref"
REF_WALL=$(echo "${WALL[0]}" | median)
for c in 0 1 2 3; do
    w=$(echo "${WALL[$c]}" | median)
    cpu=$(echo "${CPU[$c]}" | median)
    mbs=$(echo "scale=1; $BYTES / 1000000 / $w" | bc)
    gps=$(echo "scale=0; $GAMES / $w" | bc)
    ratio=$(echo "scale=2; $REF_WALL / $w" | bc)
    printf "%-22s %9.3f %9.2f %9.1f %11.0f %8.2fx\n" "${NAMES[$c]}" "$w" "$cpu" "$mbs" "$gps" "$ratio"
done
echo "(vs ref: throughput relative to the reference's validate mode; >1 is faster)"

[ "$BIG" = 1 ] || exit 0

# Peak memory on a file of more than 1 GB.
BIGFILE=target/stats-bench-big.pgn
trap 'rm -f "$BIGFILE"' EXIT
: > "$BIGFILE"
while [ "$(stat -c %s "$BIGFILE")" -le 1100000000 ]; do
    cat "$INPUT" "$CORPUS/twic1389_3393games.pgn" "$CORPUS/lichess-db-2025-05_blitz_438games_clk.pgn" \
        >> "$BIGFILE"
done
BIGBYTES=$(stat -c %s "$BIGFILE")
echo
echo "peak memory on $BIGFILE ($(echo "scale=2; $BIGBYTES/1000000000" | bc) GB):"

peak() {
    local label=$1
    shift
    local start end kb
    start=$(date +%s.%N)
    if [ "$HAVE_TIME" = 1 ]; then
        local out
        out=$(mktemp)
        /usr/bin/time -v -o "$out" "$@" > /dev/null 2>/dev/null || true
        kb=$(grep "Maximum resident set size" "$out" | awk '{print $NF}')
        rm -f "$out"
    else
        "$@" > /dev/null 2>/dev/null &
        local pid=$! hwm=0
        while kill -0 "$pid" 2>/dev/null; do
            v=$(awk '/VmHWM/ {print $2}' /proc/$pid/status 2>/dev/null || echo 0)
            [ -n "$v" ] && [ "$v" -gt "$hwm" ] && hwm=$v
            sleep 0.2
        done
        wait "$pid" || true
        kb=$hwm
    fi
    end=$(date +%s.%N)
    local secs
    secs=$(echo "$end - $start" | bc)
    printf "  %-32s peak RSS %7.1f MB, %6.1f s, %6.1f MB/s\n" "$label" "$(echo "scale=1; $kb/1024" | bc)" \
        "$secs" "$(echo "scale=1; $BIGBYTES/1000000/$secs" | bc)"
}
peak "pgnkit stats -j2" "$PGNKIT" stats -q -j2 "$BIGFILE"
peak "pgnkit stats --summary -j2" "$PGNKIT" stats -q -j2 --summary "$BIGFILE"
peak "reference validate" "$REF" --mode validate -q "$BIGFILE"
