"""The Python package against the command: the same rows, types and records on the same input.

Run by ``python/tests/run.sh`` (which builds the package in a fresh venv with ``pip install ./python``), with
``PGNKIT_BIN`` naming the command built from the same sources.
"""

import datetime
import json
import os
import pathlib
import subprocess
import sys

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
    ROOT / "fixtures" / "stats" / "dates.pgn",
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


def test_dates_are_typed_as_the_command_types_them():
    schema = pgnkit.stats_schema(tags=["UTCDate"])
    names = schema.names
    assert names[names.index("time_control_category") + 1 :] == [
        "year",
        "month",
        "day",
        "utc_date",
        "utc_timestamp",
        "UTCDate",
    ]
    assert schema.field("date").type == pa.date32()
    assert schema.field("utc_date").type == pa.date32()
    assert [schema.field(n).type for n in ("year", "month", "day")] == [pa.int32()] * 3
    assert schema.field("utc_timestamp").type == pa.timestamp("us", tz="UTC")
    assert all(schema.field(n).nullable for n in ("date", "year", "utc_timestamp"))

    rows = pgnkit.stats(ROOT / "fixtures" / "stats" / "dates.pgn").to_pylist()
    first, partial, impossible = rows[0], rows[1], rows[4]
    assert first["date"] == datetime.date(2025, 5, 17)
    assert first["utc_timestamp"] == datetime.datetime(2025, 5, 1, 0, 0, 7, tzinfo=datetime.timezone.utc)
    assert (partial["date"], partial["year"], partial["month"], partial["day"]) == (None, 2025, 5, None)
    assert (impossible["date"], impossible["day"]) == (None, 30)


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
        # The texts share record batches: one per text would cost more than its game.
        assert len(table.to_batches()) < 5


def test_per_move_stats_of_a_list_of_game_texts():
    games = games_of(LICHESS)
    whole = pgnkit.stats(LICHESS, per_move=True)
    game_of_text = {str(i): i + 1 for i in range(len(games))}
    for jobs in (1, 2):
        table = pgnkit.stats(games + [""], per_move=True, jobs=jobs)
        assert table.num_rows == whole.num_rows > 50 * 20
        # Each row names its text, game 1 of it; the file's game number is the text's index plus one.
        assert set(table.column("game").to_pylist()) == {1}
        assert [game_of_text[f] for f in table.column("file").to_pylist()] == whole.column("game").to_pylist()
        same = [c for c in whole.column_names if c not in ("file", "game")]
        assert table.select(same).equals(whole.select(same))
        assert len(table.to_batches()) < 5


def test_validate_equals_the_command():
    for path in INPUTS:
        run = cli("validate", "-q", "--format", "json", path)
        assert run.returncode in (0, 1), run.stderr
        theirs = [json.loads(line) for line in run.stdout.decode().splitlines()]
        assert pgnkit.validate(path) == theirs
        assert pgnkit.validate(str(path), jobs=1) == theirs


GAME = """[Event "Club"]
[Site "Here"]
[Date "2024.01.01"]
[Round "1"]
[White "Ann"]
[Black "Bob"]
[Result "1-0"]

1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0

"""


def test_texts_are_each_checked_alone_as_the_command_checks_a_file(tmp_path):
    # A game twice in one text is a duplicate; in two texts it is not. The text of 1,000 copies is larger
    # than the run takes whole: it is read in batches, checked in order like a file.
    texts = [GAME * 2, GAME, GAME * 1000, GAME, "", GAME + "1. e4 e5 2. Ke3 *\n"]
    expected = []
    for i, text in enumerate(texts):
        path = tmp_path / f"{i}.pgn"
        path.write_text(text)
        run = cli("validate", "-q", "--format", "json", path)
        assert run.returncode in (0, 1), run.stderr
        for line in run.stdout.decode().splitlines():
            record = json.loads(line)
            assert record["file"] == str(path)
            record["file"] = str(i)
            expected.append(record)
    kinds = [[p["kind"] for p in r["problems"]] for r in expected]
    assert kinds[:4] == [[], ["duplicate_game"], [], []]
    assert kinds[4:1003] == [["duplicate_game"]] * 999 and kinds[1003:1005] == [[], []]
    for jobs in (1, 2):
        assert pgnkit.validate(texts, jobs=jobs) == expected
        games = list(pgnkit.read_games(texts, jobs=jobs))
        assert [(g["file"], g["game"], g["valid"], g["problems"]) for g in games] == [
            (r["file"], r["game"], r["valid"], r["problems"]) for r in expected
        ]


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


