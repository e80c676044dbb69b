#!/usr/bin/env bash
# Side-by-side select throughput: pgnkit select against pgnkit validate (the target: select as fast as validate),
# the reference (pgn-reader 0.29 + shakmaty 0.30, shared/bench/reference) and pgn-extract making the same
# selections, on the same files, runs interleaved so all see the same machine load.
#   baseline   reference --mode validate; pgnkit validate -q -j1 / -j2; pgn-extract with no criterion (reads,
#              replays and rewrites every game)
#   tags       select --where 'WhiteElo >= 2500 and BlackElo >= 2500'   pgn-extract -t FILE (two lines, different
#              tag names: and-ed by pgn-extract)
#   eco        select --where 'ECO ~ "^B90"'                             pgn-extract -TeB90 (a prefix of the tag)
#   mate       select --where 'termination == "checkmate"'               pgn-extract --checkmate
#   dedupe     select --dedupe                                           pgn-extract -D
#   reaches    select --reaches EPD (after the Najdorf's 5...a6)         pgn-extract -x FILE (the same moves)
#   opening    select --where 'opening_eco == "B90"' (classified from the moves; pgnkit only)
# Each tool writes the games it chooses to /dev/null (pgnkit their own text, pgn-extract its rewrite of them);
# pgnkit with -q, pgn-extract with --quiet. Prints per command the median wall and CPU time, MB/s, games/s and
# peak RSS over RUNS runs, then the ratios, then how many games each tool chose (separate, untimed runs:
# pgnkit --count, pgn-extract's own "N games matched out of M").
#   usage: benches/compare_select.sh [FILE...]   (RUNS=5 by default; without FILE, a file of SIZE_MB=44 MB or
#   a little more, made by concatenating the English corpus files, each followed by a line break)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
SIZE_MB=${SIZE_MB:-44}

cargo build --profile dist --quiet
CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path "$SHARED/bench/reference/Cargo.toml"
PGNKIT=target/dist/pgnkit
REF=target/reference/release/pgnkit-reference
source benches/lib.sh
need_gnu_time
PGNX=$(command -v pgn-extract || echo /usr/games/pgn-extract)
[ -x "$PGNX" ] || { echo "needs pgn-extract (apt-get install pgn-extract)" >&2; exit 2; }

