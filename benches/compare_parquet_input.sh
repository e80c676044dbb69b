#!/usr/bin/env bash
# Reading games from Parquet against reading the same games as PGN, side by side: a sample of the shared corpus
# repeated to SIZE_MB or a little more (SAMPLE=lichess, the blitz games with clock comments, by default;
# SAMPLE=twic, a week of over-the-board games) and the same games written by pyarrow as a Parquet file of the
# Lichess dataset's shape (tag columns, typed ratings, UTC date and time, `movetext`), once compressed with
# Snappy (pyarrow's default) and once with zstd. Each command runs on each input with one thread
# and two, runs interleaved so all see the same machine load. Prints per case the median wall and CPU seconds,
# games/s, PGN-equivalent MB/s, peak RSS, and the ratio of CPU time to the PGN's.
#   usage: benches/compare_parquet_input.sh   (RUNS=5, SIZE_MB=40, SAMPLE=lichess, COMMANDS="stats validate")
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
SIZE_MB=${SIZE_MB:-40}
COMMANDS=${COMMANDS:-stats validate}

cargo build --profile dist --quiet
PGNKIT=target/dist/pgnkit
source benches/lib.sh
need_gnu_time

mkdir -p target/bench
SAMPLE=${SAMPLE:-lichess}
case $SAMPLE in
    lichess) sample="$SHARED/corpus/games-english/lichess-db-2025-05_blitz_438games_clk.pgn" ;;
    twic) sample="$SHARED/corpus/games-english/twic1389_3393games.pgn" ;;
    *) echo "SAMPLE is lichess or twic" >&2; exit 2 ;;
esac
stem=target/bench/$SAMPLE-${SIZE_MB}MB
pgn=$stem.pgn
if [ ! -f "$pgn" ]; then
    : > "$pgn.part"
    while [ "$(stat -c %s "$pgn.part")" -lt $((SIZE_MB * 1000000)) ]; do
        { cat "$sample"; echo; } >> "$pgn.part"
    done
    # The PGN the rows stand for (TWIC's `; from ...` line before its first game has no row): compared with that.
    python3 tests/tools/pgn_to_parquet.py "$stem.tags.parquet" "$pgn.part" --row-group-size=100000 --pgn-out="$pgn"
    rm "$pgn.part"
fi
for codec in snappy zstd; do
    out=$stem.$codec.parquet
    [ -f "$out" ] || python3 - "$stem.tags.parquet" "$out" "$codec" <<'PY'
import sys, pyarrow.parquet as pq
tags, out, codec = sys.argv[1:]
table = pq.read_table(tags)
# The sample is repeated: dictionary encoding would store its moves once, which no real collection allows.
unique = {"movetext", "Site", "White", "Black"}
pq.write_table(table, out, compression=codec, row_group_size=100000,
               use_dictionary=[n for n in table.column_names if n not in unique])
PY
done
BYTES=$(stat -c %s "$pgn")
GAMES=$({ "$PGNKIT" stats -q "$pgn" || true; } | tail -n +2 | wc -l)

CASES=()
for command in $COMMANDS; do
    for jobs in 1 2; do
        for input in pgn snappy zstd; do
            CASES+=("$command $jobs $input")
        done
    done
done

declare -A WALL CPU RSS
for ((r = 1; r <= RUNS; r++)); do
    for c in "${CASES[@]}"; do
        read -r command jobs input <<< "$c"
        file=$pgn
        [ "$input" = pgn ] || file=$stem.$input.parquet
        args=(-q -j "$jobs")
        case $command in
            stats) args+=(--format parquet -o target/bench/parquet-input-out.parquet) ;;
            validate) args+=(--format json) ;;
            convert) args+=(--to fr) ;;
            select) args+=(--where 'WhiteElo - 0 >= 2000') ;;
        esac
        read -r wall user sys rss < <(measure '%U %S %M' "$PGNKIT" "$command" "${args[@]}" "$file")
        WALL[$c]+="$wall "
        CPU[$c]+="$(echo "$user + $sys" | bc) "
        RSS[$c]+="$rss "
    done
done
rm -f target/bench/parquet-input-out.parquet

echo "sample: $SAMPLE; input: $GAMES games, $(awk -v b="$BYTES" 'BEGIN { printf "%.1f", b / 1e6 }') MB of PGN; Parquet: snappy $(stat -c %s "$stem.snappy.parquet" | awk '{ printf "%.1f", $1 / 1e6 }') MB, zstd $(stat -c %s "$stem.zstd.parquet" | awk '{ printf "%.1f", $1 / 1e6 }') MB; $RUNS runs each, medians"
printf '%-9s %-3s %-7s %8s %8s %10s %8s %8s %8s\n' command -j input "wall s" "cpu s" "games/s" "MB/s" "RSS MiB" "cpu/pgn"
for c in "${CASES[@]}"; do
    read -r command jobs input <<< "$c"
    wall=$(echo "${WALL[$c]}" | median)
    cpu=$(echo "${CPU[$c]}" | median)
    rss=$(echo "${RSS[$c]}" | median)
    base_cpu=$(echo "${CPU[$command $jobs pgn]}" | median)
    awk -v k="$command" -v j="$jobs" -v i="$input" -v w="$wall" -v c="$cpu" -v b="$BYTES" -v n="$GAMES" \
        -v m="$rss" -v bc="$base_cpu" 'BEGIN {
        printf "%-9s %-3s %-7s %8.2f %8.2f %10.0f %8.1f %8.0f %8.2f\n", k, j, i, w, c, n / w, b / 1e6 / w, m / 1024, c / bc }'
done
