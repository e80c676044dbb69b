#!/usr/bin/env bash
# Hostile input for the commands added after validate, convert and stats (issue 37): peak memory, output size
# and exit code against input size, under GNU time. Not a timed test: it prints figures (docs/performance.md,
# "Hostile input", quotes them; every case's in docs/notes/performance-log.md). With BASELINE=path to another build, each case also
# runs that binary right after, so the two columns come from the same minute of a shared machine.
#   names        standings: 10,000 players and one name of 65,535 characters (1.1 MB); then 65,536
#   rounds       report: one tournament with ROUNDS (200,000) distinct Round values
#   big-tags     stats -o x.parquet: TAG_GAMES (10) games with TAG_MB (60) MB Event tags
#   many-tags    stats -o x.parquet --tags T0,...,T19999
#   regexes      select --where: 1,300 regular expressions (33 KB)
#   groups       select --split event into 5,000 groups under `ulimit -n 30`
#   cjk          select --split event: an Event of 100 CJK characters (300 bytes)
#   long-game    stats --per-move, -o x.csv, x.jsonl and x.parquet, -j1 and -j2: one game of CYCLES (250,000)
#                knight shuffles, Nf3 Nf6 Ng1 Ng8 (4 MB, a million rows)
# Each run has AS_MIB (4096) MiB of address space at most (`ulimit -v`): a run that needs more ends on a
# failed allocation (exit 134) and is shown so, instead of taking the machine.
#   usage: benches/hostile_commands.sh [CASE...]   (PGNKIT=built binary, BASELINE=another one)
set -euo pipefail
cd "$(dirname "$0")/.."
ROUNDS=${ROUNDS:-200000}
TAG_GAMES=${TAG_GAMES:-10}
TAG_MB=${TAG_MB:-60}
CYCLES=${CYCLES:-250000}
AS_MIB=${AS_MIB:-4096}
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }

if [ -z "${PGNKIT:-}" ]; then
    cargo build --profile dist --quiet
    PGNKIT=target/dist/pgnkit
fi
cases=("$@")
[ ${#cases[@]} -gt 0 ] || cases=(names rounds big-tags many-tags regexes groups cjk long-game)

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-hostile-commands.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# game EVENT ROUND WHITE BLACK RESULT: one short game.
game() {
    printf '[Event "%s"]\n[Site "Here"]\n[Date "2024.01.01"]\n[Round "%s"]\n[White "%s"]\n[Black "%s"]\n' \
        "$1" "$2" "$3" "$4"
    printf '[Result "%s"]\n\n1. e4 e5 2. Nf3 Nc6 %s\n\n' "$5" "$5"
}

# run LABEL INPUT OUTPUT NOFILE COMMAND...: runs COMMAND under the address-space cap (and `ulimit -n NOFILE`
# unless it is -), with standard output into OUTPUT, for each binary; prints one line per binary.
run() {
    local label=$1 input=$2 output=$3 nofile=$4
    shift 4
    local bin name
    for name in this baseline; do
        if [ "$name" = this ]; then bin=$PGNKIT; else bin=${BASELINE:-}; [ -n "$bin" ] || continue; fi
        rm -rf "$output" "$tmp/split"
        local limits="ulimit -v $((AS_MIB * 1024))"
        [ "$nofile" = - ] || limits="$limits && ulimit -n $nofile"
        set +e
        /usr/bin/time -f '%e %M' -o "$tmp/time" sh -c "$limits && exec \"\$@\"" sh "$bin" "$@" \
            > "$output" 2> "$tmp/err"
        local code=$?
        set -e
        local wall rss
        read -r wall rss < <(tail -1 "$tmp/time")
        local out_bytes
        if [ -d "$tmp/split" ]; then
            out_bytes="$(find "$tmp/split" -type f | wc -l) files, $(du -sb "$tmp/split" | cut -f1) B"
        else
            out_bytes="$(stat -c %s "$output") B"
            for f in "$tmp"/out.*; do [ -f "$f" ] && out_bytes="$out_bytes, $(basename "$f") $(stat -c %s "$f") B"; done
        fi
        printf '%-10s %-8s %12s %4s %8s %10s  %-28s %s\n' "$label" "$name" "$(stat -c %s "$input")" "$code" \
            "$wall" "$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')" "$out_bytes" \
            "$(grep -v '^$' "$tmp/err" | head -1 | sed "s|$tmp/||g" | cut -c1-110)"
        rm -f "$tmp"/out.*
    done
}

printf '%-10s %-8s %12s %4s %8s %10s  %-28s %s\n' case binary "input (B)" exit "wall (s)" "RSS (MiB)" output \
    "stderr (first line)"
for case in "${cases[@]}"; do
    case $case in
    names)
        for len in 65535 65536; do
            {
                for i in $(seq 0 4999); do game "Names" "$((i % 9 + 1))" "Player $i" "Player $((i + 5000))" "1-0"; done
                game "Names" 1 "$(head -c "$len" /dev/zero | tr '\0' 'x')" "Player 0" "1/2-1/2"
            } > "$tmp/names.pgn"
            run "names-$len" "$tmp/names.pgn" "$tmp/stdout" - standings "$tmp/names.pgn"
        done
        ;;
    rounds)
        python3 - "$tmp/rounds.pgn" "$ROUNDS" <<'EOF'
