#!/usr/bin/env python3
"""Checks that no output depends on the number of threads: builds files of corpus games mixed with what the
readers handle specially (blank runs longer than they keep, byte-order marks, cut bytes, long comments, runs of
markers and tags, deep variations), runs each command with -j1 and -j2 and compares standard output, standard
error and exit codes byte for byte.

    benches/threads_agree.py BIN [FIRST_SEED [LAST_SEED]] [--corpus DIR]

A file is generated from its seed alone (Python's `random`), so a difference reported for a seed can be
rebuilt with `--keep DIR`. Exit code 1 when some output differed.
"""

import argparse
import glob
import os
import random
import subprocess
import sys
import tempfile

COMMANDS = [
    ["validate", "--format", "json"],
    ["validate", "--color", "never"],
    ["convert", "--to", "en", "--color", "never"],
    ["convert", "--output-format", "jsonl"],
    ["stats"],
    ["stats", "--per-move"],
    ["stats", "--summary"],
    ["select", "--white", "x", "--color", "never"],
]


def extras(rng):
    """What is put between corpus pieces: one of the shapes the readers treat specially."""
    shapes = [
        lambda: b"\n" * rng.choice([1, 3, 70_000, 1_100_000, 2_000_000]),
        lambda: b" " * rng.choice([5, 1_300_000]),
        lambda: b"\r\n" * rng.randint(1, 600_000),
        lambda: b"\xef\xbb\xbf",
        lambda: b"{" + b'[Event "in a comment"]\n' * rng.randint(1, 20_000) + b"}\n",
        lambda: b"*\n" * rng.randint(1, 3_000),
        lambda: b'[Event "t"]\n' * rng.randint(1, 2_000),
        lambda: b"1. e4 (1. d4 (1. c4 (1. Nf3))) " * rng.randint(1, 5_000) + b"*\n",
        lambda: b"%escape\n",
        lambda: b"; [" + b"[" * rng.randint(1, 100_000) + b"\n",
        lambda: b"((((",
        lambda: b"))))",
        lambda: b"\x00\xff",
        lambda: bytes(rng.randrange(256) for _ in range(rng.randint(1, 300))),
    ]
    return rng.choice(shapes)()


def build(seed, files):
    rng = random.Random(seed)
    out = []
    for _ in range(rng.randint(3, 8)):
        data = open(rng.choice(files), "rb").read()
        if len(data) > 120_000:
            start = rng.randrange(0, len(data) - 100_000)
            data = data[start : start + 100_000]
        out.append(data)
        for _ in range(rng.randint(0, 3)):
            out.append(extras(rng))
    data = bytearray(b"".join(out))
    for _ in range(rng.randint(0, 5)):
        at = rng.randrange(len(data))
        del data[at : at + rng.randint(1, 50)]
    return bytes(data)


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bin")
    parser.add_argument("first", nargs="?", type=int, default=1)
    parser.add_argument("last", nargs="?", type=int, default=None)
    parser.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "corpus"))
    parser.add_argument("--keep", help="write each generated file into this directory")
    args = parser.parse_args()
    last = args.last if args.last is not None else args.first + 29
    files = sorted(glob.glob(os.path.join(args.corpus, "**", "*.pgn"), recursive=True))
    if not files:
        sys.exit(f"no .pgn files under {args.corpus}")
    differed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(args.first, last + 1):
            folder = args.keep or tmp
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, f"seed-{seed}.pgn")
            with open(path, "wb") as f:
                f.write(build(seed, files))
            for command in COMMANDS:
                runs = [
                    subprocess.run([args.bin, *command, threads, "-q", path], capture_output=True)
                    for threads in ("-j1", "-j2")
                ]
                one, two = runs
                if (one.returncode, one.stdout, one.stderr) != (two.returncode, two.stdout, two.stderr):
                    differed += 1
                    what = [n for n, a, b in (("exit code", one.returncode, two.returncode),
                                              ("stdout", one.stdout, two.stdout),
                                              ("stderr", one.stderr, two.stderr)) if a != b]
                    print(f"seed {seed}: {' '.join(command)}: {', '.join(what)} differ")
    print(f"seeds {args.first}-{last}, {len(COMMANDS)} commands each: {differed} differed")
    sys.exit(1 if differed else 0)


if __name__ == "__main__":
    main()
