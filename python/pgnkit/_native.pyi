# The extension module (python/src/lib.rs), wrapped by pgnkit/__init__.py. Checked against the built module by
# `python -m mypy.stubtest pgnkit._native` (python/tests/run.sh). Records come back as JSON texts, one per game.
# Errors are the classes of pgnkit.exceptions.

import os
from typing import List, Optional, Sequence, Tuple, Union, final

import pyarrow as pa

from . import Color, Language, Messages, Notation, OutputFormat, SourceLanguage

_Path = Union[str, os.PathLike[str]]

__all__ = [
    "__version__",
    "stats_schema",
    "stats_texts",
    "stats_paths",
    "stats_records",
    "stats_column",
    "StatsWriter",
    "validate_texts",
    "validate_paths",
    "read_games_texts",
    "read_games_paths",
    "repair_texts",
    "repair_paths",
    "convert",
    "select",
    "tree_schema",
    "tree",
]

__version__: str

def stats_schema(*, tags: Optional[Sequence[str]] = None, per_move: bool = False) -> pa.Schema: ...
def stats_texts(
    texts: Sequence[bytes],
    names: Sequence[str],
    *,
    tags: Optional[Sequence[str]] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> List[pa.RecordBatch]: ...
def stats_paths(
    paths: Sequence[_Path],
    *,
    tags: Optional[Sequence[str]] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> List[pa.RecordBatch]: ...
def stats_records(
    records: Sequence[pa.Array],
    name: str,
    *,
    tags: Optional[Sequence[str]] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> List[pa.RecordBatch]: ...
def stats_column(
    texts: Sequence[pa.Array],
    *,
    tags: Optional[Sequence[str]] = None,
    per_move: bool = False,
    jobs: Optional[int] = None,
) -> List[pa.RecordBatch]: ...

@final
class StatsWriter:
    """stats' rows written as one Parquet file by the command's writer; its bytes given back as made."""

    def __new__(
        cls,
        *,
        tags: Optional[Sequence[str]] = None,
        per_move: bool = False,
        compression: str = "zstd",
        jobs: Optional[int] = None,
    ) -> "StatsWriter": ...
    def write_texts(self, texts: Sequence[pa.Array], names: Sequence[str]) -> None: ...
    def write_paths(self, paths: Sequence[_Path]) -> None: ...
    def write_records(self, records: Sequence[pa.Array], name: str) -> None: ...
    def take(self) -> bytes: ...
    def finish(self) -> bytes: ...
    @property
    def games(self) -> int: ...
    @property
    def plies(self) -> int: ...
    @property
    def games_with_errors(self) -> int: ...
    def months(self) -> List[Tuple[Optional[str], int, int]]: ...

def validate_texts(
    texts: Sequence[bytes],
    names: Sequence[str],
    *,
    lang: SourceLanguage = "auto",
    strict: bool = False,
    jobs: Optional[int] = None,
) -> List[str]: ...
def validate_paths(
    paths: Sequence[_Path], *, lang: SourceLanguage = "auto", strict: bool = False, jobs: Optional[int] = None
) -> List[str]: ...
def read_games_texts(
    texts: Sequence[bytes], names: Sequence[str], *, lang: SourceLanguage = "auto", jobs: Optional[int] = None
) -> List[str]: ...
def read_games_paths(
    paths: Sequence[_Path], *, lang: SourceLanguage = "auto", jobs: Optional[int] = None
) -> List[str]: ...
# The repaired games as text, the report's records as JSON texts, the counts: games, repaired, unrepaired.
_Repaired = Tuple[str, List[str], int, int, int]

def repair_texts(
    texts: Sequence[bytes],
    names: Sequence[str],
    *,
    lang: SourceLanguage = "auto",
    max_edits: int = 2,
    broadcast: bool = False,
    messages: Messages = "en",
    jobs: Optional[int] = None,
) -> _Repaired: ...
def repair_paths(
    paths: Sequence[_Path],
    *,
    lang: SourceLanguage = "auto",
    max_edits: int = 2,
    broadcast: bool = False,
    messages: Messages = "en",
    jobs: Optional[int] = None,
) -> _Repaired: ...
def convert(
    paths: Optional[Sequence[_Path]] = None,
    texts: Optional[Sequence[bytes]] = None,
    *,
    to: Language = "en",
    source_lang: SourceLanguage = "auto",
    notation: Notation = "san",
    output_format: OutputFormat = "pgn",
    skip_invalid: bool = False,
) -> str: ...
def select(
    paths: Optional[Sequence[_Path]] = None,
    texts: Optional[Sequence[bytes]] = None,
    *,
    where_: Optional[str] = None,
    reaches: Sequence[str] = ...,
    material: Sequence[str] = ...,
    dedupe: bool = False,
    lang: SourceLanguage = "auto",
) -> List[str]: ...
def tree_schema() -> pa.Schema: ...
def tree(
    paths: Optional[Sequence[_Path]] = None,
    texts: Optional[Sequence[bytes]] = None,
    *,
    depth: int = 20,
    from_fen: Optional[str] = None,
    from_moves: Optional[str] = None,
    min_games: int = 1,
    player: Optional[str] = None,
    color: Optional[Color] = None,
    where_: Optional[str] = None,
    lang: SourceLanguage = "auto",
    memory: Optional[int] = None,
    temp_dir: Optional[_Path] = None,
    jobs: Optional[int] = None,
) -> List[pa.RecordBatch]: ...
