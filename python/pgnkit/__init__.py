"""pgnkit: chess PGN to the letter of the FIDE Laws, from Python.

The same engine as the ``pgnkit`` command: ``stats`` gives the rows of ``pgnkit stats --format parquet`` as a
``pyarrow.Table`` (same columns, types and values), ``validate`` the records of ``pgnkit validate --format
json``, ``repair`` the games and report of ``pgnkit repair``, ``tree`` the opening tree of ``pgnkit tree --format
parquet`` as a ``pyarrow.Table``. Work runs in Rust on all cores (``jobs`` threads) with the GIL released.

A *source* is any of:

* a path (``str`` or ``os.PathLike``) to a ``.pgn``, ``.pgn.gz`` or ``.pgn.zst`` file, or a directory searched
  for them; or a list of paths (``list[os.PathLike]``);
* ``bytes``: one PGN text (one or more games);
* a list of PGN texts (``str`` or ``bytes``), each one or more games;
* a ``pyarrow`` string or binary array or chunked array of PGN texts (a column of games, as in Spark's
  ``mapInArrow``), read by Rust where it lies;
* the bytes of a gzip or zstd file (``bytes``, or items of a list or array), decompressed as the command does.

For texts, the ``file`` column (and a record's ``file``) holds the index of the text in the list, so rows can be
joined back to their game; ``game`` numbers the games within a text.

Errors are :class:`PgnkitError`\ s (see :mod:`pgnkit.exceptions`): :class:`UsageError` (a ``ValueError``) for an
option value the command would refuse, :class:`InputError` (an ``OSError`` of the system's kind, with the path)
for a source that cannot be read, :class:`EncodeError` (a ``ValueError``) for rows that cannot be encoded.
String options are typed with ``Literal`` (``Language``, ``Notation``, ``OutputFormat``, ``Messages``, ``Color``)
for type checkers.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, TypedDict, Union

import pyarrow as pa

from . import _native
from .exceptions import EncodeError, InputError, PgnkitError, UsageError

__version__: str = _native.__version__

__all__ = [
    "stats",
    "stats_records",
    "stats_schema",
    "validate",
    "convert",
    "select",
    "read_games",
    "repair",
    "tree",
    "PgnkitError",
    "UsageError",
    "InputError",
    "EncodeError",
    "Source",
    "Language",
    "SourceLanguage",
    "Notation",
    "OutputFormat",
    "Messages",
    "Color",
    "GameRecord",
    "RepairRecord",
    "Repaired",
    "__version__",
]

# The piece letters of a language, by code, as `--to` takes them (`pgnkit convert --help`).
Language = Literal[
    "en", "fr", "de", "nl", "es", "it", "pt", "cs", "pl", "hu", "fi", "ro", "da", "no", "sv", "figurine"
]
# The piece letters of the input: "auto" detects them per game, as `--from`/`--lang` do.
SourceLanguage = Union[Literal["auto"], Language]
# How convert writes moves (`--notation`).
Notation = Literal["san", "lan", "uci"]
# What convert writes (`--output-format`).
OutputFormat = Literal["pgn", "jsonl", "epd"]
# The language of the messages for people (`--messages`): repair's notes and the comments it writes.
Messages = Literal["en", "fr"]
# A side (tree's `--color`).
Color = Literal["white", "black"]

# PGN texts: bytes or str, each one or more games (None is an empty text, as a null in an Arrow column).
_Text = Union[str, bytes, bytearray, memoryview, None]
# What the functions read: a path or paths (files, or directories searched for PGN), one PGN text as bytes, a
# list of PGN texts, or a pyarrow string or binary array of them.
Source = Union[
    str,
    os.PathLike[str],
    bytes,
    bytearray,
    memoryview,
    Sequence[_Text],
    Sequence[os.PathLike[str]],
    pa.Array,
    pa.ChunkedArray,
]


class GameRecord(TypedDict):
    """A game as ``read_games`` gives it (see there)."""

    file: str
    game: int
    converted: bool
    tags: Dict[str, str]
    lang: Language
    lang_confidence: str
    result: str
    termination: str
    plies: int
    san: List[str]
    uci: List[str]
    valid: bool
    problems: List[Dict[str, Any]]


class _RepairRecordKeys(TypedDict):
    file: str
    game: int
    line: int
    column: int
    certain: bool
    message: str


class RepairRecord(_RepairRecordKeys, total=False):
    """A faulty game as ``repair`` reports it (a line of ``pgnkit repair --report``): ``file`` and ``game``
    (which game), ``line`` and ``column`` (the first edit of its repair, else where its main line first fails),
    ``certain`` (one correction fits best: the game was repaired with it), ``message`` (what was found, in
    words). When the search ran: ``ply``, ``written`` (what the first edit concerns, else the move that fails
    as written) and ``repair`` (the search's record: ``certain``, ``failed``, ``candidates`` with their
    ``edits``...); when a correction fits, certain or not: ``kind`` (``"substitution"``, ``"insertion"``,
    ``"deletion"``, ``"transposition"`` or ``"broadcast_artefact"``) and, unless it only removes moves,
    ``correction`` (what the best one writes there, in the game's piece letters).
    """

    ply: int
    kind: str
    written: str
    correction: str
    repair: Dict[str, Any]


@dataclass(frozen=True)
class Repaired:
    """What ``repair`` gives: the games and the report of ``pgnkit repair -o OUT --report REPORT``."""

    pgn: str
    """Every game in input order: repaired when one correction fits best, byte for byte otherwise."""
    report: List[RepairRecord]
    """One record per faulty game, repaired or not, in input order."""
    games: int
    """The games read."""
    repaired: int
    """The games repaired."""
    unrepaired: int
    """The faulty games left as they were."""


class _Paths(List[str]):
    """The paths a source names (files, or directories searched for PGN), as opposed to its texts."""


def _items(source: Source) -> Union[_Paths, List[bytes]]:
    """The source as the paths it names or the PGN texts it holds."""
    if isinstance(source, (str, os.PathLike)):
        return _Paths([os.fspath(source)])
    if isinstance(source, (bytes, bytearray, memoryview)):
        return [bytes(source)]
    items: List[Any]
    if isinstance(source, (pa.Array, pa.ChunkedArray)):
        items = source.to_pylist()
    elif isinstance(source, Sequence):
        items = list(source)
    else:
        raise TypeError(f"pgnkit: cannot read PGN from {type(source).__name__}")
    if items and all(isinstance(i, os.PathLike) for i in items):
        return _Paths(os.fspath(i) for i in items)
    texts: List[bytes] = []
    for i, item in enumerate(items):
        if item is None:
            texts.append(b"")
        elif isinstance(item, str):
            texts.append(item.encode("utf-8"))
        elif isinstance(item, (bytes, bytearray, memoryview)):
            texts.append(bytes(item))
        else:
            raise TypeError(f"pgnkit: item {i} is a {type(item).__name__}, not a PGN text")
    return texts


def _paths_or_texts(source: Source) -> Tuple[Optional[List[str]], Optional[List[bytes]]]:
    """The source as the native functions that take either paths or texts take it."""
    items = _items(source)
    if isinstance(items, _Paths):
        return items, None
    return None, items


def _names(texts: List[bytes]) -> List[str]:
    """The names of texts in the ``file`` column: their indexes."""
    return [str(i) for i in range(len(texts))]


# A parameter that takes several strings: one, or any iterable of them.
Strings = Union[str, Sequence[str]]


def _strings(value: Optional[Strings], name: str) -> List[str]:
    """A parameter that takes several strings: one string is one item (as the command's option, given once,
    takes one value), any other iterable is read item by item."""
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray, memoryview)):
        raise TypeError(f"pgnkit: {name} takes a str or a list of str, not {type(value).__name__}")
    try:
        items = list(value)
    except TypeError:
        raise TypeError(f"pgnkit: {name} takes a str or a list of str, not {type(value).__name__}") from None
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise TypeError(f"pgnkit: {name}[{i}] is a {type(item).__name__}, not a str")
    return items


def _tags(tags: Optional[Strings]) -> Optional[List[str]]:
    """``tags`` as a list of names: one string holds names separated by commas, as ``--tags`` reads them."""
    if tags is None:
        return None
    if isinstance(tags, str):
        return tags.split(",")
    return _strings(tags, "tags")


def _text_column(source: Source) -> Optional[List[pa.Array]]:
    """The chunks of a pyarrow column of strings or bytes, which Rust reads as they are; ``None`` for any other
    source."""
    if not isinstance(source, (pa.Array, pa.ChunkedArray)):
        return None
    kind = source.type
    if not (pa.types.is_binary(kind) or pa.types.is_large_binary(kind) or pa.types.is_string(kind)
            or pa.types.is_large_string(kind)):
        return None
    return list(source.chunks) if isinstance(source, pa.ChunkedArray) else [source]


def stats_schema(*, tags: Optional[Strings] = None, per_move: bool = False) -> pa.Schema:
    """The schema of the table ``stats`` returns with these options, known before reading any data."""
    return _native.stats_schema(tags=_tags(tags), per_move=per_move)


def stats(
    source: Source,
    *,
    tags: Optional[Strings] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> pa.Table:
    """One row per game (or per main-line half-move with ``per_move=True``), as ``pgnkit stats``.

    ``tags`` adds PGN tags as string columns named by the tag, in the order given: a list of names, or one
    string of names separated by commas as ``--tags`` takes them (``"UTCDate,WhiteTitle"``). Raises
    :class:`InputError` (an ``OSError``) for a path that cannot be read (a truncated compressed file included)
    and :class:`UsageError` (a ``ValueError``) for bad options.
    """
    names = _tags(tags)
    schema = stats_schema(tags=names, per_move=per_move)
    column = _text_column(source)
    if column is not None:
        return pa.Table.from_batches(
            _native.stats_column(column, tags=names, per_move=per_move, jobs=jobs), schema=schema
        )
    items = _items(source)
    if isinstance(items, _Paths):
        batches = _native.stats_paths(items, tags=names, per_move=per_move, jobs=jobs)
    else:
        batches = _native.stats_texts(items, _names(items), tags=names, per_move=per_move, jobs=jobs)
    return pa.Table.from_batches(batches, schema=schema)


def stats_records(
    records: Union[pa.Array, pa.ChunkedArray],
    name: str = "records",
    *,
    tags: Optional[Strings] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> pa.Table:
    """stats' rows of the games of PGN files cut into records at each line that starts with ``[Event `` (the
    separator left out), as Spark's text source cuts them with ``lineSep="\\n[Event "``: a pyarrow column of
    strings or bytes, chunked or not, read by Rust where it lies (no Python object is made of a record).

    Rust puts the files back together: a record that followed a separator starts with the Event tag's value
    (``"Rated Blitz game"]``) and gets its ``[Event `` back, joined to the record before it; any other record
    is a file's start (its first game, or what stands before it: a ``; comment``, blank lines, a byte order
    mark, none of them a game) and starts a new text, named ``name`` in the ``file`` column, then ``name:2``,
    ``name:3``... Nulls are skipped. The games are read from exactly the files' bytes, as the command reads
    them (Windows-1252 included); a line starting with ``[Event `` inside a game's comment is where Spark cut
    it, and stays a cut.
    """
    names = _tags(tags)
    chunks = _text_column(records)
    if chunks is None:
        raise TypeError(f"pgnkit: records are a pyarrow column of strings or bytes, not {type(records).__name__}")
    batches = _native.stats_records(chunks, name, tags=names, per_move=per_move, jobs=jobs)
    return pa.Table.from_batches(batches, schema=stats_schema(tags=names, per_move=per_move))


def validate(
    source: Source, *, lang: SourceLanguage = "auto", strict: bool = False, jobs: Optional[int] = None
) -> List[Dict[str, Any]]:
    """The records of ``pgnkit validate --format json``: one dict per game, with its problems located.

    ``lang`` reads the moves in a language's piece letters (``"fr"``, ``"de"``...) instead of detecting them
    per game; ``strict`` makes non-standard spellings errors.
    """
    items = _items(source)
    if isinstance(items, _Paths):
        lines = _native.validate_paths(items, lang=lang, strict=strict, jobs=jobs)
    else:
        lines = _native.validate_texts(items, _names(items), lang=lang, strict=strict, jobs=jobs)
    return [json.loads(line) for line in lines]


def convert(
    source: Source,
    *,
    to: Language = "en",
    source_lang: SourceLanguage = "auto",
    notation: Notation = "san",
    output_format: OutputFormat = "pgn",
    skip_invalid: bool = False,
) -> str:
    """The output of ``pgnkit convert`` as text: PGN export format (``output_format="pgn"``), JSON lines
    (``"jsonl"``) or EPD (``"epd"``), moves in ``to``'s piece letters (``"en"``, ``"fr"``, ...) and
    ``notation`` (``"san"``, ``"lan"``, ``"uci"``). A game that cannot be converted is copied through as the
    command does (recorded with its error in JSON lines), or left out with ``skip_invalid``.
    """
    paths, texts = _paths_or_texts(source)
    return _native.convert(
        paths,
        texts,
        to=to,
        source_lang=source_lang,
        notation=notation,
        output_format=output_format,
        skip_invalid=skip_invalid,
    )


def select(
    source: Source,
    where: Optional[str] = None,
    *,
    reaches: Strings = (),
    material: Strings = (),
    dedupe: bool = False,
    lang: SourceLanguage = "auto",
) -> List[str]:
    """The texts of the games ``pgnkit select`` chooses, in input order: those for which ``where`` (an
    expression over stats' columns and the tags, as ``--where``) holds, whose main line reaches one of the
    ``reaches`` positions (FEN or EPD) or a position with one of the ``material`` balances, without duplicates
    with ``dedupe``. ``reaches`` and ``material`` take one string (one position, one balance, as the option
    given once) or a list of them. Raises :class:`UsageError` (a ``ValueError``) for an expression that does
    not parse, with its column.
    """
    paths, texts = _paths_or_texts(source)
    return _native.select(
        paths,
        texts,
        where_=where,
        reaches=_strings(reaches, "reaches"),
        material=_strings(material, "material"),
        dedupe=dedupe,
        lang=lang,
    )


def read_games(source: Source, *, lang: SourceLanguage = "auto", jobs: Optional[int] = None) -> Iterator[GameRecord]:
    """The games of a source, one dict each, for notebooks. Every game has the same keys: ``file`` and ``game``
    (where it is), ``tags`` (a dict, in the file's order), ``san`` and ``uci`` (the main line's moves as lists,
    canonical English SAN and UCI), ``plies`` (their number), ``result`` (the result written for the game, as
    ``pgnkit convert`` writes it), ``termination`` (how the last position ends the game by rule, or ``"none"``),
    ``lang`` and ``lang_confidence`` (the piece letters the moves were read in), ``converted`` (false when
    ``pgnkit convert`` would not convert the game: a move that could not be replayed, in the main line or a
    variation, or text that is no PGN), ``valid`` and ``problems`` (validate's verdict and located problems).
    A game whose main line stops at a move that cannot be played holds the moves before it.
    """
    items = _items(source)
    if isinstance(items, _Paths):
        records = _native.read_games_paths(items, lang=lang, jobs=jobs)
    else:
        records = _native.read_games_texts(items, _names(items), lang=lang, jobs=jobs)
    for record in records:
        game: GameRecord = json.loads(record)
        yield game


def repair(
    source: Source,
    *,
    lang: SourceLanguage = "auto",
    max_edits: int = 2,
    broadcast: bool = False,
    messages: Messages = "en",
    jobs: Optional[int] = None,
) -> Repaired:
    """The games of a source put right as ``pgnkit repair`` puts them right, with its report.

    A game whose main line does not replay is repaired when one correction of at most ``max_edits`` edits (1 to
    3) fits best: a move written for another, left out, written twice, two moves in the other order, and with
    ``broadcast`` what live broadcasts leave after the game. A comment at each edit says what was written
    (``{was: Bb4}``, in ``messages``' language, ``"en"`` or ``"fr"``); every other game comes back byte for
    byte. ``lang`` reads the moves in a language's piece letters instead of detecting them per game.

    The result's ``pgn`` is the command's output, ``report`` the records of its ``--report`` (one per faulty
    game, see :class:`RepairRecord`), ``games``, ``repaired`` and ``unrepaired`` the counts of its summary.
    Texts are reported as ``file`` ``"0"``, ``"1"``... (their index). The output is text: a game left as it was
    keeps its bytes, and one that is not UTF-8 raises :class:`EncodeError`.

    >>> import pgnkit
    >>> fixed = pgnkit.repair(b"1. e4 e5 2. Nf3 Nc6 3. Bb4 a6 4. Ba4 Nf6 5. O-O Be7 *\\n")
    >>> print(fixed.pgn, end="")
    1. e4 e5 2. Nf3 Nc6 3. Bb5 {was: Bb4} a6 4. Ba4 Nf6 5. O-O Be7 *
    >>> (fixed.games, fixed.repaired, fixed.unrepaired)
    (1, 1, 0)
    >>> record = fixed.report[0]
    >>> record["kind"], record["written"], record["correction"], record["certain"]
    ('substitution', 'Bb4', 'Bb5', True)
    """
    items = _items(source)
    if isinstance(items, _Paths):
        text, lines, games, repaired, unrepaired = _native.repair_paths(
            items, lang=lang, max_edits=max_edits, broadcast=broadcast, messages=messages, jobs=jobs
        )
    else:
        text, lines, games, repaired, unrepaired = _native.repair_texts(
            items, _names(items), lang=lang, max_edits=max_edits, broadcast=broadcast, messages=messages, jobs=jobs
        )
    report: List[RepairRecord] = [json.loads(line) for line in lines]
    return Repaired(pgn=text, report=report, games=games, repaired=repaired, unrepaired=unrepaired)


def tree(
    source: Source,
    *,
    depth: int = 20,
    from_fen: Optional[str] = None,
    from_moves: Optional[str] = None,
    min_games: int = 1,
    player: Optional[str] = None,
    color: Optional[Color] = None,
    where: Optional[str] = None,
    lang: SourceLanguage = "auto",
    memory: Optional[int] = None,
    temp_dir: Optional[Union[str, os.PathLike[str]]] = None,
    jobs: Optional[int] = None,
) -> pa.Table:
    """The opening tree of the games' main lines, the table of ``pgnkit tree --format parquet``: one row per
    position reached within ``depth`` half-moves of the root and move played from it, in the command's order.

    Columns: ``fen`` (the position), ``move_uci`` and ``move_san`` (the move), ``games``, ``white_wins``,
    ``draws``, ``black_wins`` (int64), ``score`` (the mover's, 0 to 1), ``mover_elo``, ``opponent_elo`` (the
    mean ratings) and ``performance`` (int32), ``first_date`` and ``last_date`` (date32), ``eco`` and
    ``opening`` (of the position the move leads to). Positions are the same as FIDE's same position, so
    transpositions meet; a game counts once per (position, move) from its first arrival at the root.

    The root is the initial position, or ``from_fen`` (a FEN, an EPD's four fields, or ``"startpos"``), after
    ``from_moves`` (SAN, with or without numbers: ``"1. e4 c5 2. Nf3"``). Games are those of ``player`` (the
    White or Black tag, compared without case), with ``color`` (``"white"`` or ``"black"``) the games they had
    that side in, for which ``where`` holds (an expression over stats' columns and the tags, as
    ``select``'s); ``min_games`` leaves out the moves of fewer games (they still count in the positions they
    lead to). Past ``memory`` bytes of counts (default: a quarter of the machine's memory), sorted runs go to
    temporary files in ``temp_dir`` (default: the system's) and are merged at the end, so any number of games
    fits. An empty tree is an empty table with the columns.

    Raises :class:`UsageError` (a ``ValueError``) for a bad option (a position that is no FEN, a move that
    cannot be played, ``depth=0``, ``color`` without ``player``) and :class:`InputError` (an ``OSError``) for
    a source that cannot be read.

    A player's repertoire as white: the moves she played (white to move), with how many games and her score:

    >>> import pgnkit
    >>> games = [
    ...     '[White "Anna"] [Black "Ben"] [Result "1-0"] 1. e4 e5 2. Nf3 Nc6 1-0',
    ...     '[White "Anna"] [Black "Cleo"] [Result "1/2-1/2"] 1. e4 c5 2. Nf3 d6 1/2-1/2',
    ...     '[White "Ben"] [Black "Anna"] [Result "0-1"] 1. d4 d5 0-1',
    ... ]
    >>> repertoire = pgnkit.tree(games, player="anna", color="white", depth=3)
    >>> sorted((r["move_san"], r["games"], r["score"]) for r in repertoire.to_pylist() if r["fen"].split()[1] == "w")
    [('Nf3', 1, 0.5), ('Nf3', 1, 1.0), ('e4', 2, 0.75)]

    With pandas, her most played moves and how they scored:

    >>> df = repertoire.to_pandas()  # doctest: +SKIP
    >>> df[df.fen.str.contains(" w ")].sort_values("games", ascending=False)[["move_san", "games", "score"]]  # doctest: +SKIP

    Or DuckDB, which reads a ``pyarrow.Table`` by the name of its variable:

    >>> import duckdb  # doctest: +SKIP
    >>> duckdb.sql("SELECT fen, move_san, games, score, opening FROM repertoire WHERE games >= 10 ORDER BY games DESC")  # doctest: +SKIP
    """
    paths, texts = _paths_or_texts(source)
    batches = _native.tree(
        paths,
        texts,
        depth=depth,
        from_fen=from_fen,
        from_moves=from_moves,
        min_games=min_games,
        player=player,
        color=color,
        where_=where,
        lang=lang,
        memory=memory,
        temp_dir=None if temp_dir is None else os.fspath(temp_dir),
        jobs=jobs,
    )
    return pa.Table.from_batches(batches, schema=_native.tree_schema())
