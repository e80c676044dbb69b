"""pgnkit on Apache Spark: per-game statistics of PGN files too big for one machine, as Parquet by month.

    spark-submit examples/spark/stats_by_month.py OUT_DIR PGN_FILE_OR_DIR...

(or `python3 examples/spark/stats_by_month.py ...` with pyspark installed: local mode on all cores).

1. Spark reads the PGN files as text, one game per record: records are separated at each line that starts a
   game's tag section with `[Event ` (Spark splits large plain files between executors; a compressed file is
   read by one). The separator is cut from the records, so it is put back on the records that followed one;
   the first record of a file is passed as it is, and what stands there before the first game (a `; from ...`
   comment, blank lines) is no game, for pgnkit as for the command.
2. `mapInArrow` runs `pgnkit.stats` on each batch of games on the executors, with the schema from
   `pgnkit.stats_schema()`: the same columns, types and values as `pgnkit stats --format parquet`, but the
   `file` column holds the index of the game in its batch (a game's text is its only context there).
3. The rows are written as Parquet partitioned by month (`month=2025-05/`, from the `date` column; `unknown`
   when the date has no year and month).

Every executor needs `pip install ./python` (the pgnkit package); pyarrow comes with it. Spark starts the
executors' Python workers with `PYSPARK_PYTHON` (or the `spark.pyspark.python` setting), else with the first
`python3` on the PATH, which may not be the one that has pgnkit ("No module named pgnkit"): set it to the
executors' Python under spark-submit. Started with `python3 stats_by_month.py ...`, the job runs Spark on this
machine and sets `PYSPARK_PYTHON` to the Python running it when it is not set.
"""

import os
import sys

import pgnkit
import pyarrow as pa
from pyspark.sql import SparkSession
from pyspark.sql import functions as F
from pyspark.sql.pandas.types import from_arrow_schema

GAME_START = "\n[Event "


def game_text(record):
    """The PGN text of a record. A record that followed a separator starts with the rest of its Event tag, the
    tag's value (`"Rated Blitz game"]`), and gets its `[Event ` back; any other record is the start of a file,
    up to its first separator, and is read as it is, as the command reads a file's start."""
    if record.lstrip(b" \t").startswith(b'"'):
        return b"[Event " + record
    return record


def stats_of_games(batches):
    """mapInArrow's function: record batches of game texts in, record batches of pgnkit's rows out."""
    for batch in batches:
        texts = [game_text(record) for record in batch.column("value").to_pylist() if record and record.strip()]
        table = pgnkit.stats(texts, jobs=1)
        yield from table.to_batches()


def run(spark, paths, out):
    # As bytes: Spark's text source does not decode, and real files hold Windows-1252 games, which pgnkit
    # decodes as the command does (a UTF-8 string column would not even convert to Python).
    games = (
        spark.read.option("lineSep", GAME_START)
        .text(paths)
        .select(F.col("value").cast("binary").alias("value"))
    )
    schema = from_arrow_schema(pgnkit.stats_schema())
    rows = games.mapInArrow(stats_of_games, schema)
    month = F.regexp_extract(F.coalesce(F.col("date"), F.lit("")), r"^(\d{4})\.(\d{2})", 0)
    rows = rows.withColumn(
        "month",
        F.when(month == "", F.lit("unknown")).otherwise(F.regexp_replace(month, r"\.", "-")),
    )
    rows.write.mode("overwrite").partitionBy("month").parquet(out)
    return spark.read.parquet(out)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    out, paths = argv[1], argv[2:]
    # spark-submit starts this script with the port of its gateway; without one, pyspark starts Spark on this
    # machine, whose workers should be this Python (a venv need not be activated).
    if "PYSPARK_PYTHON" not in os.environ and "PYSPARK_GATEWAY_PORT" not in os.environ:
        os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = SparkSession.builder.appName("pgnkit stats by month").getOrCreate()
    written = run(spark, paths, out)
    written.groupBy("month").agg(F.count("*").alias("games"), F.sum("plies").alias("plies")).orderBy(
        "month"
    ).show(truncate=False)
    spark.stop()


if __name__ == "__main__":
    main(sys.argv)