mkdir -p target/bench
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
    big=target/bench/corpus-files-${SIZE_MB}MB.pgn
    if [ ! -f "$big" ]; then
        : > "$big.part"
        while [ "$(stat -c %s "$big.part")" -lt $((SIZE_MB * 1000000)) ]; do
            for f in "$SHARED"/corpus/games-english/*.pgn; do
                { cat "$f"; printf '\n'; } >> "$big.part"
                [ "$(stat -c %s "$big.part")" -lt $((SIZE_MB * 1000000)) ] || break
            done
        done
        mv "$big.part" "$big"
    fi
    files=("$big")
fi

# The criteria, one file each where pgn-extract wants a file.
TAGS=target/bench/select-tags.txt
printf 'WhiteElo >= "2500"\nBlackElo >= "2500"\n' > "$TAGS"
LINE='1. e4 c5 2. Nf3 d6 3. d4 cxd4 4. Nxd4 Nf6 5. Nc3 a6'
VARS=target/bench/select-najdorf.var
printf '%s\n' "$LINE" > "$VARS"
printf '[Event "?"]\n[Result "*"]\n\n%s *\n' "$LINE" > target/bench/select-najdorf.pgn
# pgnkit's EPD of the position after the line's last move: its four fields, which --reaches reads as a FEN's.
EPD=$("$PGNKIT" convert -q --output-format epd target/bench/select-najdorf.pgn | tail -n 1 | cut -d' ' -f1-4)
WHERE_TAGS='WhiteElo >= 2500 and BlackElo >= 2500'
WHERE_ECO='ECO ~ "^B90"'
WHERE_MATE='termination == "checkmate"'
WHERE_OPENING='opening_eco == "B90"'

# The pgnkit arguments and the pgn-extract arguments of each selection.
pgnkit_args() {
    case $1 in
        tags) echo "--where|$WHERE_TAGS" ;;
        eco) echo "--where|$WHERE_ECO" ;;
        mate) echo "--where|$WHERE_MATE" ;;
        dedupe) echo "--dedupe" ;;
        reaches) echo "--reaches|$EPD" ;;
        opening) echo "--where|$WHERE_OPENING" ;;
    esac
}
pgnx_args() {
    case $1 in
        all) echo "" ;;
        tags) echo "-t$TAGS" ;;
        eco) echo "-TeB90" ;;
        mate) echo "--checkmate" ;;
        dedupe) echo "-D" ;;
        reaches) echo "-x$VARS" ;;
    esac
}

# Sets the array cmd to the command of a mode: NAME-j1, NAME-j2 (pgnkit), NAME-px (pgn-extract).
command_of() {
    local mode=$1 name=${1%-*} how=${1##*-} IFS='|'
    case $mode in
        ref-validate) cmd=("$REF" --mode validate -q "$file") ;;
        validate-j1) cmd=("$PGNKIT" validate -q -j1 "$file") ;;
        validate-j2) cmd=("$PGNKIT" validate -q -j2 "$file") ;;
        *-px) read -r -a extra <<<"$(pgnx_args "$name")"; cmd=("$PGNX" --quiet "${extra[@]}" "$file") ;;
        *) read -r -a extra <<<"$(pgnkit_args "$name")"; cmd=("$PGNKIT" select -q -"$how" "${extra[@]}" "$file") ;;
    esac
}

SELECTIONS=(tags eco mate dedupe reaches)
modes=(ref-validate validate-j1 validate-j2 all-px)
for s in "${SELECTIONS[@]}"; do modes+=("$s-j1" "$s-j2" "$s-px"); done
modes+=(opening-j1 opening-j2)

echo "machine: $(nproc) cores, $(awk -F: '/model name/ { print $2; exit }' /proc/cpuinfo | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "pgn-extract: $("$PGNX" --version 2>&1 | head -n 1); --reaches $EPD"
for file in "${files[@]}"; do
    bytes=$(stat -c %s "$file")
    games=$(grep -c '^\[Event ' "$file" || true)
    echo
    echo "$file: $bytes bytes, $games games, $RUNS interleaved runs, medians"
    declare -A secs=() cpu=() mem=()
    for i in $(seq "$RUNS"); do
        order=("${modes[@]}")
        (( i % 2 )) || order=($(printf '%s\n' "${modes[@]}" | tac))
        for mode in "${order[@]}"; do
            command_of "$mode"
            read -r s user system m <<<"$(measure '%U %S %M' "${cmd[@]}")"
            c=$(awk -v u="$user" -v k="$system" 'BEGIN { print u + k }')
            secs[$mode]+="$s "
            cpu[$mode]+="$c "
            [ "${mem[$mode]:-0}" -ge "$m" ] || mem[$mode]=$m
        done
    done
    printf '%-14s %9s %8s %9s %11s %10s\n' mode wall_s cpu_s MB/s games/s peak_MiB
    declare -A med=()
    for mode in "${modes[@]}"; do
        med[$mode]=$(median <<<"${secs[$mode]}")
        c=$(median <<<"${cpu[$mode]}")
        awk -v m="$mode" -v s="${med[$mode]}" -v c="$c" -v b="$bytes" -v g="$games" -v k="${mem[$mode]}" \
            'BEGIN { printf "%-14s %9.3f %8.2f %9.1f %11.0f %10.1f\n", m, s, c, b / s / 1e6, g / s, k / 1024 }'
    done

    echo
    echo "speed ratios (the other's wall time over select's; above 1: select is faster)"
    printf '%-10s %12s %12s %16s %16s\n' selection vs_valid_j1 vs_valid_j2 vs_pgnx_with_j1 vs_pgnx_with_j2
    for s in "${SELECTIONS[@]}" opening; do
        awk -v n="$s" -v v1="${med[validate-j1]}" -v v2="${med[validate-j2]}" -v s1="${med[$s-j1]}" \
            -v s2="${med[$s-j2]}" -v px="${med[$s-px]:-}" \
            'BEGIN { printf "%-10s %11.2fx %11.2fx", n, v1 / s1, v2 / s2
                     if (px != "") printf " %15.2fx %15.2fx\n", px / s1, px / s2; else printf " %16s %16s\n", "-", "-" }'
    done

    echo
    echo "games chosen (pgnkit select --count; pgn-extract: its report, games matched out of games read)"
    report=$(mktemp)
    for s in "${SELECTIONS[@]}" opening all; do
        n1=-
        if [ "$s" != all ]; then
            IFS='|' read -r -a extra <<<"$(pgnkit_args "$s")"
            n1=$("$PGNKIT" select -q -j2 --count "${extra[@]}" "$file" || true)
        fi
        n2=-
        if [ "$s" != opening ]; then
            read -r -a extra <<<"$(pgnx_args "$s")"
            "$PGNX" "${extra[@]}" "$file" >/dev/null 2>"$report" || true
            n2=$(grep -o '[0-9]* games matched out of [0-9]*' "$report" | tail -n 1 | awk '{ print $1 " of " $6 }')
        fi
        printf '%-10s pgnkit %8s   pgn-extract %s\n' "$s" "$n1" "$n2"
    done
    rm -f "$report"
    unset secs cpu mem med
done
