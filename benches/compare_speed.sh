#!/usr/bin/env bash
# Issue #17's side-by-side run: every target's ratio from one interleaved run on the same machine.
#   reference (../shared/bench/reference: pgn-reader 0.29 + shakmaty 0.30, one thread)
#     --mode parse     the parsing floor          vs  pgnkit's examples/parse_only.rs
#     --mode validate  bare main-line legality    vs  validate / convert --to en / stats, -j1
#   pgnkit -j2 against -j1 for validate (human and JSON, tournament checks on, as always), convert, stats
#   stats --per-move against a baseline build (BASE_REV, default the commit before the speed work)
# Files: the 11.7 MB GNU Chess book slice and a file of distinct games of at least 200 MB built from the
# English corpus by examples/distinct_games.rs (each game, then 14 shortened copies of its main line with a
# marked Event: no copy is a repeat; under target/bench, never committed).
# Prints, per file, the median wall time, MB/s, games/s and peak RSS of each command, then the ratios.
#   usage: benches/compare_speed.sh            (RUNS=5; BASE_REV=ce91937; DISTINCT=0 skips the large file;
#                                               PER_MOVE_BIG=1 also times per-move rows on the large file)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
BASE_REV=${BASE_REV:-ce91937}
DISTINCT=${DISTINCT:-1}
PER_MOVE_BIG=${PER_MOVE_BIG:-0}
source benches/lib.sh
need_gnu_time
build_speed_binaries

files=("$SHARED/corpus/games-english/gnuchess-book_games-000001-020000.pgn")
if [ "$DISTINCT" != 0 ]; then
    big=target/bench/distinct-games.pgn
    if [ ! -f "$big" ]; then
        "$DISTINCT_GAMES" 14 "$SHARED"/corpus/games-english/*.pgn > "$big.tmp"
        mv "$big.tmp" "$big"
    fi
    files+=("$big")
fi

echo "machine: $(nproc) cores, $(awk -F: '/model name/ { print $2; exit }' /proc/cpuinfo | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pgnkit $(git rev-parse --short HEAD), baseline $BASE_REV"
for file in "${files[@]}"; do
    bytes=$(stat -c %s "$file")
    games=$(grep -c '^\[Event ' "$file" || true)
    cat "$file" > /dev/null
    echo
    echo "$file: $((bytes / 1000000)) MB, $games games"
    declare -A cmd=(
        [ref-parse]="$REF --mode parse -q $file"
        [ref-validate]="$REF --mode validate -q $file"
        [parse]="$PARSE $file"
        [validate-j1]="$PGNKIT validate -j1 $file"
        [validate-j2]="$PGNKIT validate -j2 $file"
        [validate-json-j1]="$PGNKIT validate --format json -j1 $file"
        [validate-json-j2]="$PGNKIT validate --format json -j2 $file"
        [convert-j1]="$PGNKIT convert --to en -j1 $file"
        [convert-j2]="$PGNKIT convert --to en -j2 $file"
        [stats-j1]="$PGNKIT stats -j1 $file"
        [stats-j2]="$PGNKIT stats -j2 $file"
        [per-move-base]="$BASE stats --per-move -j1 $file"
        [per-move]="$PGNKIT stats --per-move -j1 $file"
    )
    modes=(ref-parse parse ref-validate validate-j1 validate-j2 validate-json-j1 validate-json-j2
        convert-j1 convert-j2 stats-j1 stats-j2)
    if [ "$file" = "${files[0]}" ] || [ "$PER_MOVE_BIG" != 0 ]; then
        modes+=(per-move-base per-move)
    fi
    declare -A secs=() mem=()
    for _ in $(seq "$RUNS"); do
        for mode in "${modes[@]}"; do
            # shellcheck disable=SC2086
            read -r s m < <(measure '%M' ${cmd[$mode]})
            secs[$mode]+="$s "
            mem[$mode]+="$m "
        done
    done
    declare -A med=()
    printf '%-18s %9s %8s %10s %10s\n' mode seconds MB/s games/s 'peak KiB'
    for mode in "${modes[@]}"; do
        med[$mode]=$(median <<<"${secs[$mode]}")
        peak=$(tr ' ' '\n' <<<"${mem[$mode]}" | grep . | sort -g | tail -n 1)
        awk -v m="$mode" -v s="${med[$mode]}" -v b="$bytes" -v g="$games" -v p="$peak" \
            'BEGIN { printf "%-18s %9.3f %8.1f %10.0f %10d\n", m, s, b / s / 1e6, g / s, p }'
    done
    ratio() { awk -v a="${med[$1]}" -v b="${med[$2]}" 'BEGIN { printf "%.2fx", a / b }'; }
    echo "ratios (higher is faster):"
    echo "  parse -j1 vs reference parse:                $(ratio ref-parse parse)   (target 1.5x)"
    echo "  validate -j1 vs reference validate:          $(ratio ref-validate validate-j1)   (target 1.0x, moonshot 1.3x)"
    echo "  convert -j1 vs reference validate:           $(ratio ref-validate convert-j1)   (target 1.0x)"
    echo "  stats -j1 vs reference validate:             $(ratio ref-validate stats-j1)   (target 1.0x)"
    echo "  validate -j2 / -j1:                          $(ratio validate-j1 validate-j2)   (target 1.85x)"
    echo "  validate --format json -j2 / -j1:            $(ratio validate-json-j1 validate-json-j2)   (target 1.85x)"
    echo "  convert -j2 / -j1:                           $(ratio convert-j1 convert-j2)   (target 1.85x)"
    echo "  stats -j2 / -j1:                             $(ratio stats-j1 stats-j2)   (target 1.85x)"
    if [ -n "${med[per-move]:-}" ]; then
        echo "  stats --per-move -j1 vs $BASE_REV:             $(ratio per-move-base per-move)   (target 2x)"
    fi
    unset cmd secs mem med
done
