"""The Python package against the command: the same rows, types and records on the same input.

Run by ``python/tests/run.sh`` (which builds the package in a fresh venv with ``pip install ./python``), with
``PGNKIT_BIN`` naming the command built from the same sources.
"""

import json
import os
import pathlib
import subprocess

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import pgnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
SUBSET = ROOT / "fixtures" / "corpus-subset"
LICHESS = SUBSET / "games-english" / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"
SHARED = pathlib.Path(os.environ.get("PGNKIT_SHARED", ROOT.parent / "shared")) / "corpus"
INPUTS = [
    LICHESS,
    SUBSET / "games-english" / "pychess-world_matches.games-1-10.pgn",
    ROOT / "fixtures" / "stats" / "games.pgn",
    ROOT / "fixtures" / "convert" / "french.pgn",
    ROOT / "fixtures" / "convert" / "invalid.pgn",
]
if SHARED.is_dir():
    INPUTS.append(SHARED / "games-english" / "twic1389_3393games.pgn")


def cli(*args):
    return subprocess.run([BIN, *map(str, args)], capture_output=True, check=False)


def cli_parquet(tmp_path, path, *args):
    out = tmp_path / "cli.parquet"
    run = cli("stats", "-q", *args, "-o", out, path)
    assert run.returncode in (0, 1), run.stderr
    return pq.read_table(out)


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_stats_equals_the_command(tmp_path, path):
    mine = pgnkit.stats(path, tags=["UTCDate", "WhiteTitle"])
    theirs = cli_parquet(tmp_path, path, "--tags", "UTCDate,WhiteTitle")
    assert mine.schema == theirs.schema
    assert mine.num_rows == theirs.num_rows > 0
    assert mine.equals(theirs)


@pytest.mark.parametrize("path", INPUTS[:3], ids=lambda p: p.name)
def test_per_move_stats_equal_the_command(tmp_path, path):
    mine = pgnkit.stats(str(path), per_move=True, jobs=2)
    theirs = cli_parquet(tmp_path, path, "--per-move")
    assert mine.schema == theirs.schema
    assert mine.equals(theirs)


def test_schema_is_known_before_any_data(tmp_path):
    for kwargs, args in [({}, []), ({"per_move": True}, ["--per-move"]), ({"tags": ["Link"]}, ["--tags", "Link"])]:
        assert pgnkit.stats_schema(**kwargs) == cli_parquet(tmp_path, LICHESS, *args).schema


def games_of(path):
    """The games of a file as separate texts (each starts at a line opening with [Event)."""
    text = path.read_text(encoding="utf-8")
    starts = [0] + [i + 1 for i in range(len(text) - 1) if text[i] == "\n" and text.startswith("[Event ", i + 1)]
    return [text[a:b] for a, b in zip(starts, starts[1:] + [len(text)])]


def test_stats_of_a_list_of_game_texts():
    games = games_of(LICHESS)
    assert len(games) == 50
    whole = pgnkit.stats(LICHESS)
    for source in (games, [g.encode() for g in games], pa.array(games), pa.chunked_array([games[:20], games[20:]])):
        table = pgnkit.stats(source)
        assert table.num_rows == 50
        # One text per game: `file` is the text's index, `game` 1, `line` 1; the rest as from the file.
        assert table.column("file").to_pylist() == [str(i) for i in range(50)]
        assert set(table.column("game").to_pylist()) == {1}
        same = [c for c in whole.column_names if c not in ("file", "game", "line")]
        assert table.select(same).equals(whole.select(same))


def test_validate_equals_the_command():
    for path in INPUTS:
        run = cli("validate", "-q", "--format", "json", path)
        assert run.returncode in (0, 1), run.stderr
        theirs = [json.loads(line) for line in run.stdout.decode().splitlines()]
        assert pgnkit.validate(path) == theirs
        assert pgnkit.validate(str(path), jobs=1) == theirs


def test_validate_texts_locates_the_bad_move():
    (record,) = pgnkit.validate(["[Event \"x\"]\n\n1. e4 e5 2. Ke3 *\n"])
    assert record["valid"] is False
    errors = [p for p in record["problems"] if p["severity"] == "error"]
    assert (errors[0]["line"], errors[0]["column"]) == (3, 13)  # the K of Ke3
    assert pgnkit.validate([b"1. Cf3 Cf6 *"], lang="fr")[0]["lang"] == "fr"


def test_errors_are_python_exceptions(tmp_path):
    with pytest.raises(OSError):
        pgnkit.stats(tmp_path / "missing.pgn")
    truncated = tmp_path / "cut.pgn.gz"
    import gzip

    truncated.write_bytes(gzip.compress(LICHESS.read_bytes())[:5000])
    with pytest.raises(OSError):
        pgnkit.stats(truncated)
    with pytest.raises(ValueError):
        pgnkit.stats(LICHESS, tags=["not a tag"])
    with pytest.raises(ValueError):
        pgnkit.stats(LICHESS, tags=["Link"], per_move=True)
    with pytest.raises(ValueError):
        pgnkit.validate(LICHESS, lang="xx")
    with pytest.raises(TypeError):
        pgnkit.stats(42)


def test_version():
    assert pgnkit.__version__ == cli("--version").stdout.decode().split()[-1]


FRENCH = ROOT / "fixtures" / "convert" / "french.pgn"


def test_convert_equals_the_command():
    for args, kwargs in [
        ([], {}),
        (["--to", "fr"], {"to": "fr"}),
        (["--output-format", "jsonl"], {"output_format": "jsonl"}),
        (["--notation", "uci"], {"notation": "uci"}),
    ]:
        for path in (FRENCH, LICHESS, ROOT / "fixtures" / "convert" / "invalid.pgn"):
            run = cli("convert", "-q", *args, path)
            assert run.returncode in (0, 1), run.stderr
            assert pgnkit.convert(path, **kwargs) == run.stdout.decode()
    assert pgnkit.convert(["1. Cf3 Cf6 *"], source_lang="fr").strip().endswith("1. Nf3 Nf6 *")


def test_select_equals_the_command():
    for args, kwargs in [
        (["--where", 'termination == "checkmate"'], {"where": 'termination == "checkmate"'}),
        (["--where", "WhiteElo >= 1500 and plies > 60"], {"where": "WhiteElo >= 1500 and plies > 60"}),
        (["--material", "KRvKR"], {"material": ["KRvKR"]}),
        (["--dedupe"], {"dedupe": True}),
    ]:
        run = cli("select", *args, LICHESS)
        assert run.returncode in (0, 1), run.stderr
        chosen = pgnkit.select(LICHESS, **kwargs)
        assert "".join(chosen) == run.stdout.decode()
    with pytest.raises(ValueError, match="column"):
        pgnkit.select(LICHESS, "plies = 3")


def test_read_games_for_notebooks():
    games = list(pgnkit.read_games(LICHESS))
    assert len(games) == 50
    first = games[0]
    assert first["tags"]["Site"].startswith("https://lichess.org/")
    assert first["san"][:1] == ["e4"] and first["uci"][:1] == ["e2e4"]
    assert len(first["san"]) == first["plies"] and first["valid"] is True
    stats = pgnkit.stats(LICHESS)
    assert [g["plies"] for g in games] == stats.column("plies").to_pylist()
    (bad,) = pgnkit.read_games(["1. e4 e5 2. Ke3 *"])
    assert bad["valid"] is False and bad["problems"]