# Issue 41: arithmetic in ``where``, as ``--where`` has it; a missing rating makes a comparison unknown, even under
# ``not``.
RATINGS = [
    b'[White "g1"]\n[WhiteElo "2700"]\n[BlackElo "2450"]\n[Result "0-1"]\n\n1. e4 e5 0-1\n\n',
    b'[White "g2"]\n[WhiteElo "2450"]\n[BlackElo "2700"]\n[Result "1-0"]\n\n1. d4 d5 1-0\n\n',
    b'[White "g3"]\n[WhiteElo "2600"]\n[Result "0-1"]\n\n1. c4 c5 0-1\n\n',
]


def test_select_where_calculates_as_the_command():
    for where in [
        'WhiteElo - BlackElo >= 100 and result == "0-1"',
        "(WhiteElo + BlackElo) / 2 >= 1700 and abs(white_elo - black_elo) > 100",
        "not (white_elo - black_elo >= 0)",
    ]:
        run = cli("select", "--where", where, LICHESS)
        assert run.returncode in (0, 1), run.stderr
        chosen = pgnkit.select(LICHESS, where)
        assert "".join(chosen) == run.stdout.decode(), where
    assert 0 < len(pgnkit.select(LICHESS, "white_elo - black_elo > 50")) < 50

    def whites(where):
        return [g.split('"')[1] for g in pgnkit.select(RATINGS, where)]

    assert whites('WhiteElo - BlackElo >= 200 and result == "0-1"') == ["g1"]
    assert whites("not (WhiteElo - BlackElo >= 200)") == ["g2"]
    assert whites("WhiteElo / (BlackElo - 2450) > 0") == ["g2"]
    for where, column in [("abs WhiteElo > 1", 1), ('"a" + 1 > 0', 1), ("WhiteElo -", 11)]:
        with pytest.raises(ValueError, match=f"column {column}: "):
            pgnkit.select(RATINGS, where)


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


# The keys of every record of read_games, whether the game replayed or not.
GAME_KEYS = {
    "file",
    "game",
    "converted",
    "tags",
    "lang",
    "lang_confidence",
    "result",
    "termination",
    "plies",
    "san",
    "uci",
    "valid",
    "problems",
}


def jsonl_records(run):
    # JSON lines end at "\n" only: a tag may hold other line breaks (U+2028, U+0085) unescaped.
    return [json.loads(line) for line in run.stdout.decode().split("\n") if line]


@pytest.mark.parametrize("path", INPUTS, ids=lambda p: p.name)
def test_read_games_agrees_with_convert_and_validate(path):
    games = list(pgnkit.read_games(path))
    run = cli("convert", "-q", "--output-format", "jsonl", path)
    assert run.returncode in (0, 1), run.stderr
    records = jsonl_records(run)
    reports = pgnkit.validate(path)
    assert len(games) == len(records) == len(reports) > 0
    for game, record, report in zip(games, records, reports):
        assert set(game) == GAME_KEYS
        assert (game["file"], game["game"], game["converted"]) == (record["file"], record["game"], record["converted"])
        assert list(game["tags"].items()) == list(record["tags"].items())
        if record["converted"]:
            for key in ("lang", "lang_confidence", "result", "termination", "plies"):
                assert game[key] == record[key], key
            assert game["san"] == record["san"].split() and game["uci"] == record["uci"].split()
        for key in ("valid", "problems", "plies", "lang", "lang_confidence", "termination"):
            assert game[key] == report[key], key
        assert len(game["san"]) == len(game["uci"]) == game["plies"]


def test_read_games_reads_tags_that_hold_line_breaks(tmp_path):
    # Line breaks to str.splitlines, not to JSON: U+2028 (line separator), U+0085 (next line), U+001C-1E.
    text = '[Event "a\u2028b"]\n[White "c\u0085d"]\n[Black "e\u001cf"]\n\n1. e4 e5 *\n\n[Event "second"]\n\n1. d4 *\n'
    path = tmp_path / "breaks.pgn"
    path.write_text(text, encoding="utf-8")
    for source in ([text], path):
        games = list(pgnkit.read_games(source))
        assert [g["tags"]["Event"] for g in games] == ["a\u2028b", "second"]
        assert (games[0]["tags"]["White"], games[0]["tags"]["Black"]) == ("c\u0085d", "e\u001cf")
        assert [g["san"] for g in games] == [["e4", "e5"], ["d4"]]


