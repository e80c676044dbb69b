#!/usr/bin/env bash
# Peak memory and time of `pgnkit validate` on hostile games (issue #11, section 4): a line of unmatched `(`
# (each one a problem), a line of `[` then as many `]` among the tags (each `[` a broken tag), a 200,000-ply
# knight shuffle, single-game files of long reversible runs (1, 2 and 4 MB of shuffles), and variations nested a
# million and four million deep (one legal move each). Each should cost time and memory linear in its size at
# most: the figures of one size against the next tell (a quadratic cost quadruples when the size doubles).
#
# Usage: benches/hostile_games.sh [BASELINE_BINARY]
#   With a baseline binary (an older build of pgnkit), both are run on each input, one after the other, so
#   the two columns come from the same minute of this shared machine.
# Run from the repository root. Needs GNU time (`apt-get install time`) for the peak memory.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${1:-}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "GNU time is needed: apt-get install time" >&2; exit 2; }
cargo build --profile dist --quiet
PGNKIT=target/dist/pgnkit
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT

python3 - "$DIR" <<'EOF'
import sys
d = sys.argv[1]
def shuffle(plies):
    cycle = ["Nf3", "Nf6", "Ng1", "Ng8"]
    moves = [cycle[i % 4] for i in range(plies)]
    return " ".join(f"{i // 2 + 1}. {moves[i]} {moves[i + 1]}" for i in range(0, plies - 1, 2))
def write(name, movetext):
    with open(f"{d}/{name}", "w") as f:
        f.write('[Event "hostile"]\n[Result "*"]\n\n' + movetext + " *\n")
write("parens-100k.pgn", "1. e4 " + "(" * 100_000)
write("parens-200k.pgn", "1. e4 " + "(" * 200_000)
for k in (100, 200):
    with open(f"{d}/brackets-{k}k.pgn", "w") as f:
        f.write('[Event "hostile"]\n' + "[" * (k * 1000) + "]" * (k * 1000) + '\n[Result "*"]\n\n1. e4 *\n')
write("shuffle-200k-plies.pgn", shuffle(200_000))
for m in (1, 4):
    write(f"nested-{m}m.pgn", "1. e4 e5 " + "(e6\n" * (m * 1_000_000) + ")" * (m * 1_000_000))
# a game of shuffles as large as the file size (about 7.4 bytes a ply)
for mb in (1, 2, 4):
    write(f"shuffle-{mb}mb.pgn", shuffle(int(mb * 1_000_000 / 7.4) // 4 * 4))
EOF

measure() { # binary file -> "seconds max_rss_mib"
    "$TIME" -f "%e %M" -o "$DIR/time" "$1" validate -q -j1 --no-tournament-checks "$2" \
        > /dev/null 2>&1 || true
    # the last line: GNU time writes "Command exited with non-zero status 1" first when validate finds errors
    tail -n 1 "$DIR/time" | awk '{ printf "%.2f s %7.1f MiB", $1, $2 / 1024 }'
}

printf '%-26s %10s  %-24s %s\n' input bytes "pgnkit (this build)" "${BASE:+baseline}"
for f in parens-100k parens-200k brackets-100k brackets-200k shuffle-200k-plies shuffle-1mb shuffle-2mb shuffle-4mb \
    nested-1m nested-4m; do
    file="$DIR/$f.pgn"
    ours=$(measure "$PGNKIT" "$file")
    base=""
    if [ -n "$BASE" ]; then base=$(measure "$BASE" "$file"); fi
    printf '%-26s %10d  %-24s %s\n' "$f" "$(stat -c %s "$file")" "$ours" "$base"
done
