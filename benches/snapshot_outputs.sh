#!/usr/bin/env bash
# Runs one pgnkit binary over every PGN of a corpus and keeps what it wrote, so that two builds can be
# compared byte for byte (refactors must not change output):
#   benches/snapshot_outputs.sh [--subset N] BIN OUTDIR [CORPUS]
#   diff -r OUTDIR-before OUTDIR-after
# CORPUS is a directory (default: the shared corpus) or a file. Each PGN file gets, at -j1 and -j2, with the
# exit code and standard error of each run:
#   validate (JSON and text); convert (to English; to French LAN; jsonl; EPD); stats (per game, per move as
#   CSV and JSON lines, summary, and per game as Parquet written with -o, kept as bytes); select (a --where,
#   --dedupe, and --split event into a directory, listed file by file with its contents); standings (text,
#   csv, json, trf); report (the page).
# Then standings and report read all the files of CORPUS in one run (`all.*`): tournaments kept as one file
# per round are one tournament only there.
# --subset N takes every Nth file (in name order) of CORPUS, for a quicker look; a full run is what a
# baseline should be compared with.
set -uo pipefail
every=1
if [ "${1:-}" = --subset ]; then
    every=$2
    shift 2
fi
bin=$1
out=$2
corpus=${3:-$(dirname "$0")/../../shared/corpus}
mkdir -p "$out"

# list DIR: every file under DIR, by name, each followed by its bytes.
list() {
    (cd "$1" && find . -type f | LC_ALL=C sort | while read -r f; do
        echo "== $f"
        cat "$f"
    done)
}

files=$(mktemp)
trap 'rm -f "$files"' EXIT
find "$corpus" \( -name '*.pgn' -o -name '*.pgn.gz' \) -type f | LC_ALL=C sort |
    awk -v n="$every" '(NR - 1) % n == 0' >"$files"

while read -r file; do
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
        # Parquet's bytes: written by -o (standard output then holds nothing).
        run stats-parquet stats -o "$out/$name.stats-parquet.j$j.parquet"
        run select-where select --where 'plies >= 40 and (result == "1-0" or WhiteElo > 2000)'
        run select-dedupe select --dedupe
        split=$(mktemp -d)
        rmdir "$split"
        run select-split select --split event -o "$split"
        list "$split" >"$out/$name.select-split.j$j.files" 2>&1
        rm -rf "$split"
        run standings-text standings
        run standings-csv standings --format csv
        run standings-json standings --format json
        run standings-trf standings --format trf
        run report report
    done
done <"$files"

# Every file of the corpus in one run: the cross-file tournaments.
mapfile -t all_files <"$files"
for j in 1 2; do
    all() {
        local tag=$1
        shift
        "$bin" "$@" -j "$j" -q "${all_files[@]}" >"$out/all.$tag.j$j" 2>"$out/all.$tag.j$j.err"
        echo "rc=$?" >>"$out/all.$tag.j$j.err"
    }
    all standings-text standings
    all standings-csv standings --format csv
    all standings-json standings --format json
    all report report
done
