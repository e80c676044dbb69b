"""The package as a typed program uses it: type-checked by ``mypy`` (strict, python/tests/run.sh) against the
installed package, and run by pytest.

A call marked ``# type: ignore[arg-type]`` passes an option value outside its ``Literal``: mypy must refuse it
(the check fails on an ignore that is not needed) and the package refuses it when it runs. The ``Literal`` types
hold exactly the values the command takes (read from its own messages).
"""

import os
import pathlib
import re
import subprocess
from typing import Any, Dict, Iterator, List, Optional, Tuple, get_args

import pyarrow as pa
import pytest

import pgnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
FRENCH = ROOT / "fixtures" / "convert" / "french.pgn"
GAME = b'[Event "x"]\n\n1. e4 e5 2. Nf3 *\n'


def test_typed_calls() -> None:
    table: pa.Table = pgnkit.stats(FRENCH, tags=["Annotator"], jobs=1)
    schema: pa.Schema = pgnkit.stats_schema(tags="UTCDate,WhiteTitle", per_move=False)
    assert table.schema.names[-1] == "Annotator" and schema.names[-2:] == ["UTCDate", "WhiteTitle"]
    records: List[Dict[str, Any]] = pgnkit.validate([GAME], lang="en", strict=True)
    games: Iterator[pgnkit.GameRecord] = pgnkit.read_games(str(FRENCH), lang="auto")
    game = next(games)
    san: List[str] = game["san"]
    plies: int = game["plies"]
    language: pgnkit.Language = game["lang"]
    assert (records[0]["valid"], san[:1], plies, language) == (True, ["e4"], len(san), "fr")
    to: pgnkit.Language = "de"
    text: str = pgnkit.convert(FRENCH, to=to, source_lang="fr", notation="lan", output_format="jsonl")
    assert text.startswith("{")
    chosen: List[str] = pgnkit.select([GAME.decode()], "plies > 2", reaches=[], material="KQRRBBNNPPPPPPPPvKQRRBBNNPPPPPPPP")
    assert len(chosen) == 1
    where: Optional[str] = None
    assert pgnkit.select(pa.array([GAME.decode()]), where) == chosen


def test_typed_repair() -> None:
    messages: pgnkit.Messages = "fr"
    slip = b"1. e4 e5 2. Nf3 Nc6 3. Bb4 a6 4. Ba4 Nf6 5. O-O Be7 *\n"
    fixed: pgnkit.Repaired = pgnkit.repair(
        [GAME, slip], lang="en", max_edits=3, broadcast=True, messages=messages, jobs=1
    )
    pgn: str = fixed.pgn
    records: List[pgnkit.RepairRecord] = fixed.report
    record = records[0]
    certain: bool = record["certain"]
    file: str = record["file"]
    kind: Optional[str] = record.get("kind")
    found: Dict[str, Any] = record.get("repair", {})
    counts: Tuple[int, int, int] = (fixed.games, fixed.repaired, fixed.unrepaired)
    assert (certain, file, kind, found["certain"], counts) == (True, "1", "substitution", True, (2, 1, 0))
    assert pgn.startswith(GAME.decode()) and "{écrit : Bb4}" in pgn
    assert pgnkit.repair(FRENCH).games == pgnkit.stats(FRENCH).num_rows


def test_typed_tree() -> None:
    color: pgnkit.Color = "white"
    temp: pathlib.Path = ROOT / "target"
    table: pa.Table = pgnkit.tree(
        FRENCH,
        depth=4,
        from_fen="startpos",
        from_moves="1. e4 e5",
        min_games=1,
        player="Morphy, Paul",
        color=color,
        where="plies > 2",
        lang="fr",
        memory=1 << 20,
        temp_dir=temp,
        jobs=1,
    )
    moves: List[str] = table["move_san"].to_pylist()
    assert sorted(moves) == ["Bg4", "Nf3", "d4", "d6"]
    empty: pa.Table = pgnkit.tree([GAME], from_fen=None, player=None, color=None, where=None, memory=None, temp_dir=None)
    assert empty.num_rows == 3 and empty.schema == table.schema


def test_values_outside_the_literals_are_refused() -> None:
    with pytest.raises(pgnkit.UsageError):
        pgnkit.convert([GAME], to="auto")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.convert([GAME], notation="fan")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.convert([GAME], output_format="csv")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.validate([GAME], lang="english")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        list(pgnkit.read_games([GAME], lang="xx"))  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.select([GAME], lang="Figurines")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.repair([GAME], messages="de")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.repair([GAME], lang="english")  # type: ignore[arg-type]
    with pytest.raises(pgnkit.UsageError):
        pgnkit.tree([GAME], player="Anna", color="w")  # type: ignore[arg-type]


def refusal(*args: str) -> str:
    """The command's message for an option value it refuses."""
    run = subprocess.run([BIN, *args, str(FRENCH)], capture_output=True, text=True, check=False)
    assert run.returncode == 2, run.stderr
    return run.stderr


def listed(message: str, pattern: str) -> Tuple[str, ...]:
    found = re.search(pattern, message)
    assert found, message
    return tuple(v.strip() for v in found.group(1).replace(" or ", ", ").split(","))


def test_the_literals_hold_the_values_the_command_takes() -> None:
    languages = listed(refusal("convert", "--to", "xx"), r"use one of ([^\n]+)")
    assert get_args(pgnkit.Language) == languages
    source = listed(refusal("validate", "--lang", "xx"), r"use auto or one of ([^\n]+)")
    assert tuple(v for arg in get_args(pgnkit.SourceLanguage) for v in get_args(arg)) == ("auto", *source)
    notations = listed(refusal("convert", "--notation", "x"), r"possible values: ([^\]]+)\]")
    assert get_args(pgnkit.Notation) == notations
    formats = listed(refusal("convert", "--output-format", "x"), r"possible values: ([^\]]+)\]")
    assert get_args(pgnkit.OutputFormat) == formats
    messages = listed(refusal("validate", "--messages", "xx"), r"unknown message language 'xx': use ([^\n]+)")
    assert get_args(pgnkit.Messages) == messages
    # And the package takes each of them.
    for language in get_args(pgnkit.Language):
        assert pgnkit.convert([GAME], to=language, notation="san")
        assert pgnkit.validate([GAME], lang=language)
    for notation in get_args(pgnkit.Notation):
        for output_format in get_args(pgnkit.OutputFormat):
            assert pgnkit.convert([GAME], notation=notation, output_format=output_format)
    for locale in get_args(pgnkit.Messages):
        assert pgnkit.repair([GAME], messages=locale).pgn == GAME.decode()


def test_a_game_record_has_the_keys_its_type_names() -> None:
    for game in pgnkit.read_games([GAME, b"1. e4 e5 2. Ke3 *", b"no moves at all"]):
        assert set(game) == set(pgnkit.GameRecord.__annotations__)
