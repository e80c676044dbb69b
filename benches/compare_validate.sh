#!/usr/bin/env bash
# Side-by-side validate throughput: pgnkit against the reference (pgn-reader 0.29 + shakmaty 0.30,
# shared/bench/reference) on the same files, runs interleaved so both see the same machine load.
#   reference --mode parse     tokenise only (floor)
#   reference --mode validate  replay every main-line SAN move
#   reference --mode outcome   validate + final outcome with repetition and 50/75-move tracking
#   pgnkit validate -j1 / -j2  full validate: variations, language detection, outcome, claims (with the ply a
#                              claim first became possible), result and tag checks; human output (nothing printed
#                              for valid games), summary off
# Prints per mode the median wall time, MB/s, games/s and peak RSS over RUNS runs, then the ratios.
#   usage: benches/compare_validate.sh [FILE...]   (RUNS=5 by default; BIG_MB=0 skips the large file,
#   CLOCKS_MB=0 the file of clock-commented lichess games)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
BIG_MB=${BIG_MB:-200}
CLOCKS_MB=${CLOCKS_MB:-20}

cargo build --profile dist --quiet
CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path "$SHARED/bench/reference/Cargo.toml"
PGNKIT=target/dist/pgnkit
REF=target/reference/release/pgnkit-reference
source benches/lib.sh
need_gnu_time

files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=("$SHARED/corpus/games-english/gnuchess-book_games-000001-020000.pgn")
    if [ "$BIG_MB" -gt 0 ]; then
        big=target/bench/corpus-${BIG_MB}MB.pgn
        if [ ! -f "$big" ]; then
            mkdir -p target/bench
            : > "$big"
            while [ "$(stat -c %s "$big")" -lt $((BIG_MB * 1000000)) ]; do
                for f in "$SHARED"/corpus/games-english/*.pgn; do cat "$f"; printf '\n'; done >> "$big"
            done
        fi
        files+=("$big")
    fi
    if [ "$CLOCKS_MB" -gt 0 ]; then
        # Online games with a clock comment after every move: the case where two threads gain least (the
        # splitter stops at every brace while one thread validates such games fast).
        clocks=target/bench/lichess-clocks-${CLOCKS_MB}MB.pgn
        if [ ! -f "$clocks" ]; then
            mkdir -p target/bench
            : > "$clocks"
            while [ "$(stat -c %s "$clocks")" -lt $((CLOCKS_MB * 1000000)) ]; do
                cat "$SHARED"/corpus/games-english/lichess-db-2025-05_blitz_438games_clk.pgn >> "$clocks"
                printf '\n' >> "$clocks"
            done
        fi
        files+=("$clocks")
    fi
fi

echo "machine: $(nproc) cores, $(awk -F: '/model name/ { print $2; exit }' /proc/cpuinfo | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
for file in "${files[@]}"; do
    bytes=$(stat -c %s "$file")
    games=$(grep -c '^\[Event ' "$file" || true)
    echo
    echo "$file: $((bytes / 1000000)) MB, $games games"
    declare -A secs=() mem=()
    modes=(ref-parse ref-validate ref-outcome pgnkit-j1 pgnkit-j2)
    for i in $(seq "$RUNS"); do
        order=("${modes[@]}")
        (( i % 2 )) || order=($(printf '%s\n' "${modes[@]}" | tac))
        for mode in "${order[@]}"; do
            case $mode in
                ref-parse) cmd=("$REF" --mode parse -q "$file") ;;
                ref-validate) cmd=("$REF" --mode validate -q "$file") ;;
                ref-outcome) cmd=("$REF" --mode outcome -q "$file") ;;
                pgnkit-j1) cmd=("$PGNKIT" validate -q -j1 "$file") ;;
                pgnkit-j2) cmd=("$PGNKIT" validate -q -j2 "$file") ;;
            esac
            read -r s m <<<"$(measure '%M' "${cmd[@]}")"
            secs[$mode]+="$s "
            mem[$mode]="$m"
        done
    done
    printf '%-14s %9s %9s %11s %10s\n' mode seconds MB/s games/s peak_MiB
    declare -A med=()
    for mode in "${modes[@]}"; do
        med[$mode]=$(median <<<"${secs[$mode]}")
        awk -v m="$mode" -v s="${med[$mode]}" -v b="$bytes" -v g="$games" -v k="${mem[$mode]}" \
            'BEGIN { printf "%-14s %9.3f %9.1f %11.0f %10.1f\n", m, s, b / s / 1e6, g / s, k / 1024 }'
    done
    awk -v j1="${med[pgnkit-j1]}" -v j2="${med[pgnkit-j2]}" -v ro="${med[ref-outcome]}" -v rv="${med[ref-validate]}" \
        'BEGIN { printf "ratios: pgnkit -j1 vs reference outcome %.2fx, vs reference validate %.2fx; -j2 vs -j1 %.2fx\n", ro / j1, rv / j1, j1 / j2 }'
    unset secs mem med
done
