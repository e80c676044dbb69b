"""Parquet files whose rows are games, read from Python as the command reads them: a path, a directory, or the
file's bytes. The files under ``fixtures/parquet/`` were written by pyarrow from ``fixtures/corpus-subset/``
(``tests/tools/pgn_to_parquet.py``), in the Lichess dataset's shape (tag columns and ``movetext``) or with a
``pgn`` column.
"""

import json
import os
import pathlib
import subprocess

import pyarrow as pa

import pgnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
PARQUET = ROOT / "fixtures" / "parquet"
LICHESS = PARQUET / "lichess-50.parquet"
LICHESS_PGN = ROOT / "fixtures" / "corpus-subset" / "games-english" / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"
SLIP = PARQUET / "slip.parquet"


def without_places(table: pa.Table) -> pa.Table:
    """The rows without where they are: the file's name and the line (a row's text starts at line 1)."""
    return table.drop_columns(["file", "line"])


def test_stats_of_a_parquet_file_are_the_stats_of_its_pgn():
    from_parquet = pgnkit.stats(str(LICHESS))
    from_pgn = pgnkit.stats(str(LICHESS_PGN))
    assert from_parquet.num_rows == 50
    assert without_places(from_parquet).equals(without_places(from_pgn))
    # The command's Parquet rows, the same.
    out = subprocess.run([BIN, "stats", "-q", "--format", "jsonl", str(LICHESS)], capture_output=True, check=True)
    games = [json.loads(line)["game"] for line in out.stdout.decode().splitlines()]
    assert games == from_parquet.column("game").to_pylist()


def test_the_files_bytes_are_read_as_the_file():
    from_bytes = pgnkit.stats(LICHESS.read_bytes())
    from_path = pgnkit.stats(str(LICHESS))
    assert without_places(from_bytes).equals(without_places(from_path))


def test_validate_names_the_row_group_and_row():
    records = [json.loads(r) if isinstance(r, str) else r for r in pgnkit.validate(str(SLIP))]
    bad = [r for r in records if not r["valid"]]
    assert [(r["game"], r["row_group"], r["row"]) for r in bad] == [(3, 1, 2)]
    error = next(p for p in bad[0]["problems"] if p["severity"] == "error")
    assert (error["row"], error["line"], error["column"]) == (2, 7, 43)


def test_select_and_convert_give_the_pgns_games():
    where = 'WhiteElo - BlackElo >= 100 or result == "0-1"'
    assert pgnkit.select(str(LICHESS), where) == pgnkit.select(str(LICHESS_PGN), where)
    assert pgnkit.convert(str(LICHESS), to="fr") == pgnkit.convert(str(LICHESS_PGN), to="fr")
