#!/usr/bin/env bash
# Issue #17's targets counted in instructions instead of seconds: on a shared VM whose speed moves by tens of
# percent from one minute to the next, the number of instructions a command executes is the one figure that
# does not move (valgrind's cachegrind, no cache simulation). It is not the wall time (cache misses, branch
# mispredictions and memory bandwidth are not in it), so compare_speed.sh stays the judge of a target; this
# script tells whether a change did less work, and by how much, in one run that gives the same answer twice.
# One thread only: instructions say nothing of how two threads share the work.
#   reference (../shared/bench/reference, pgn-reader + shakmaty): --mode parse, --mode validate
#   pgnkit: examples/parse_only.rs, validate (human and JSON), convert --to en, stats, stats --per-move,
#   and stats --per-move of a baseline build (BASE_REV, built once by benches/lib.sh)
# Prints per command the instructions (millions), instructions per input byte and the ratio to its
# reference (reference instructions / ours: above 1 means fewer instructions than the reference).
#   usage: benches/count_instructions.sh [FILE]   (default: the English corpus files concatenated, 17 MB:
#   book games, lichess games with clocks, annotated world championship matches)
set -euo pipefail
cd "$(dirname "$0")/.."
SHARED=${SHARED:-../shared}
BASE_REV=${BASE_REV:-ce91937}
command -v valgrind > /dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }

source benches/lib.sh
build_speed_binaries

mkdir -p target/bench
file=${1:-}
if [ -z "$file" ]; then
    file=target/bench/english-corpus.pgn
    cat "$SHARED"/corpus/games-english/*.pgn > "$file"
fi
bytes=$(stat -c %s "$file")

# Instructions executed by one command (its output thrown away).
count() {
    # A command that finds problems in the file exits 1: its count is still the figure wanted.
    { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } \
        | awk '/I *refs/ { gsub(",", "", $4); print $4 }'
}

declare -A cmd=(
    [ref-parse]="$REF --mode parse -q $file"
    [ref-validate]="$REF --mode validate -q $file"
    [parse]="$PARSE $file"
    [validate]="$PGNKIT validate -q -j1 $file"
    [validate-json]="$PGNKIT validate -q --format json -j1 $file"
    [convert]="$PGNKIT convert -q --to en -j1 $file"
    [stats]="$PGNKIT stats -q -j1 $file"
    [per-move]="$PGNKIT stats -q --per-move -j1 $file"
    [per-move-base]="$BASE stats -q --per-move -j1 $file"
)
# Each command and what it is compared with.
declare -A against=(
    [parse]=ref-parse [validate]=ref-validate [validate-json]=ref-validate [convert]=ref-validate
    [stats]=ref-validate [per-move]=per-move-base
)
declare -A target=(
    [parse]=1.5 [validate]=1.0 [validate-json]=1.0 [convert]=1.0 [stats]=1.0 [per-move]=2.0
)
modes=(ref-parse parse ref-validate validate validate-json convert stats per-move-base per-move)

echo "pgnkit $(git rev-parse --short HEAD); $file: $bytes bytes"
printf '%-14s %12s %10s %14s %8s\n' command "M instr" "instr/B" "ratio" target
declare -A n=()
for mode in "${modes[@]}"; do
    # shellcheck disable=SC2086
    n[$mode]=$(count ${cmd[$mode]})
    ratio=""
    goal=""
    if [ -n "${against[$mode]:-}" ]; then
        ratio=$(awk -v a="${n[${against[$mode]}]}" -v b="${n[$mode]}" 'BEGIN { printf "%.2fx", a / b }')
        ratio="$ratio vs ${against[$mode]#ref-}"
        goal="${target[$mode]}x"
    fi
    awk -v m="$mode" -v i="${n[$mode]}" -v b="$bytes" -v r="$ratio" -v g="$goal" \
        'BEGIN { printf "%-14s %12.0f %10.1f %14s %8s\n", m, i / 1e6, i / b, r, g }'
done
