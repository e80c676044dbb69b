"""The Spark example (examples/spark/stats_by_month.py) in local mode, against the command's totals.

Needs pyspark and Java 17 (``python/tests/run.sh`` installs pyspark when ``PGNKIT_SPARK=1``, as .ci/run does);
skipped without them, except when ``PGNKIT_REQUIRE_CORPUS`` is set (CI), where that is a failure.
"""

import collections
import csv
import importlib.util
import io
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
SUBSET = ROOT / "fixtures" / "corpus-subset" / "games-english"
INPUTS = [
    SUBSET / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn",
    SUBSET / "pychess-world_matches.games-1-10.pgn",
    ROOT / "fixtures" / "stats" / "games.pgn",
]


def spark_or_skip():
    ready = importlib.util.find_spec("pyspark") is not None and shutil.which("java") is not None
    if not ready:
        if os.environ.get("PGNKIT_REQUIRE_CORPUS"):
            pytest.fail("pyspark or java missing: python/tests/run.sh installs pyspark with PGNKIT_SPARK=1")
        pytest.skip("pyspark or java missing")


def command_totals(inputs=INPUTS):
    """Games, plies and games by month from `pgnkit stats` on the same files."""
    run = subprocess.run([BIN, "stats", "-q", *map(str, inputs)], capture_output=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout.decode())))
    by_month = collections.Counter()
    for r in rows:
        d = r["date"]
        month = f"{d[:4]}-{d[5:7]}" if d[:4].isdigit() and d[5:7].isdigit() else "unknown"
        by_month[month] += 1
    return len(rows), sum(int(r["plies"]) for r in rows), dict(by_month)


def with_text_before_the_first_game(tmp_path):
    """Files that open with something else than a game, each holding the games of the first input: a comment
    line (as TWIC's files do: `; from https://theweekinchess.com/`), blank lines, a byte order mark."""
    games = INPUTS[0].read_bytes()
    openings = {
        "comment.pgn": b"; from https://theweekinchess.com/\n\n",
        "blank.pgn": b"\n\n\n",
        "bom.pgn": b"\xef\xbb\xbf",
    }
    paths = []
    for name, opening in openings.items():
        path = tmp_path / name
        path.write_bytes(opening + games)
        paths.append(path)
    return paths


def test_records_as_spark_cuts_them_give_the_command_games(tmp_path):
    spark_or_skip()
    import pyarrow as pa
    import pyarrow.compute as pc

    sys.path.insert(0, str(ROOT / "examples" / "spark"))
    import stats_by_month

    for path in INPUTS + with_text_before_the_first_game(tmp_path):
        # Spark's text source with lineSep: the file cut at each separator, the separator left out.
        records = path.read_bytes().split(stats_by_month.GAME_START.encode())
        batch = pa.RecordBatch.from_arrays([pa.array(records, pa.binary())], names=["value"])
        rows = pa.Table.from_batches(list(stats_by_month.stats_of_games([batch])))
        games, plies, _ = command_totals([path])
        assert (rows.num_rows, pc.sum(rows.column("plies")).as_py()) == (games, plies), path.name


def test_the_job_as_a_user_starts_it(tmp_path):
    """`python3 stats_by_month.py OUT FILES...` from a venv that is not activated: PYSPARK_PYTHON unset, and
    the first python3 on the PATH one without pgnkit."""
    spark_or_skip()
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    # The interpreter the venv was made from, without any site-packages (-S): surely without pgnkit.
    bare = tmp_path / "bin"
    bare.mkdir()
    base = pathlib.Path(sys.base_prefix) / "bin" / "python3"
    (bare / "python3").write_text(f'#!/bin/sh\nexec "{base}" -S "$@"\n')
    (bare / "python3").chmod(0o755)
    lacks = subprocess.run([bare / "python3", "-c", "import pgnkit"], capture_output=True, check=False)
    assert b"No module named" in lacks.stderr, lacks.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    env["PATH"] = f"{bare}{os.pathsep}{env.get('PATH', '')}"
    inputs = INPUTS + with_text_before_the_first_game(tmp_path)
    out = tmp_path / "by-month"
    job = ROOT / "examples" / "spark" / "stats_by_month.py"
    run = subprocess.run(
        [sys.executable, job, out, *inputs], env=env, cwd=tmp_path, capture_output=True, check=False, timeout=900
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")[-3000:]
    written = ds.dataset(out, format="parquet", partitioning="hive").to_table()
    months = collections.Counter(written.column("month").to_pylist())
    games, plies, by_month = command_totals(inputs)
    assert (written.num_rows, pc.sum(written.column("plies")).as_py()) == (games, plies)
    assert dict(months) == by_month
    assert (out / "month=2025-05").is_dir()
