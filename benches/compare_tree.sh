#!/usr/bin/env bash
# pgnkit tree against pgnkit stats on the same games, side by side (issue #42: tree's throughput at least half of
# stats' per core, memory bounded by --memory). For each sample of the shared corpus, repeated to SIZE_MB or a
# little more (each copy followed by a line break), runs interleaved so all see the same machine load:
#   stats -j1 (its CSV, and its Parquet), tree -j1 --format csv and --format parquet at --depth 20 (the default),
#   the same at -j2;
#   tree -j1 --format text (the same counting, only the root's moves decoded and written: the difference to csv
#   is the cost of decoding and writing every row);
#   tree -j1 csv with --memory $MEMORY (runs spill to --temp-dir) against the default memory (a quarter of the
#   machine's: nothing spills); the same pair at --depth $DEEP (more positions, more spilled runs).
# stats writes its per-game CSV, tree its rows, to /dev/null. Prints per case the median wall and CPU seconds,
# games/s and MB/s (wall), games per CPU second (the throughput per core), peak RSS, and the ratio of the
# throughput per core to stats' at the same -j (CPU time: stats' over the case's; tree's Parquet against stats'
# Parquet, the rest against stats' CSV). Then, for the --memory
# pairs, untimed runs writing to files: the sorted runs spilled, rows written, and whether the tight and the
# default memory give byte-identical outputs (cmp); the time and RSS ratios come from the timed runs.
# A repeated sample holds the distinct positions of one copy only: its tree is the size of one copy's, and the
# final write, whose cost is per row, is spread over many games. The sample `distinct` is the three files once
# each (15.7 MB, 23,831 games, no copies): the tree of a collection of different games, many more rows per game.
# Last, on `distinct` at --depth $DEEP, peak RSS and CPU time for each --memory of SWEEP (and the default).
#   usage: benches/compare_tree.sh   (RUNS=5, SIZE_MB=50, SAMPLES="twic lichess gnuchess distinct", MEMORY=8M,
#   DEEP=60, SWEEP="1M 8M 32M 128M", TEMP_DIR=target/bench/tree-tmp; SAMPLE=NAME runs one sample; SWEEP= none)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
SIZE_MB=${SIZE_MB:-50}
SAMPLES=${SAMPLE:-${SAMPLES:-twic lichess gnuchess distinct}}
MEMORY=${MEMORY:-8M}
DEEP=${DEEP:-60}
SWEEP=${SWEEP-1M 8M 32M 128M}
TEMP_DIR=${TEMP_DIR:-target/bench/tree-tmp}

cargo build --profile dist --quiet
PGNKIT=target/dist/pgnkit
source benches/lib.sh
need_gnu_time
mkdir -p target/bench "$TEMP_DIR"

TWIC=$SHARED/corpus/games-english/twic1389_3393games.pgn
LICHESS=$SHARED/corpus/games-english/lichess-db-2025-05_blitz_438games_clk.pgn
GNUCHESS=$SHARED/corpus/games-english/gnuchess-book_games-000001-020000.pgn

# The input of a sample: SIZE_MB or a little more of copies of one file, or the three files once each.
make_input() {
    local name=$1 file out=target/bench/tree-$1.pgn
    [ "$name" = distinct ] || out=target/bench/tree-$name-${SIZE_MB}MB.pgn
    if [ ! -f "$out" ]; then
        : > "$out.part"
        case $name in
            twic) file=$TWIC ;;
            lichess) file=$LICHESS ;;
            gnuchess) file=$GNUCHESS ;;
            distinct) for f in "$TWIC" "$LICHESS" "$GNUCHESS"; do { cat "$f"; echo; } >> "$out.part"; done ;;
            *) echo "SAMPLE is twic, lichess, gnuchess or distinct" >&2; exit 2 ;;
        esac
        while [ "$name" != distinct ] && [ "$(stat -c %s "$out.part")" -lt $((SIZE_MB * 1000000)) ]; do
            { cat "$file"; echo; } >> "$out.part"
        done
        mv "$out.part" "$out"
    fi
    echo "$out"
}

