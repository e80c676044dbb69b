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


def command_totals():
    """Games, plies and games by month from `pgnkit stats` on the same files."""
    run = subprocess.run([BIN, "stats", "-q", *map(str, INPUTS)], capture_output=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    rows = list(csv.DictReader(io.StringIO(run.stdout.decode())))
    by_month = collections.Counter()
    for r in rows:
        d = r["date"]
        month = f"{d[:4]}-{d[5:7]}" if d[:4].isdigit() and d[5:7].isdigit() else "unknown"
        by_month[month] += 1
    return len(rows), sum(int(r["plies"]) for r in rows), dict(by_month)


def test_spark_job_gives_the_command_totals(tmp_path):
    spark_or_skip()
    import sys

    sys.path.insert(0, str(ROOT / "examples" / "spark"))
    import stats_by_month
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    # The executors' Python is this one, which has pgnkit (Spark would take the first python3 on the PATH).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = (
        SparkSession.builder.master("local[2]")
        .appName("pgnkit test")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .getOrCreate()
    )
    try:
        # The executors' Python workers import the job's functions by module name.
        spark.sparkContext.addPyFile(str(ROOT / "examples" / "spark" / "stats_by_month.py"))
        out = str(tmp_path / "by-month")
        written = stats_by_month.run(spark, [str(p) for p in INPUTS], out)
        games = written.count()
        plies = written.agg(F.sum("plies")).first()[0]
        months = {r["month"]: r["count"] for r in written.groupBy("month").count().collect()}
    finally:
        spark.stop()
    want_games, want_plies, want_months = command_totals()
    assert (games, plies) == (want_games, want_plies)
    assert months == want_months
    assert (tmp_path / "by-month" / "month=2025-05").is_dir()
