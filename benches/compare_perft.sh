#!/usr/bin/env bash
# Side-by-side perft speed: pgnkit against the reference (shakmaty 0.30, shared/bench/reference), on the same
# positions, runs interleaved (alternating which goes first) so both see the same machine load.
# Both count the last ply in bulk; each reports its own Mnodes/s over the perft call alone (FEN parsing and
# process start excluded). Prints the median and the best of RUNS runs per side and the ratios pgnkit / reference
# (on a shared machine the best run is the one least disturbed by other work).
#   usage: benches/compare_perft.sh            (RUNS=5 by default; RUNS=9 benches/compare_perft.sh for more)
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared}
source benches/lib.sh

cargo build --profile dist --quiet
CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
    --manifest-path "$SHARED/bench/reference/Cargo.toml"
PGNKIT=target/dist/pgnkit
REF=target/reference/release/pgnkit-reference

# name|FEN|depth|expected nodes
CASES=(
    "startpos|startpos|6|119060324"
    "kiwipete|r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1|5|193690690"
    "edwards-pos6|r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10|5|164075551"
)

# Runs one perft; prints its Mnodes/s after checking the node count.
run_one() {
    local bin=$1 fen=$2 depth=$3 nodes=$4 out err
    err=$(mktemp)
    out=$("$bin" perft "$fen" "$depth" 2>"$err")
    if [ "$out" != "$nodes" ]; then
        echo "$bin perft '$fen' $depth: expected $nodes, got $out" >&2
        exit 1
    fi
    awk '/Mnodes\/s/ { print $1 }' "$err"
    rm -f "$err"
}

best() { sort -g | tail -n 1; }

echo "machine: $(nproc) cores, $(awk -F: '/model name/ { print $2; exit }' /proc/cpuinfo | sed 's/^ *//'), load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-14s %5s %12s | %-23s | %-23s | %s\n' "" "" "" "median Mnodes/s" "best Mnodes/s" "ratio pgnkit/ref"
printf '%-14s %5s %12s | %11s %11s | %11s %11s | %7s %7s\n' position depth nodes pgnkit reference pgnkit reference median best
for case in "${CASES[@]}"; do
    IFS='|' read -r name fen depth nodes <<<"$case"
    p=() r=()
    for i in $(seq "$RUNS"); do
        if (( i % 2 )); then
            p+=("$(run_one "$PGNKIT" "$fen" "$depth" "$nodes")")
            r+=("$(run_one "$REF" "$fen" "$depth" "$nodes")")
        else
            r+=("$(run_one "$REF" "$fen" "$depth" "$nodes")")
            p+=("$(run_one "$PGNKIT" "$fen" "$depth" "$nodes")")
        fi
    done
    pm=$(printf '%s\n' "${p[@]}" | median)
    rm_=$(printf '%s\n' "${r[@]}" | median)
    pb=$(printf '%s\n' "${p[@]}" | best)
    rb=$(printf '%s\n' "${r[@]}" | best)
    ratio_m=$(awk -v a="$pm" -v b="$rm_" 'BEGIN { printf "%.2f", a / b }')
    ratio_b=$(awk -v a="$pb" -v b="$rb" 'BEGIN { printf "%.2f", a / b }')
    printf '%-14s %5s %12s | %11s %11s | %11s %11s | %6sx %6sx\n' "$name" "$depth" "$nodes" "$pm" "$rm_" "$pb" "$rb" "$ratio_m" "$ratio_b"
    echo "  runs pgnkit: ${p[*]}   reference: ${r[*]}"
done