def test_read_games_keeps_what_replayed_of_an_invalid_game():
    (whole,) = pgnkit.read_games([games_of(LICHESS)[0]])
    assert whole["converted"] and whole["plies"] > 31
    # The first 30 half-moves, then a white pawn to the first rank: no pawn can go there.
    numbered = [f"{i // 2 + 1}. {san}" if i % 2 == 0 else san for i, san in enumerate(whole["san"][:30])]
    text = '[Event "cut"]\n[Result "*"]\n\n' + " ".join(numbered) + " 16. e1 e5 17. d4 *\n"
    (bad,) = pgnkit.read_games([text])
    assert set(bad) == set(whole) == GAME_KEYS
    assert (bad["valid"], bad["converted"]) == (False, False)
    assert bad["san"] == whole["san"][:30] and bad["uci"] == whole["uci"][:30]
    assert bad["plies"] == 30 == pgnkit.stats([text]).column("plies")[0].as_py()
    assert (bad["result"], bad["termination"], bad["lang"]) == ("*", "none", "en")
    (error,) = [p for p in bad["problems"] if p["severity"] == "error"]
    assert (error["ply"], error["move_number"], error["move"]) == (31, "16.", "e1")


INVALID_GAMES = [ROOT / "fixtures" / "convert" / "invalid.pgn", ROOT / "fixtures" / "validate" / "errors.pgn"]
if SHARED.is_dir():
    INVALID_GAMES += sorted((SHARED / "injected").glob("*.pgn"))


@pytest.mark.parametrize("path", INVALID_GAMES, ids=lambda p: p.name)
def test_the_moves_of_an_invalid_game_replay_to_validates_last_position(path):
    """Issue 38: read_games gave an invalid game no moves. Each game convert leaves unconverted holds the main
    line up to the move that cannot be played: replayed alone, those moves reach the position validate ends
    the game in (its final_fen), in as many half-moves."""
    games, reports = list(pgnkit.read_games(path)), pgnkit.validate(path)
    assert len(games) == len(reports)
    checked = 0
    for game, report in zip(games, reports):
        if game["converted"] or "FEN" in game["tags"] or "variant" in report:
            continue
        (replayed,) = pgnkit.validate([" ".join(game["san"]) + " *"])
        assert (replayed["valid"], replayed["plies"]) == (True, game["plies"]), game["game"]
        assert replayed["final_fen"] == report["final_fen"], game["game"]
        checked += game["plies"] > 0
    assert checked > 0


def test_a_single_string_where_a_list_is_taken(tmp_path):
    # As the command's options take one value: --tags a comma-separated list, --reaches one position.
    assert pgnkit.stats(LICHESS, tags="UTCDate").equals(pgnkit.stats(LICHESS, tags=["UTCDate"]))
    assert pgnkit.stats(LICHESS, tags="UTCDate,WhiteTitle").equals(
        cli_parquet(tmp_path, LICHESS, "--tags", "UTCDate,WhiteTitle")
    )
    assert pgnkit.stats_schema(tags="Link") == pgnkit.stats_schema(tags=("Link",))
    # A position the second game reaches after ten half-moves (EPD: its four fields).
    epd = pgnkit.convert(LICHESS, output_format="epd").splitlines()
    (position,) = [line.split(" id ")[0] for line in epd if line.endswith('id "game 2 ply 10";')]
    for reaches in ([position], position):
        chosen = pgnkit.select(LICHESS, reaches=reaches)
        run = cli("select", "--reaches", position, LICHESS)
        assert run.returncode == 0, run.stderr
        assert len(chosen) >= 1 and "".join(chosen) == run.stdout.decode()
    run = cli("select", "--material", "KRvKB", LICHESS)
    assert pgnkit.select(LICHESS, material="KRvKB") == pgnkit.select(LICHESS, material=["KRvKB"])
    assert "".join(pgnkit.select(LICHESS, material="KRvKB")) == run.stdout.decode() != ""
    # `startpos`, as `--reaches startpos` and `pgnkit fen startpos` read it: every game from the start reaches it.
    run = cli("select", "--reaches", "startpos", LICHESS)
    assert run.returncode == 0, run.stderr
    assert "".join(pgnkit.select(LICHESS, reaches="startpos")) == run.stdout.decode() != ""
    with pytest.raises(TypeError, match="reaches"):
        pgnkit.select(LICHESS, reaches=[position, 3])
    with pytest.raises(TypeError, match="tags"):
        pgnkit.stats(LICHESS, tags=b"UTCDate")


