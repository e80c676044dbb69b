#!/usr/bin/env bash
# Hostile input: peak memory and wall time of `pgnkit validate` with one and two threads on inputs built to
# hurt a streaming reader. Not a timed test: it prints figures (docs/performance.md quotes them).
#   ws.pgn.gz         a game, WS_MB (2000) MB of blank lines, a game; gzip (about 9 MB on disk)
#   nul.pgn           a game, NUL_MB (200) MB of NUL bytes, a line break, a game (the NUL "game" is over the
#                     64 MiB limit: reported and skipped, the last game still read)
#   truncated.pgn.gz  GAMES_FILE gzipped, cut at three quarters (every complete game, then the error)
#   padded.pgn.gz     GAMES_FILE gzipped, then 1 MiB of zero bytes (read whole, as gzip -dc does)
#   truncated.pgn.zst GAMES_FILE in zstd, cut at three quarters
# GAMES_FILE defaults to the GNU Chess slice of the shared corpus (11.7 MB, 20,000 games), else the bundled
# example round repeated. For each input and -j1/-j2: exit code, games validated, the first line pgnkit wrote
# on stderr, wall time, CPU time (user + system: steadier than wall time on a shared machine) and peak RSS (GNU
# time's "Maximum resident set size").
#   usage: benches/hostile_input.sh   (WS_MB=..., NUL_MB=..., GAMES_FILE=..., PGNKIT=path to a built binary)
set -euo pipefail
cd "$(dirname "$0")/.."
WS_MB=${WS_MB:-2000}
NUL_MB=${NUL_MB:-200}
SHARED=${SHARED:-../shared}
GAMES_FILE=${GAMES_FILE:-$SHARED/corpus/games-english/gnuchess-book_games-000001-020000.pgn}
TIME=/usr/bin/time
[ -x "$TIME" ] || { echo "needs GNU time: apt-get update && apt-get install -y time" >&2; exit 2; }
command -v zstd > /dev/null || { echo "needs zstd" >&2; exit 2; }

if [ -z "${PGNKIT:-}" ]; then
    cargo build --profile dist --quiet
    PGNKIT=target/dist/pgnkit
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/pgnkit-hostile.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

game() {
    printf '[Event "Hostile"]\n[Site "Here"]\n[Date "2024.01.01"]\n[Round "%s"]\n[White "W%s"]\n' "$1" "$1"
    printf '[Black "B%s"]\n[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n' "$1"
}

echo "building the inputs in $tmp ..." >&2
if [ ! -f "$GAMES_FILE" ]; then
    GAMES_FILE=$tmp/games.pgn
    for _ in $(seq 2000); do cat fixtures/examples/round5.pgn; printf '\n'; done > "$GAMES_FILE"
fi
# 64 spaces and a line break, repeated: blank lines.
{
    game 1
    yes '                                                                ' | head -c $((WS_MB * 1000000)) || true
    game 2
} | gzip -1 > "$tmp/ws.pgn.gz"
{
    game 1
    head -c $((NUL_MB * 1000000)) /dev/zero
    printf '\n'
    game 2
} > "$tmp/nul.pgn"
gzip -c "$GAMES_FILE" > "$tmp/whole.gz"
size=$(stat -c %s "$tmp/whole.gz")
head -c $((size * 3 / 4)) "$tmp/whole.gz" > "$tmp/truncated.pgn.gz"
{ cat "$tmp/whole.gz"; head -c $((1 << 20)) /dev/zero; } > "$tmp/padded.pgn.gz"
rm "$tmp/whole.gz"
zstd -q -c "$GAMES_FILE" > "$tmp/whole.zst"
size=$(stat -c %s "$tmp/whole.zst")
head -c $((size * 3 / 4)) "$tmp/whole.zst" > "$tmp/truncated.pgn.zst"
rm "$tmp/whole.zst"

printf '%-18s %8s %3s %4s %7s %9s %8s %10s  %s\n' input "on disk" -j exit games "wall (s)" "CPU (s)" "RSS (MiB)" \
    "stderr (first line)"
for input in ws.pgn.gz nul.pgn truncated.pgn.gz padded.pgn.gz truncated.pgn.zst; do
    disk=$(stat -c %s "$tmp/$input" | awk '{ printf "%.1fM", $1 / 1e6 }')
    for jobs in 1 2; do
        set +e
        "$TIME" -f '%e %U %S %M' -o "$tmp/time" "$PGNKIT" validate -j "$jobs" "$tmp/$input" > "$tmp/out" 2> "$tmp/err"
        code=$?
        set -e
        read -r wall user sys rss < <(tail -1 "$tmp/time")
        games=$(sed -n 's/^validated \([0-9]*\) game.*/\1/p' "$tmp/out")
        first=$(grep -m1 '^pgnkit' "$tmp/err" | sed "s|$tmp/||" | cut -c1-150 || true)
        printf '%-18s %8s %3s %4s %7s %9s %8s %10s  %s\n' "$input" "$disk" "$jobs" "$code" "${games:-?}" "$wall" \
            "$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')" \
            "$(awk -v kb="$rss" 'BEGIN { printf "%.1f", kb / 1024 }')" "$first"
    done
done
