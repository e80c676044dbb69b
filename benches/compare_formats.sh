#!/usr/bin/env bash
# Side-by-side cost of stats' output formats: the same rows written as CSV, JSON lines and Parquet (zstd, and
# LZ4 with --compression lz4), per game and per move, with one thread and two, runs interleaved so all see the same machine load. Each run writes a
# real file (target/bench/formats-out.*, removed after the run): a format's cost includes the bytes it
# writes. Prints per command the median wall and CPU time, input MB/s, rows/s, output size and peak RSS over
# RUNS runs, and the ratio of wall and CPU time to CSV's for the same rows and threads.
#   usage: benches/compare_formats.sh [FILE]   (RUNS=5 by default; without FILE, a file of SIZE_MB=44 MB or a
#   little more, made by concatenating the English corpus files, each followed by a line break)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
SIZE_MB=${SIZE_MB:-44}

cargo build --profile dist --quiet
PGNKIT=target/dist/pgnkit
source benches/lib.sh
need_gnu_time

mkdir -p target/bench
input=${1:-}
if [ -z "$input" ]; then
    input=target/bench/corpus-files-${SIZE_MB}MB.pgn
    if [ ! -f "$input" ]; then
        : > "$input.part"
        while [ "$(stat -c %s "$input.part")" -lt $((SIZE_MB * 1000000)) ]; do
            for f in "$SHARED"/corpus/games-english/*.pgn; do
                { cat "$f"; printf '\n'; } >> "$input.part"
                [ "$(stat -c %s "$input.part")" -lt $((SIZE_MB * 1000000)) ] || break
            done
        done
        mv "$input.part" "$input"
    fi
fi
BYTES=$(stat -c %s "$input")
OUT=target/bench/formats-out

# Rows of each kind, counted once (untimed). stats exits 1 on a file with problems, and still writes every row.
GAME_ROWS=$({ "$PGNKIT" stats -q "$input" || true; } | tail -n +2 | wc -l)
MOVE_ROWS=$({ "$PGNKIT" stats -q --per-move "$input" || true; } | tail -n +2 | wc -l)

CASES=()
for rows in games moves; do
    for jobs in 1 2; do
        for format in csv jsonl parquet parquet-lz4; do
            CASES+=("$rows $jobs $format")
        done
    done
done

declare -A WALL CPU RSS SIZE
for ((r = 1; r <= RUNS; r++)); do
    for c in "${CASES[@]}"; do
        read -r rows jobs format <<< "$c"
        extra=()
        [ "$rows" = moves ] && extra=(--per-move)
        case $format in
            parquet-lz4) extra+=(--format parquet --compression lz4) ;;
            *) extra+=(--format "$format") ;;
        esac
        read -r wall user sys rss < <(measure '%U %S %M' "$PGNKIT" stats -q -j "$jobs" "${extra[@]}" \
            -o "$OUT.$format" "$input")
        WALL[$c]+="$wall "
        CPU[$c]+="$(echo "$user + $sys" | bc) "
        RSS[$c]+="$rss "
        SIZE[$c]=$(stat -c %s "$OUT.$format")
        rm -f "$OUT.$format"
    done
done

echo "input: $input, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB; $GAME_ROWS game rows, $MOVE_ROWS move rows; $RUNS runs each, medians"
printf '%-7s %-3s %-8s %8s %8s %8s %11s %9s %9s %8s %8s\n' rows -j format "wall s" "cpu s" "MB/s" "rows/s" "out MB" "RSS MiB" "wall/csv" "cpu/csv"
for c in "${CASES[@]}"; do
    read -r rows jobs format <<< "$c"
    wall=$(echo "${WALL[$c]}" | median)
    cpu=$(echo "${CPU[$c]}" | median)
    rss=$(echo "${RSS[$c]}" | median)
    base="$rows $jobs csv"
    base_wall=$(echo "${WALL[$base]}" | median)
    base_cpu=$(echo "${CPU[$base]}" | median)
    n=$GAME_ROWS
    [ "$rows" = moves ] && n=$MOVE_ROWS
    awk -v r="$rows" -v j="$jobs" -v f="$format" -v w="$wall" -v c="$cpu" -v b="$BYTES" -v n="$n" \
        -v s="${SIZE[$c]}" -v m="$rss" -v bw="$base_wall" -v bc="$base_cpu" 'BEGIN {
        printf "%-7s %-3s %-8s %8.2f %8.2f %8.1f %11.0f %9.1f %9.1f %8.2f %8.2f\n",
            r, j, f, w, c, b / 1e6 / w, n / w, s / 1e6, m / 1024, w / bw, c / bc }'
done
