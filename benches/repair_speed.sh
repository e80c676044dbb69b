#!/usr/bin/env bash
# What issue #40's repair search costs: `pgnkit repair` and `pgnkit validate` (which searches a game whose main
# line stops) against validate of a build from before the search, on the same files, runs interleaved so every
# command sees the same load of this shared machine.
#   Per file: median wall seconds, MB/s, games/s and peak RSS of validate (before / now) and repair, at -j1 and
#   -j2; instructions at -j1 (valgrind's cachegrind: the figure that does not move with the load); the ratios
#   validate now / before and repair / validate now. On a file without faulty games the search never runs in
#   validate, so its ratios should be 1.
#   Then (HOSTILE=1, the default) hostile games built here, knight shuffles (Nf3 Nf6 Ng1 Ng8 ...) that stop:
#     fail-after-1   every move after the first fails (e4 written again and again)
#     end-1          at the last move (one deletion repairs it)
#     end-3          at the last three moves (no correction of two edits)
#     early-end-3    at ply 9, a pawn move written h6 for White (15 pawn moves let the rest replay), and at the
#                    last three moves
#     left-out-end-3 at ply 9, a half-move left out, and at the last three moves
#     spaced-end-3   like early-end-3, with two more such pawn slips, in the middle and 40 plies from the end
#   First 50 copies of each as a 2,000-ply game in one file: milliseconds per game (the wall time over 50, one
#   run each) of validate before / now, repair and repair --max-edits 3. Then each as one game of 20,000 to
#   1,000,000 plies (BIG=1 adds 2, 4 and 8 million: 16, 33 and 66 MB, under the 64 MiB a game may have): wall
#   seconds and peak RSS of validate before / now and repair, one run each.
#   usage: benches/repair_speed.sh BIN_BEFORE [FILE...]
#     BIN_BEFORE: pgnkit built before issue #40 (e.g. f1e7b3c; the dist profile, as this script builds the
#     branch's); FILEs default to the shared slips (English and French), TWIC 1389 and the GNU Chess slice.
#     RUNS=5; INSTRUCTIONS=0 skips cachegrind; HOSTILE=0 skips the hostile games; BIG=1 adds the largest ones
#     (the 8-million-ply early-end-3: about 24 s and 3.8 GB).
# Needs GNU time (apt-get install time) and, for the instructions, valgrind. Files it builds go to a temporary
# directory, removed at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
source benches/lib.sh
need_gnu_time
[ $# -ge 1 ] || { sed -n '2,27p' "$0" >&2; exit 2; }
BEFORE=$(realpath "$1")
shift
RUNS=${RUNS:-5}
INSTRUCTIONS=${INSTRUCTIONS:-1}
HOSTILE=${HOSTILE:-1}
BIG=${BIG:-0}
SHARED=${SHARED:-../shared}
if [ "$INSTRUCTIONS" != 0 ]; then
    command -v valgrind > /dev/null || { echo "needs valgrind (apt-get install valgrind)" >&2; exit 2; }
fi
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    files=("$SHARED/corpus/slips/slips.en.pgn" "$SHARED/corpus/slips/slips.fr.pgn"
        "$SHARED/corpus/games-english/twic1389_3393games.pgn"
        "$SHARED/corpus/games-english/gnuchess-book_games-000001-020000.pgn")
fi
cargo build --profile dist --quiet
NOW=target/dist/pgnkit
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

count() {
    { valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file=/dev/null "$@" 2>&1 > /dev/null || true; } \
        | awk '/I *refs/ { gsub(",", "", $4); print $4 }'
}

echo "machine: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); now $(git rev-parse --short HEAD), before $BEFORE"
for file in "${files[@]}"; do
    bytes=$(stat -c %s "$file")
    games=$(grep -c '^\[Event ' "$file" || true)
    cat "$file" > /dev/null
    echo
    echo "$file: $(awk -v b="$bytes" 'BEGIN { printf "%.2f", b / 1e6 }') MB, $games games"
    declare -A cmd=()
    for j in 1 2; do
        cmd[validate-before-j$j]="$BEFORE validate -q -j$j $file"
        cmd[validate-j$j]="$NOW validate -q -j$j $file"
        cmd[repair-j$j]="$NOW repair -q -j$j -o $DIR/out.pgn $file"
    done
    modes=(validate-before-j1 validate-j1 repair-j1 validate-before-j2 validate-j2 repair-j2)
    declare -A secs=() mem=() med=()
    for _ in $(seq "$RUNS"); do
        for mode in "${modes[@]}"; do
            # shellcheck disable=SC2086
            read -r s m < <(measure '%M' ${cmd[$mode]})
            secs[$mode]+="$s "
            mem[$mode]+="$m "
        done
    done
    printf '%-20s %9s %8s %10s %10s %14s\n' mode seconds MB/s games/s 'peak KiB' instructions
    for mode in "${modes[@]}"; do
        med[$mode]=$(median <<< "${secs[$mode]}")
        peak=$(tr ' ' '\n' <<< "${mem[$mode]}" | grep . | sort -g | tail -n 1)
        ins=""
        if [ "$INSTRUCTIONS" != 0 ] && [[ $mode == *-j1 ]]; then
            # shellcheck disable=SC2086
            ins=$(count ${cmd[$mode]})
            med[$mode-ins]=$ins
        fi
        awk -v m="$mode" -v s="${med[$mode]}" -v b="$bytes" -v g="$games" -v p="$peak" -v i="$ins" \
            'BEGIN { printf "%-20s %9.3f %8.1f %10.0f %10d %14s\n", m, s, b / s / 1e6, g / s, p, i }'
    done
    ratio() { awk -v a="${med[$1]}" -v b="${med[$2]}" 'BEGIN { printf "%.3f", a / b }'; }
    for j in 1 2; do
        echo "-j$j: validate now/before time $(ratio validate-j$j validate-before-j$j)," \
            "repair/validate now time $(ratio repair-j$j validate-j$j)"
    done
    if [ "$INSTRUCTIONS" != 0 ]; then
        echo "-j1: validate now/before instructions $(ratio validate-j1-ins validate-before-j1-ins)," \
            "repair/validate now instructions $(ratio repair-j1-ins validate-j1-ins)"
    fi
    unset cmd secs mem med
done

[ "$HOSTILE" != 0 ] || exit 0
sizes="20000 200000 1000000"
[ "$BIG" = 0 ] || sizes="$sizes 2000000 4000000 8000000"
kinds="fail-after-1 end-1 end-3 early-end-3 left-out-end-3 spaced-end-3"
python3 - "$DIR" 2000 $sizes << 'EOF'
import sys
d, sizes = sys.argv[1], [int(s) for s in sys.argv[2:]]
CYCLE = ["Nf3", "Nf6", "Ng1", "Ng8"]
def write(name, moves, copies):
    game = '[Event "hostile"]\n[Result "*"]\n\n' + " ".join(
        (f"{i // 2 + 1}. " if i % 2 == 0 else "") + m for i, m in enumerate(moves)) + " *\n\n"
    with open(f"{d}/{name}.pgn", "w") as f:
        for _ in range(copies):
            f.write(game)
for n in sizes:
    copies = 50 if n == 2000 else 1
    sh = [CYCLE[i % 4] for i in range(n)]
    h = n // 2 // 4 * 4
    write(f"fail-after-1-{n}", ["e4"] * n, copies)
    write(f"end-1-{n}", sh + ["Ka5"], copies)
    write(f"end-3-{n}", sh + ["Ka5"] * 3, copies)
    write(f"early-end-3-{n}", sh[:8] + ["h6", "a6"] + sh[8:] + ["Ka5"] * 3, copies)
    write(f"left-out-end-3-{n}", sh[:8] + sh[9:] + ["Ka5"] * 3, copies)
    write(f"spaced-end-3-{n}", sh[:8] + ["h6", "a6"] + sh[8:h] + ["g6", "b6"] + sh[h:n - 40] + ["f6", "c6"]
          + sh[n - 40:] + ["Ka5"] * 3, copies)
EOF
echo
echo "hostile games of 2,000 plies, 50 copies in a file, -j1: milliseconds per game (one run each)"
printf '%-24s %16s %16s %16s %16s\n' game "validate before" "validate now" repair "repair, 3 edits"
for kind in $kinds; do
    file=$DIR/$kind-2000.pgn
    row=()
    for c in "$BEFORE validate -q -j1" "$NOW validate -q -j1" "$NOW repair -q -j1 -o $DIR/out.pgn" \
        "$NOW repair -q -j1 --max-edits 3 -o $DIR/out.pgn"; do
        # shellcheck disable=SC2086
        read -r s _ < <(measure '%M' $c "$file")
        row+=("$(awk -v s="$s" 'BEGIN { printf "%.2f", s * 1000 / 50 }')")
    done
    printf '%-24s %16s %16s %16s %16s\n' "$kind" "${row[@]}"
done
echo
echo "hostile single games, -j1: wall seconds and peak RSS (one run each)"
printf '%-24s %10s %22s %22s %22s\n' game bytes "validate before" "validate now" repair
for n in $sizes; do
    for kind in $kinds; do
        file=$DIR/$kind-$n.pgn
        row=()
        for c in "$BEFORE validate -q -j1" "$NOW validate -q -j1" "$NOW repair -q -j1 -o $DIR/out.pgn"; do
            # shellcheck disable=SC2086
            read -r s m < <(measure '%M' $c "$file")
            row+=("$(awk -v s="$s" -v m="$m" 'BEGIN { printf "%.2f s %7.1f MiB", s, m / 1024 }')")
        done
        printf '%-24s %10d %22s %22s %22s\n' "$kind-$n" "$(stat -c %s "$file")" "${row[@]}"
        rm -f "$file"
    done
done
