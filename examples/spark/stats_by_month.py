"""pgnkit on Apache Spark: per-game statistics of PGN files too big for one machine, as Parquet, and the games
and half-moves of each month.

    spark-submit examples/spark/stats_by_month.py [--max-file-bytes N] OUT_DIR PGN_FILE_OR_DIR...

(or `python3 examples/spark/stats_by_month.py ...` with pyspark installed: local mode on all cores).

`pgnkit.spark.stats` does the work (its documentation, and docs/scale.md, say how): Spark reads the files and
schedules the tasks, each task's games go to pgnkit as the files' bytes, and pgnkit writes each task's rows as
one Parquet file in OUT_DIR (the columns of `pgnkit stats -o x.parquet`), giving Spark back the task's counts,
by month among them. Files of at most N bytes are read whole (default: 1 GiB for local files, which pgnkit
reads itself; 128 MiB for files whose bytes Spark reads), larger plain files as Spark's text records
(`--max-file-bytes 0`: every plain file). Read the rows with any Parquet reader (`spark.read.parquet(OUT_DIR)`, pyarrow, DuckDB) and
filter on `date` for a month.

Every executor needs `pip install ./python` (the pgnkit package); pyarrow comes with it. Spark starts the
executors' Python workers with `PYSPARK_PYTHON` (or the `spark.pyspark.python` setting), else with the first
`python3` on the PATH, which may not be the one that has pgnkit ("No module named pgnkit"): set it to the
executors' Python under spark-submit. Started with `python3 stats_by_month.py ...`, the job runs Spark on this
machine and sets `PYSPARK_PYTHON` to the Python running it when it is not set.
"""

import argparse
import os
import sys

import pgnkit.spark
from pyspark.sql import SparkSession


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-file-bytes", type=int, default=None)
    parser.add_argument("out")
    parser.add_argument("paths", nargs="+")
    args = parser.parse_args(argv[1:])
    # spark-submit starts this script with the port of its gateway; without one, pyspark starts Spark on this
    # machine, whose workers should be this Python (a venv need not be activated).
    if "PYSPARK_PYTHON" not in os.environ and "PYSPARK_GATEWAY_PORT" not in os.environ:
        os.environ["PYSPARK_PYTHON"] = sys.executable
    spark = SparkSession.builder.appName("pgnkit stats by month").getOrCreate()
    written = pgnkit.spark.stats(spark, args.paths, args.out, max_file_bytes=args.max_file_bytes)
    spark.stop()
    print(f"{'month':<8} {'games':>10} {'half-moves':>12}")
    for month, (games, plies) in written.months.items():
        print(f"{month or 'unknown':<8} {games:>10} {plies:>12}")
    print(f"{written.games} games, {written.plies} half-moves, {written.games_with_errors} with errors, in "
          f"{len(written.parts)} Parquet files in {written.out}")


if __name__ == "__main__":
    main(sys.argv)