import sys
path, rounds = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    for i in range(rounds):
        f.write(f'[Event "Rounds"]\n[Site "Here"]\n[Date "2024.01.01"]\n[Round "{i + 1}.{i % 7 + 1}"]\n'
                f'[White "P{i % 40}"]\n[Black "P{(i + 1) % 40}"]\n[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
EOF
        run rounds "$tmp/rounds.pgn" "$tmp/stdout" - report -q -o "$tmp/out.html" "$tmp/rounds.pgn"
        ;;
    big-tags)
        python3 - "$tmp/big-tags.pgn" "$TAG_GAMES" "$TAG_MB" <<'EOF'
import sys
path, games, mb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
with open(path, "w") as f:
    for i in range(games):
        f.write(f'[Event "{"e" * (mb * 1000000)}"]\n[White "W{i}"]\n[Black "B{i}"]\n[Result "*"]\n\n1. e4 *\n\n')
EOF
        run big-tags "$tmp/big-tags.pgn" "$tmp/stdout" - stats -q -o "$tmp/out.parquet" "$tmp/big-tags.pgn"
        ;;
    many-tags)
        for i in $(seq 50); do game "Tags" 1 "W$i" "B$i" "1-0"; done > "$tmp/many-tags.pgn"
        tags=$(seq -s, -f 'T%g' 0 19999)
        run many-tags "$tmp/many-tags.pgn" "$tmp/stdout" - stats -q --tags "$tags" -o "$tmp/out.parquet" \
            "$tmp/many-tags.pgn"
        ;;
    regexes)
        for i in $(seq 50); do game "Regexes" 1 "W$i" "B$i" "1-0"; done > "$tmp/regexes.pgn"
        python3 - "$tmp/where.txt" <<'EOF'
import sys
# Each a few bytes of text for megabytes of compiled automaton (Unicode word characters, counted).
clauses = [f'White ~ "\\w{{1,{190 + i % 10}}}"' for i in range(1300)]
open(sys.argv[1], "w").write(" or ".join(clauses))
EOF
        run regexes "$tmp/regexes.pgn" "$tmp/stdout" - select -q --count --where "$(cat "$tmp/where.txt")" \
            "$tmp/regexes.pgn"
        ;;
    groups)
        for i in $(seq 5000); do game "Event $i" 1 "W$i" "B$i" "1-0"; done > "$tmp/groups.pgn"
        run groups "$tmp/groups.pgn" "$tmp/stdout" 30 select -q --split event -o "$tmp/split" "$tmp/groups.pgn"
        ;;
    cjk)
        {
            game "$(python3 -c 'print("漢" * 100)')" 1 W B "1-0"
            game "Short" 1 W2 B2 "1-0"
        } > "$tmp/cjk.pgn"
        run cjk "$tmp/cjk.pgn" "$tmp/stdout" - select -q --split event -o "$tmp/split" "$tmp/cjk.pgn"
        ;;
    long-game)
        python3 - "$tmp/long.pgn" "$CYCLES" <<'EOF'
import sys
path, cycles = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write('[Event "Long"]\n[White "a"]\n[Black "b"]\n[Result "*"]\n\n' + "Nf3 Nf6 Ng1 Ng8 " * cycles + "*\n")
EOF
        for format in csv jsonl parquet; do
            for jobs in 1 2; do
                run "long-$format-j$jobs" "$tmp/long.pgn" "$tmp/stdout" - stats -q --per-move -j"$jobs" \
                    -o "$tmp/out.$format" "$tmp/long.pgn"
            done
        done
        ;;
    *)
        echo "unknown case $case" >&2
        exit 2
        ;;
    esac
done