# The arguments of a case: "stats J [FORMAT]" or "tree J FORMAT DEPTH MEMORY" (MEMORY `-` for the default).
case_args() {
    local command=$1 jobs=$2 format=${3:-} depth=${4:-} memory=${5:-}
    if [ "$command" = stats ]; then
        echo "stats -q -j $jobs${format:+ --format $format}"
    else
        local args="tree -q -j $jobs --format $format --depth $depth --temp-dir $TEMP_DIR"
        [ "$memory" = - ] || args+=" --memory $memory"
        echo "$args"
    fi
}

CASES=(
    "stats 1"
    "stats 1 parquet"
    "tree 1 csv 20 -"
    "tree 1 parquet 20 -"
    "tree 1 text 20 -"
    "stats 2"
    "stats 2 parquet"
    "tree 2 csv 20 -"
    "tree 2 parquet 20 -"
    "tree 1 csv 20 $MEMORY"
    "tree 1 csv $DEEP -"
    "tree 1 csv $DEEP $MEMORY"
)

echo "pgnkit $(git rev-parse --short HEAD); $(nproc) cores; load average at the start: $(cut -d' ' -f1-3 /proc/loadavg)"
for SAMPLE in $SAMPLES; do
    pgn=$(make_input "$SAMPLE")
    BYTES=$(stat -c %s "$pgn")

    declare -A WALL=() CPU=() RSS=()
    for ((r = 1; r <= RUNS; r++)); do
        for c in "${CASES[@]}"; do
            # shellcheck disable=SC2046
            read -r wall user sys rss < <(measure '%U %S %M' "$PGNKIT" $(case_args $c) "$pgn")
            WALL[$c]+="$wall "
            CPU[$c]+="$(echo "$user + $sys" | bc) "
            RSS[$c]+="$rss "
        done
    done

    # Untimed: what each tree holds, and the outputs of the --memory pairs compared byte for byte.
    declare -A INFO=() SAME=()
    GAMES=
    for depth in 20 "$DEEP"; do
        for memory in - "$MEMORY"; do
            c="tree 1 csv $depth $memory"
            out=target/bench/tree-out-$depth-${memory/-/default}.csv
            # shellcheck disable=SC2046
            closing=$("$PGNKIT" $(case_args $c | sed 's/ -q//') -o "$out" "$pgn" 2>&1 >/dev/null | grep '^pgnkit tree:' || true)
            [ -n "$GAMES" ] || GAMES=$(echo "$closing" | sed -nE 's/^pgnkit tree: ([0-9]+) games read.*/\1/p')
            runs=$(echo "$closing" | sed -nE 's/.*, ([0-9]+) sorted runs merged.*/\1/p')
            rows=$(echo "$closing" | sed -nE 's/.*; ([0-9]+) moves of ([0-9]+) positions written.*/\1 rows, \2 positions/p')
            INFO[$c]="${runs:-0} runs; $rows"
        done
        a=target/bench/tree-out-$depth-default.csv
        b=target/bench/tree-out-$depth-$MEMORY.csv
        if cmp -s "$a" "$b"; then SAME[$depth]=yes; else SAME[$depth]=NO; fi
        rm -f "$a" "$b"
    done

    echo
    echo "sample: $SAMPLE ($(basename "$pgn")): $GAMES games, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB; $RUNS runs each, medians; load average now: $(cut -d' ' -f1-3 /proc/loadavg)"
    printf '%-6s %-3s %-8s %-6s %-7s %8s %8s %9s %7s %11s %8s %9s\n' \
        command -j format depth memory "wall s" "cpu s" "games/s" "MB/s" "games/cpu-s" "RSS MiB" "per core"
    for c in "${CASES[@]}"; do
        read -r command jobs format depth memory <<< "$c"
        wall=$(echo "${WALL[$c]}" | median)
        cpu=$(echo "${CPU[$c]}" | median)
        rss=$(echo "${RSS[$c]}" | median)
        # Parquet against Parquet (both compress their columns with zstd), anything else against stats' CSV.
        if [ "$format" = parquet ]; then base="stats $jobs parquet"; else base="stats $jobs"; fi
        base_cpu=$(echo "${CPU[$base]}" | median)
        awk -v k="$command" -v j="$jobs" -v f="${format:--}" -v d="${depth:--}" -v m="${memory:--}" -v w="$wall" \
            -v c="$cpu" -v b="$BYTES" -v n="$GAMES" -v r="$rss" -v bc="$base_cpu" 'BEGIN {
            printf "%-6s %-3s %-8s %-6s %-7s %8.2f %8.2f %9.0f %7.1f %11.0f %8.0f %9.2f\n",
                k, j, f, d, (m == "-" ? "default" : m), w, c, n / w, b / 1e6 / w, n / c, r / 1024, bc / c }'
    done
    echo "--memory $MEMORY against the default (tree -j1 csv): wall and CPU time ratios, peak RSS, outputs"
    for depth in 20 "$DEEP"; do
        tight="tree 1 csv $depth $MEMORY"
        free="tree 1 csv $depth -"
        awk -v d="$depth" -v m="$MEMORY" \
            -v wt="$(echo "${WALL[$tight]}" | median)" -v wf="$(echo "${WALL[$free]}" | median)" \
            -v ct="$(echo "${CPU[$tight]}" | median)" -v cf="$(echo "${CPU[$free]}" | median)" \
            -v rt="$(echo "${RSS[$tight]}" | median)" -v rf="$(echo "${RSS[$free]}" | median)" \
            -v it="${INFO[$tight]}" -v i="${INFO[$free]}" -v s="${SAME[$depth]}" 'BEGIN {
            printf "  depth %-3s %s: %s; default: %s\n", d, m, it, i
            printf "            wall x%.2f, cpu x%.2f; RSS %.0f MiB against %.0f MiB; byte-identical: %s\n",
                wt / wf, ct / cf, rt / 1024, rf / 1024, s }'
    done
    unset WALL CPU RSS INFO SAME
