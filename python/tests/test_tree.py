"""``pgnkit.tree`` against ``pgnkit tree --format parquet``: the same rows, columns and types on the same games
and options (issue 42).

Run by ``python/tests/run.sh``, with ``PGNKIT_BIN`` naming the command built from the same sources.
"""

import datetime
import gzip
import os
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq
import pytest

import pgnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
ENGLISH = ROOT / "fixtures" / "corpus-subset" / "games-english"
LICHESS = ENGLISH / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"
TWIC = ENGLISH / "twic1389_3393games.event-6th-vezerkepzo-gm-2021.pgn"
MATCHES = ENGLISH / "pychess-world_matches.games-1-10.pgn"
INPUTS = [LICHESS, TWIC, MATCHES, ROOT / "fixtures" / "stats" / "dates.pgn", ROOT / "fixtures" / "stats" / "games.pgn"]
# The position a game of MATCHES starts from.
SET_UP = "5r2/p2q1r1p/7k/3pQ1R1/5pbP/8/PP1B1PP1/4R1K1 w - - 0 28"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -"


def command_tree(tmp_path, paths, *args):
    """The command's tree of `paths` (one or a list) with `args`, as pyarrow reads its Parquet."""
    out = tmp_path / "cli.parquet"
    paths = paths if isinstance(paths, list) else [paths]
    run = subprocess.run([BIN, "tree", "-q", "--format", "parquet", "-o", out, *args, *paths],
                         capture_output=True, check=False)
    # 1: the tree is empty.
    assert run.returncode in (0, 1), run.stderr
    return pq.read_table(out)


def assert_same(mine, theirs):
    assert mine.schema == theirs.schema
    assert mine.num_rows == theirs.num_rows
    assert mine.equals(theirs)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_the_table_is_the_commands_parquet(tmp_path, path):
    mine = pgnkit.tree(path)
    assert mine.num_rows > 0
    assert_same(mine, command_tree(tmp_path, path))


def test_the_columns_and_their_types():
    table = pgnkit.tree(TWIC, depth=4)
    assert [(f.name, f.type, f.nullable) for f in table.schema] == [
        ("fen", pa.string(), False),
        ("move_uci", pa.string(), False),
        ("move_san", pa.string(), False),
        ("games", pa.int64(), False),
        ("white_wins", pa.int64(), False),
        ("draws", pa.int64(), False),
        ("black_wins", pa.int64(), False),
        ("score", pa.float64(), True),
        ("mover_elo", pa.int32(), True),
        ("opponent_elo", pa.int32(), True),
        ("performance", pa.int32(), True),
        ("first_date", pa.date32(), True),
        ("last_date", pa.date32(), True),
        ("eco", pa.string(), True),
        ("opening", pa.string(), True),
    ]
    rows = table.to_pylist()
    first = [r for r in rows if r["fen"] == START]
    # Every game of the file plays a first move: the root's moves add up to them.
    assert sum(r["games"] for r in first) == 30
    assert all(r["white_wins"] + r["draws"] + r["black_wins"] <= r["games"] for r in rows)
    assert all(isinstance(r["first_date"], datetime.date) for r in first)
    assert all(r["first_date"] <= r["last_date"] for r in rows if r["first_date"] is not None)
    assert any(r["mover_elo"] is not None and r["performance"] is not None for r in first)


OPTIONS = [
    ({"player": "McDonnell, Alexander", "color": "white"}, ["--player", "McDonnell, Alexander", "--color", "white"]),
    ({"player": "mcdonnell, alexander", "color": "black"}, ["--player", "mcdonnell, alexander", "--color", "black"]),
    ({"player": "De la Bourdonnais, Louis Mahe"}, ["--player", "De la Bourdonnais, Louis Mahe"]),
    ({"from_fen": SET_UP, "player": "mcdonnell, alexander"}, ["--from", SET_UP, "--player", "mcdonnell, alexander"]),
    ({"where": 'result == "1-0" and plies > 40'}, ["--where", 'result == "1-0" and plies > 40']),
    ({"from_moves": "1. e4 e5"}, ["--from-moves", "1. e4 e5"]),
    ({"from_fen": "startpos", "from_moves": "1. d4"}, ["--from", "startpos", "--from-moves", "1. d4"]),
    ({"min_games": 2, "depth": 6}, ["--min-games", "2", "--depth", "6"]),
    ({"depth": 1}, ["--depth", "1"]),
]


@pytest.mark.parametrize("kwargs,args", OPTIONS, ids=[" ".join(a) for _, a in OPTIONS])
def test_options_choose_as_the_commands(tmp_path, kwargs, args):
    path = MATCHES if "player" in kwargs else LICHESS
    mine = pgnkit.tree(path, jobs=2, **kwargs)
    assert mine.num_rows > 0
    assert_same(mine, command_tree(tmp_path, path, *args))


def test_a_players_games_with_a_colour():
    def root_games(**kwargs):
        table = pgnkit.tree(MATCHES, depth=1, **kwargs)
        return sum(table["games"].to_pylist())

    # 10 games, 8 of them from the initial position: McDonnell had white in 4 of those and black in 3 (his
    # fourth game as black starts from a set-up position, and never reaches the root).
    assert root_games() == 8
    assert root_games(player="McDonnell, Alexander", color="white") == 4
    assert root_games(player="MCDONNELL, ALEXANDER", color="black") == 3
    assert root_games(player=" McDonnell, Alexander ") == 7
    assert root_games(player="McDonnell, Alexander", color="black", from_fen=SET_UP) == 1
    assert root_games(player="McDonnell, Alexander", color="white", from_fen=SET_UP) == 0
    assert pgnkit.tree(MATCHES, player="nobody at all").num_rows == 0


