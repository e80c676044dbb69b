#!/usr/bin/env bash
# Runs one pgnkit binary over every PGN of a corpus and keeps what it wrote, so that two builds can be
# compared byte for byte (refactors must not change output):
#   benches/snapshot_outputs.sh BIN OUTDIR [CORPUS]
#   diff -r OUTDIR-before OUTDIR-after
# Each file gets validate (JSON and text), convert (to English; to French LAN; jsonl; EPD), stats (per game,
# per move as CSV and JSON lines, summary), at -j1 and -j2, with the exit code of each run.
set -uo pipefail
bin=$1
out=$2
corpus=${3:-$(dirname "$0")/../../shared/corpus}
mkdir -p "$out"
find "$corpus" -name '*.pgn' -o -name '*.pgn.gz' | LC_ALL=C sort | while read -r file; do
    name=$(echo "${file#"$corpus"/}" | tr '/' '_')
    for j in 1 2; do
        run() {
            local tag=$1
            shift
            "$bin" "$@" -j "$j" -q "$file" >"$out/$name.$tag.j$j" 2>"$out/$name.$tag.j$j.err"
            echo "rc=$?" >>"$out/$name.$tag.j$j.err"
        }
        run validate-json validate --format json
        run validate-text validate --color never
        run convert-en convert --to en --color never
        run convert-fr-lan convert --to fr --notation lan --color never
        run convert-jsonl convert --output-format jsonl --color never
        run convert-epd convert --output-format epd --color never
        run stats stats
        run stats-per-move stats --per-move
        run stats-per-move-jsonl stats --per-move --format jsonl
        run stats-summary stats --summary
    done
done