done

if [ -n "$SWEEP" ]; then
    pgn=$(make_input distinct)
    declare -A RSS=() CPU=() INFO=()
    for ((r = 1; r <= RUNS; r++)); do
        for memory in $SWEEP -; do
            # shellcheck disable=SC2046
            read -r wall user sys rss < <(measure '%U %S %M' "$PGNKIT" $(case_args tree 1 csv "$DEEP" "$memory") "$pgn")
            RSS[$memory]+="$rss "
            CPU[$memory]+="$(echo "$user + $sys" | bc) "
        done
    done
    for memory in $SWEEP -; do
        # shellcheck disable=SC2046
        INFO[$memory]=$("$PGNKIT" $(case_args tree 1 csv "$DEEP" "$memory" | sed 's/ -q//') "$pgn" 2>&1 >/dev/null |
            sed -nE 's/.*, ([0-9]+) sorted runs merged.*/\1/p')
    done
    echo
    echo "--memory against peak RSS: distinct, tree -j1 csv --depth $DEEP, $RUNS runs each, medians"
    printf '%-8s %6s %8s %8s %9s\n' memory runs "cpu s" "RSS MiB" "cpu/free"
    for memory in $SWEEP -; do
        awk -v m="$memory" -v n="${INFO[$memory]:-0}" -v c="$(echo "${CPU[$memory]}" | median)" \
            -v r="$(echo "${RSS[$memory]}" | median)" -v f="$(echo "${CPU[-]}" | median)" 'BEGIN {
            printf "%-8s %6s %8.2f %8.1f %9.2f\n", (m == "-" ? "default" : m), n, c, r / 1024, c / f }'
    done
fi
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
rmdir "$TEMP_DIR" 2>/dev/null || true
