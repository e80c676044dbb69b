# Helpers the benchmark scripts share. Each script sources it after moving to the repository's root:
#   cd "$(dirname "$0")/.." && source benches/lib.sh

# The median of the numbers read on standard input: one per line, or several on a line separated by blanks
# (the mean of the two middle ones when there is an even number of them).
median() {
    tr -s ' \t' '\n' | awk 'NF' | sort -g |
        awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}

# Exits with 2 and a hint when GNU time, which `measure` runs, is missing.
need_gnu_time() {
    [ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)" >&2; exit 2; }
}

# measure FORMAT COMMAND...: runs COMMAND once, its output thrown away, under GNU time. Prints on one line the
# wall-clock seconds, then what FORMAT asks GNU time for ('%M': peak RSS in KiB; '%U %S': CPU seconds).
measure() {
    local format=$1 report start end
    shift
    report=$(mktemp)
    start=$EPOCHREALTIME
    /usr/bin/time -o "$report" -f "$format" "$@" >/dev/null 2>/dev/null || true
    end=$EPOCHREALTIME
    echo "$(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.4f", e - s }') $(tail -n 1 "$report")"
    rm -f "$report"
}

# Builds what issue #17's measurements compare, and names them: PGNKIT (dist build), PARSE
# (examples/parse_only.rs), DISTINCT_GAMES (examples/distinct_games.rs), REF (the reference of
# $SHARED/bench: pgn-reader + shakmaty) and BASE (pgnkit at $BASE_REV, the per-move rows' baseline, built once
# in its own worktree and kept under target/bench).
build_speed_binaries() {
    cargo build --profile dist --quiet
    cargo build --profile dist --quiet -p pgnkit --example parse_only --example distinct_games
    CARGO_TARGET_DIR=target/reference cargo build --release --locked --quiet \
        --manifest-path "$SHARED/bench/reference/Cargo.toml"
    PGNKIT=target/dist/pgnkit
    PARSE=target/dist/examples/parse_only
    DISTINCT_GAMES=target/dist/examples/distinct_games
    REF=target/reference/release/pgnkit-reference
    BASE=target/bench/base-$BASE_REV/pgnkit
    if [ ! -x "$BASE" ]; then
        local tree=target/bench/base-$BASE_REV/src
        rm -rf "$tree"
        git worktree add --detach --force "$tree" "$BASE_REV" >/dev/null
        (cd "$tree" && CARGO_TARGET_DIR=../target cargo build --profile dist --quiet)
        cp "target/bench/base-$BASE_REV/target/dist/pgnkit" "$BASE"
        git worktree remove --force "$tree"
    fi
}