HUGE_WHERE = r'''
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
import pgnkit
expr = " or ".join(f'White ~ "\\w{{1,20}}[a-z]{{3}}{i}"' for i in range(1300))
try:
    pgnkit.select([b'[White "x"]\n\n1. e4 *\n'], expr)
except ValueError as e:
    print(e)
    sys.exit(0)
sys.exit(3)
'''


def test_a_huge_where_expression_is_refused():
    """Issue 37 item 11: 1,300 regexes (37 KB) compiled for a minute, then aborted on memory. Refused with a
    ValueError, in a child under 1 GiB of address space so that a regression fails the test, not the machine."""
    run = subprocess.run([sys.executable, "-c", HUGE_WHERE], capture_output=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr.decode(errors="replace")[-2000:]
    assert run.stdout.decode().startswith("where: ")


# Issue 40: repair, as `pgnkit repair -o OUT --report REPORT` writes its games and report.
SLIPPED = b"1. e4 e5 2. Nf3 Nc6 3. Bb4 a6 4. Ba4 Nf6 5. O-O Be7 *\n"
# Seven games of ../shared/corpus/slips/slips.en.pgn (games 119, 33, 288, 251, 40, 180, 239): repaired with
# certainty (substitutions, a move written twice, a move left out), clean, and two left as they were (two
# transpositions, six substitutions fit equally).
SLIPS = ROOT / "fixtures" / "repair" / "python-slips.pgn"
REPAIR_INPUTS = [SLIPS]
if SHARED.is_dir():
    REPAIR_INPUTS += [SHARED / "slips" / "slips.en.pgn", SHARED / "slips" / "slips.fr.pgn"]


def cli_repair(tmp_path, path, *args):
    """The command's output and report records for `path`."""
    out, report = tmp_path / "out.pgn", tmp_path / "report.jsonl"
    run = cli("repair", "-q", *args, path, "-o", out, "--report", report)
    assert run.returncode in (0, 1), run.stderr
    return out.read_bytes(), [json.loads(line) for line in report.read_bytes().decode().split("\n") if line]


def test_repair_puts_a_slip_right():
    fixed = pgnkit.repair(SLIPPED)
    assert fixed.pgn == "1. e4 e5 2. Nf3 Nc6 3. Bb5 {was: Bb4} a6 4. Ba4 Nf6 5. O-O Be7 *\n"
    assert (fixed.games, fixed.repaired, fixed.unrepaired) == (1, 1, 0)
    (record,) = fixed.report
    assert (record["file"], record["game"], record["line"], record["column"], record["ply"]) == ("0", 1, 1, 24, 5)
    assert (record["kind"], record["written"], record["correction"], record["certain"]) == (
        "substitution",
        "Bb4",
        "Bb5",
        True,
    )
    assert record["message"].startswith("probably 3. Bb5 for Bb4")
    assert record["repair"]["certain"] is True and record["repair"]["failed"]["written"] == "Bb4"
    assert set(record) == set(pgnkit.RepairRecord.__annotations__)
    french = pgnkit.repair([SLIPPED.decode()], messages="fr")
    assert "3. Bb5 {écrit : Bb4}" in french.pgn and french.report[0]["message"].startswith("sans doute")
    # The moves in French letters, read as such.
    (record,) = pgnkit.repair(["1. e4 e5 2. Cf3 Cc6 3. Fb4 a6 4. Fa4 Cf6 5. O-O Fe7 *"], lang="fr").report
    assert (record["correction"], record["certain"]) == ("Fb5", True)


def test_repair_leaves_a_clean_game_byte_for_byte():
    # CRLF, a comment, no spaces after the move numbers: nothing is rewritten.
    clean = '[Event "x"]\r\n[Result "*"]\r\n\r\n1.e4   e5 {a comment}\r\n2.Nf3 *\r\n\r\n'
    for source in ([clean], clean.encode(), [clean.encode(), GAME]):
        fixed = pgnkit.repair(source)
        assert fixed.report == [] and fixed.unrepaired == fixed.repaired == 0
    assert pgnkit.repair(clean.encode()).pgn == clean
    assert pgnkit.repair([clean, GAME, ""]).pgn == clean + GAME
    assert pgnkit.repair([]).games == 0


@pytest.mark.parametrize("messages", ["en", "fr"])
@pytest.mark.parametrize("path", REPAIR_INPUTS, ids=lambda p: p.name)
def test_repair_equals_the_command(tmp_path, path, messages):
    out, report = cli_repair(tmp_path, path, "--messages", messages)
    assert out != path.read_bytes() and len(report) > 0
    for source, jobs in [(path, None), (str(path), 1), ([path], 2)]:
        fixed = pgnkit.repair(source, messages=messages, jobs=jobs)
        assert fixed.pgn.encode() == out
        assert fixed.report == report
        assert fixed.repaired == sum(r["certain"] for r in report)
        assert fixed.unrepaired == len(report) - fixed.repaired
        assert fixed.games == len(games_of(path))
    if path == SLIPS:
        assert (fixed.games, fixed.repaired, fixed.unrepaired) == (7, 4, 2)
        assert [(r["game"], r["kind"], r["certain"]) for r in report] == [
            (1, "substitution", True),
            (2, "deletion", True),
            (4, "transposition", False),
            (5, "insertion", True),
            (6, "substitution", True),
            (7, "substitution", False),
        ]
    # The file's text in memory: the same games and records, the file named "0".
    fixed = pgnkit.repair(path.read_bytes(), messages=messages, jobs=2)
    assert fixed.pgn.encode() == out
    assert fixed.report == [dict(r, file="0") for r in report]


def test_repair_of_game_texts_agrees_with_the_command(tmp_path):
    """A list of texts, a game each: the games come back as the command writes them, each record names its
    text, and counts its lines from the text's start. A text larger than a batch is read in batches."""
    path = REPAIR_INPUTS[-1]
    out, report = cli_repair(tmp_path, path)
    games = games_of(path)
    for jobs in (1, 2):
        fixed = pgnkit.repair(games, jobs=jobs)
        assert fixed.pgn.encode() == out
        faulty = [i for i, game in enumerate(games) if pgnkit.repair([game]).report]
        assert [r["file"] for r in fixed.report] == [str(i) for i in faulty]
        assert [r["game"] for r in report] == [i + 1 for i in faulty]
        same = ("kind", "written", "correction", "certain", "message", "ply")
        assert [{k: r.get(k) for k in same} for r in fixed.report] == [{k: r.get(k) for k in same} for r in report]
    big = tmp_path / "big.pgn"
    big.write_bytes(SLIPS.read_bytes() * 40)
    out, report = cli_repair(tmp_path, big)
    assert len(out) > 128 << 10  # more than a batch
    for source, name in [(big, str(big)), (big.read_bytes(), "0")]:
        fixed = pgnkit.repair(source, jobs=2)
        assert fixed.pgn.encode() == out
        assert fixed.report == [dict(r, file=name) for r in report]
    # Between two small texts.
    fixed = pgnkit.repair([SLIPPED, big.read_bytes(), SLIPPED], jobs=2)
    slip = SLIPPED.replace(b"Bb4", b"Bb5 {was: Bb4}")
    assert fixed.pgn.encode() == slip + out + slip
    assert fixed.report[1:-1] == [dict(r, file="1") for r in report]
    assert [r["file"] for r in (fixed.report[0], fixed.report[-1])] == ["0", "2"]
    assert (fixed.games, fixed.repaired, fixed.unrepaired) == (282, 162, 80)


def test_repair_refuses_what_the_command_refuses(tmp_path):
    for kwargs in ({"max_edits": 0}, {"max_edits": 4}, {"max_edits": -1}, {"messages": "de"}, {"lang": "xx"}):
        with pytest.raises(pgnkit.UsageError):
            pgnkit.repair([SLIPPED], **kwargs)
    with pytest.raises(FileNotFoundError):
        pgnkit.repair(tmp_path / "missing.pgn")
    assert pgnkit.repair([SLIPPED], max_edits=1).repaired == 1


def test_repairs_docstring_runs():
    import doctest

    finder = doctest.DocTestFinder()
    (test,) = finder.find(pgnkit.repair, "repair", globs={})
    result = doctest.DocTestRunner().run(test)
    assert result.failed == 0 and result.attempted > 0