def test_where_counts_the_games_it_chooses():
    decisive = pgnkit.tree(LICHESS, depth=1, where='result != "1/2-1/2"')
    assert pc.sum(decisive["draws"]).as_py() == 0
    everything = pgnkit.tree(LICHESS, depth=1)
    assert 0 < pc.sum(decisive["games"]).as_py() < pc.sum(everything["games"]).as_py() == 50


def test_from_moves_starts_the_tree_after_them():
    table = pgnkit.tree(LICHESS, from_moves="1. e4", depth=1)
    assert table.num_rows > 0
    # Every row is a move of the position after 1. e4, by black.
    assert set(table["fen"].to_pylist()) == {"rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -"}
    whole = pgnkit.tree(LICHESS, depth=2)
    after_e4 = whole.filter(pc.equal(whole["fen"], table["fen"][0]))
    assert sorted(after_e4.to_pylist(), key=str) == sorted(table.to_pylist(), key=str)


def test_min_games_leaves_out_the_rows_of_fewer_games():
    whole = pgnkit.tree(LICHESS, depth=8)
    some = pgnkit.tree(LICHESS, depth=8, min_games=3)
    assert 0 < some.num_rows < whole.num_rows
    assert some.equals(whole.filter(pc.greater_equal(whole["games"], 3)))
    assert pgnkit.tree(LICHESS, depth=8, min_games=0).equals(whole)


USAGE = [
    ({"from_fen": "not a position"}, 'from_fen "not a position": invalid FEN'),
    ({"depth": 0}, "depth: at least 1 half-move"),
    ({"depth": -1}, "depth: at least 1 half-move"),
    ({"from_moves": "1. e4 e4"}, 'from_moves: half-move 2, "e4": '),
    ({"where": "plies = 3"}, "where: column 7: "),
    ({"color": "white"}, "color: needs player"),
    ({"player": "someone", "color": "red"}, 'color: "red": use white or black'),
    ({"player": "  "}, "player: a name that is not empty"),
    ({"min_games": -1}, "min_games: -1 is negative"),
    ({"memory": -1}, "memory: -1 bytes is negative"),
    ({"lang": "xx"}, "unknown language 'xx'"),
]


@pytest.mark.parametrize("kwargs,message", USAGE, ids=[m for _, m in USAGE])
def test_a_bad_option_is_a_usage_error(kwargs, message):
    with pytest.raises(pgnkit.UsageError) as raised:
        pgnkit.tree(LICHESS, **kwargs)
    assert isinstance(raised.value, ValueError)
    assert str(raised.value).startswith(message), str(raised.value)


def game_texts(*paths):
    """The games of the files, one text each."""
    return [b"[Event " + g for path in paths for g in path.read_bytes().split(b"[Event ")[1:]]


def test_a_tiny_memory_spills_runs_and_merges_them_to_the_same_table(tmp_path):
    # One text per game: a batch each, and past the first, each batch that grows the counts spills a run.
    games = game_texts(LICHESS, TWIC, MATCHES)
    assert len(games) == 90
    whole = pgnkit.tree(games)
    spilled = pgnkit.tree(games, memory=1, temp_dir=tmp_path, jobs=2)
    assert spilled.num_rows == whole.num_rows > 0
    assert spilled.equals(whole)
    assert pgnkit.tree([LICHESS, TWIC, MATCHES], memory=1).equals(whole)
    # The runs were unnamed temporary files: nothing is left.
    assert list(tmp_path.iterdir()) == []
    # They were written: where they cannot be, the run stops (a tree that fits in memory writes none).
    missing = tmp_path / "missing"
    assert pgnkit.tree(games, temp_dir=missing).equals(whole)
    with pytest.raises(pgnkit.PgnkitError, match="cannot write the tree's counts to a temporary file in"):
        pgnkit.tree(games, memory=1, temp_dir=missing)


def test_texts_in_memory_are_read_as_the_files():
    whole = pgnkit.tree(LICHESS)
    text = LICHESS.read_bytes()
    assert pgnkit.tree(text).equals(whole)
    assert pgnkit.tree(bytearray(text)).equals(whole)
    assert pgnkit.tree(gzip.compress(text)).equals(whole)
    # A list of game texts is one tree of all of them, as the files of a directory.
    games = game_texts(LICHESS)
    assert len(games) == 50
    assert pgnkit.tree(games).equals(whole)
    assert pgnkit.tree([g.decode() for g in games]).equals(whole)
    assert pgnkit.tree(pa.array(games)).equals(whole)


def test_several_files_make_one_tree(tmp_path):
    assert_same(pgnkit.tree([LICHESS, TWIC], jobs=2), command_tree(tmp_path, [LICHESS, TWIC]))


def test_an_empty_tree_is_an_empty_table_with_the_columns(tmp_path):
    expected = pgnkit.tree(LICHESS).schema
    for empty in [pgnkit.tree(b""), pgnkit.tree(b"no games here"), pgnkit.tree(LICHESS, where="plies > 100000")]:
        assert empty.num_rows == 0 and empty.schema == expected
    assert_same(pgnkit.tree(LICHESS, where="plies > 100000"),
                command_tree(tmp_path, LICHESS, "--where", "plies > 100000"))


def test_a_missing_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as raised:
        pgnkit.tree([LICHESS, tmp_path / "missing.pgn"])
    assert isinstance(raised.value, pgnkit.InputError)
    assert raised.value.filename == str(tmp_path / "missing.pgn")


def test_the_docstring_runs():
    import doctest

    (test,) = doctest.DocTestFinder().find(pgnkit.tree, "tree", globs={})
    result = doctest.DocTestRunner().run(test)
    assert result.failed == 0 and result.attempted > 0
