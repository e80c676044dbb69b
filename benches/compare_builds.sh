#!/usr/bin/env bash
# Two builds of pgnkit side by side on the same file, runs interleaved so both see the same machine load:
# validate, convert (to English), stats (per game and per move), each at -j1. Prints per job the median
# wall time and the instructions executed (valgrind's cachegrind, once per build: the count barely moves
# with machine load, unlike time) and the ratios B/A. For refactors: "no measurable slowdown" is a
# time ratio within noise of 1 and an instruction ratio close to 1.
#   usage: benches/compare_builds.sh BIN_A BIN_B [FILE]   (RUNS=5 by default)
set -euo pipefail
a=$1
b=$2
file=${3:-$(dirname "$0")/../../shared/corpus/games-english/gnuchess-book_games-000001-020000.pgn}
RUNS=${RUNS:-5}
command -v valgrind >/dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
instructions() {
    valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        awk '/I *refs:/ { gsub(",", "", $NF); print $NF }' || true
}
mb=$(awk "BEGIN { printf \"%.1f\", $(stat -c %s "$file") / 1e6 }")
echo "file: $file ($mb MB), $RUNS runs each, interleaved"
jobs=("validate" "convert --to en" "stats" "stats --per-move")
printf '%-18s %12s %12s %16s %16s %8s %8s\n' job "A median s" "B median s" "A instr" "B instr" "B/A t" "B/A ins"
for job in "${jobs[@]}"; do
    declare -a ta=() tb=() ia=() ib=()
    for _ in $(seq "$RUNS"); do
        for side in a b; do
            bin=${!side}
            start=$(date +%s.%N)
            # shellcheck disable=SC2086
            "$bin" $job -j1 -q "$file" >/dev/null 2>&1 || true
            t=$(echo "$(date +%s.%N) - $start" | bc)
            if [ "$side" = a ]; then ta+=("$t"); else tb+=("$t"); fi
        done
    done
    # shellcheck disable=SC2086
    ia=("$(instructions "$a" $job -j1 -q "$file")")
    # shellcheck disable=SC2086
    ib=("$(instructions "$b" $job -j1 -q "$file")")
    med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
    mta=$(med "${ta[@]}"); mtb=$(med "${tb[@]}"); mia=$(med "${ia[@]}"); mib=$(med "${ib[@]}")
    printf '%-18s %12.3f %12.3f %16s %16s %8.3f %8.4f\n' "$job" "$mta" "$mtb" "$mia" "$mib" \
        "$(echo "$mtb / $mta" | bc -l)" "$(echo "$mib / $mia" | bc -l)"
    unset ta tb ia ib
done
