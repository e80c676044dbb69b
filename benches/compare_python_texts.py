#!/usr/bin/env python3
"""Builds of the Python package side by side on many tiny texts, the shape Spark's `mapInArrow` hands over (a
column of games, one per row): what each text costs on top of its game. Each build is a directory holding a
`pgnkit` package (its `_native.abi3.so` beside the Python sources), imported in a process of its own; the
runs are interleaved so every build sees the same machine load.

    benches/compare_python_texts.py DIR_A DIR_B [...] [--texts N] [--runs R] [--calls C] [--jobs J]

Run it with a Python that has pyarrow (python/tests/run.sh leaves one: target/python-venv/bin/python). A
build's directory can be made without maturin:

    cargo build --release -p pgnkit-python --features pyo3/extension-module
    mkdir -p DIR && cp -r python/pgnkit DIR/ && cp target/release/lib_native.so DIR/pgnkit/_native.abi3.so

Each run times every function `calls` times in one process and keeps the fastest (the first call pays the
allocator's warm-up), as wall time and as CPU time (every thread's: on a loaded machine it moves less than
the wall time, though it counts a worker's busy wait too); the tables give the median over the runs, in
seconds, and each build's ratio to the first.
"""

import argparse
import json
import statistics
import subprocess
import sys

GAME = (
    b'[Event "T"]\n[Site "S"]\n[Date "2024.01.01"]\n[Round "1"]\n[White "A"]\n[Black "B"]\n'
    b'[Result "1-0"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n\n'
)

FUNCTIONS = ["validate_texts", "read_games_texts", "stats_texts", "stats_texts per_move"]

# Run in the build's process with the game, the number of texts and of calls, and the threads as arguments:
# times each native function over the texts, prints {function: [wall seconds, CPU seconds]}.
PROBE = r"""
import json, sys, time
from pgnkit import _native
game, count, repeat, jobs = json.loads(sys.argv[1])
texts = [game.encode()] * count
names = [str(i) for i in range(count)]
calls = {
    "validate_texts": lambda: _native.validate_texts(texts, names, jobs=jobs),
    "read_games_texts": lambda: _native.read_games_texts(texts, names, jobs=jobs),
    "stats_texts": lambda: _native.stats_texts(texts, names, jobs=jobs),
    "stats_texts per_move": lambda: _native.stats_texts(texts, names, per_move=True, jobs=jobs),
}
best = {}
for name, call in calls.items():
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        call()
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    best[name] = [min(wall), min(cpu)]
print(json.dumps(best))
"""


def probe(build, texts, calls, jobs):
    """The fastest times of each function in a fresh process importing the package under `build`."""
    arguments = json.dumps([GAME.decode(), texts, calls, jobs])
    out = subprocess.run(
        [sys.executable, "-c", PROBE, arguments], cwd=build, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("builds", nargs="+", help="directories each holding a pgnkit package")
    parser.add_argument("--texts", type=int, default=20_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--calls", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=None, help="threads (default: all cores)")
    args = parser.parse_args()
    times = {build: {f: ([], []) for f in FUNCTIONS} for build in args.builds}
    for _ in range(args.runs):
        for build in args.builds:
            for name, (wall, cpu) in probe(build, args.texts, args.calls, args.jobs).items():
                times[build][name][0].append(wall)
                times[build][name][1].append(cpu)
    print(
        f"{args.texts} one-game texts, jobs={args.jobs or 'all cores'}, median of {args.runs} runs "
        f"(each the best of {args.calls} calls), interleaved"
    )
    width = max(len(b) for b in args.builds)
    for kind, column in (("wall s", 0), ("CPU s", 1)):
        print(f"{kind:<22}" + "".join(f"{b:>{width + 2}}" for b in args.builds) + "   ratios to the first")
        for name in FUNCTIONS:
            medians = [statistics.median(times[b][name][column]) for b in args.builds]
            cells = "".join(f"{m:>{width + 2}.4f}" for m in medians)
            ratios = " ".join(f"{m / medians[0]:.2f}" for m in medians[1:])
            print(f"{name:<22}{cells}   {ratios}")


if __name__ == "__main__":
    main()
