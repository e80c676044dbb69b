"""pgnkit on Apache Spark: stats' rows of PGN files too big for one machine, written as Parquet by the executors.

``stats(spark, paths, out)`` is the whole job::

    from pyspark.sql import SparkSession
    import pgnkit.spark

    spark = SparkSession.builder.getOrCreate()
    written = pgnkit.spark.stats(spark, ["hdfs:///pgn/2025-05/"], "s3://bucket/stats/2025-05/")
    print(written.games, written.months)

Spark lists the files and schedules the tasks; each task hands its games to pgnkit, which writes the task's rows
as one Parquet file with the command's own writer (``pgnkit stats -o x.parquet``'s columns, encodings and
compression), and gives Spark back one small summary row. Rows never go through Spark's own Parquet writer,
nor through Python objects: that is what keeps a game's cost near the command's (docs/scale.md has the
figures).

* **Local files** (``file:`` paths: local mode, a disk every executor mounts) up to ``MAX_LOCAL_FILE_BYTES``:
  read by pgnkit itself as the command reads them (gzip and zstd decompressed as they stream); Spark only lists
  them. The ``file`` column holds the local path, games are numbered in the file.
* **Other files** (HDFS, object storage) up to ``MAX_FILE_BYTES``: their bytes come through Spark's
  ``binaryFile`` source, one file per Arrow batch, decompressed by pgnkit when compressed; the ``file`` column
  holds Spark's path.
* **Larger plain files** are cut by Spark's text source into records at each line that starts with
  ``[Event `` (``lineSep``), in splits of ``spark.sql.files.maxPartitionBytes``; pgnkit puts the records back
  together (``pgnkit.stats_records``). The ``file`` column names the split (``part-00003``), not the file:
  Spark's text records do not carry it. A line starting with ``[Event `` inside a game (in a multi-line
  comment) would cut it in two there. Larger compressed files cannot be split: split them first
  (``pgnkit select --split 100000 -o parts/ big.pgn.zst``).

Spark packs small files into one task (up to ``spark.sql.files.maxPartitionBytes``, 128 MiB by default): one
output file per task, never one per small input.

The output directory is emptied first, then holds ``part-NNNNN-files.parquet`` and ``part-NNNNN-records.parquet``
(NNNNN the task's partition) and ``_SUCCESS``. A file's name depends only on its task's partition, and a task
writes it under a temporary name first (skipped by every Parquet reader, as it starts with a dot) then moves it
in place: a task run again (a failure, speculation) replaces its file, so every game is written exactly once.
The files are not partitioned by month: a month is a filter on the ``year`` and ``month`` columns (row groups
keep their minimum and maximum, so readers skip what the filter excludes), and partitioning by it would write a
file per month per task, thousands of tiny files on a collection of tournaments.

This module imports pyspark only when a function runs; the executors need pgnkit (``pip install ./python``) and
Spark's Python workers must be the Python that has it (``PYSPARK_PYTHON``).
"""

from __future__ import annotations

import functools
import os
import re
import urllib.parse
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set, Tuple, Union

import pyarrow as pa
import pyarrow.fs as pafs

from . import Strings, _native, _tags, stats_schema

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession
    from pyspark.sql.types import StructType

__all__ = [
    "GAME_START",
    "PGN_FILES",
    "MAX_FILE_BYTES",
    "MAX_LOCAL_FILE_BYTES",
    "RECORDS_PER_BATCH",
    "stats",
    "Written",
    "WrittenPart",
    "spark_schema",
    "read_records",
    "stats_of_records",
]

GAME_START = "\n[Event "
"""The record separator (``lineSep``) that cuts PGN files into games in Spark's text source."""

PGN_FILES = "*.{pgn,PGN,Pgn,pgn.gz,PGN.gz,pgn.zst,PGN.zst,pgn.zstd}"
"""The files a directory is searched for (``pathGlobFilter``): as the command's search, apart from the case of
the extension."""

MAX_FILE_BYTES = 128 << 20
"""Files whose bytes go through Spark (``binaryFile``: HDFS, object storage) are read whole up to this size,
larger plain ones as records: a task holds a whole file, in the JVM's heap (several copies: two 190 MB files at
once exhaust local mode's default 1 GB) and in pgnkit's."""

MAX_LOCAL_FILE_BYTES = 1 << 30
"""Local files, which pgnkit reads as they stream, are read whole up to this size (5 to 13 s of one core),
larger plain ones as records, for several cores to share them."""

RECORDS_PER_BATCH = 20_000
"""Records (games) per Arrow batch in the records mode (``spark.sql.execution.arrow.maxRecordsPerBatch``, whose
default is 10,000): measured in docs/scale.md, where the cost per game stops falling."""

# What a task tells the driver: the inputs it read, the file it wrote, and the counts.
_MONTHS = pa.list_(
    pa.struct([("month", pa.string()), ("games", pa.int64()), ("plies", pa.int64())])
)
_PART = pa.schema(
    [
        ("inputs", pa.list_(pa.string())),
        ("output", pa.string()),
        ("games", pa.int64()),
        ("plies", pa.int64()),
        ("games_with_errors", pa.int64()),
        ("months", _MONTHS),
    ]
)


@dataclass(frozen=True)
class WrittenPart:
    """One output file: what a task read and wrote."""

    inputs: List[str]
    """The files the task read (Spark's paths), or its split's name in the records mode."""
    output: str
    """The Parquet file written."""
    games: int
    plies: int
    games_with_errors: int


@dataclass(frozen=True)
class Written:
    """What ``stats`` wrote: the output directory, its files, and the counts of the command's closing line."""

    out: str
    parts: List[WrittenPart]
    games: int
    plies: int
    games_with_errors: int
    months: Dict[Optional[str], Tuple[int, int]] = field(default_factory=dict)
    """Games and half-moves by month (``"2025-05"``; ``None`` when a game's date does not tell its month)."""


def spark_schema(*, tags: Optional[Strings] = None, per_move: bool = False) -> "StructType":
    """``pgnkit.stats_schema()`` as Spark's types (for ``mapInArrow`` with ``stats_of_records``)."""
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(stats_schema(tags=tags, per_move=per_move))


def read_records(spark: "SparkSession", paths: Union[str, Sequence[str]]) -> "DataFrame":
    """PGN files read by Spark's text source as records, one game each (cut at each ``GAME_START``, the
    separator left out), in a column ``value``: what ``stats_of_records`` takes."""
    return spark.read.option("lineSep", GAME_START).text(_list(paths))


def _task_name(kind: str) -> str:
    """The name of the running task's output: its partition, the same for every attempt of it."""
    from pyspark import TaskContext

    context = TaskContext.get()
    partition = context.partitionId() if context is not None else 0
    return f"part-{partition:05d}-{kind}"


def stats_of_records(
    batches: Iterable[pa.RecordBatch], *, tags: Optional[Strings] = None, per_move: bool = False
) -> Iterator[pa.RecordBatch]:
    """A ``mapInArrow`` function: batches of records (``read_records``' first column) in, stats' rows out,
    with ``spark_schema()``. Use ``functools.partial`` for the options. For Spark to handle the rows itself;
    ``stats`` is the cheaper way to Parquet."""
    name = _task_name("records")
    for batch in batches:
        yield from _native.stats_records([batch.column(0)], name, tags=_tags(tags), per_move=per_move, jobs=1)


@dataclass(frozen=True)
class _Options:
    """What the tasks need to know: where to write, and stats' options."""

    out: str
    tags: Optional[List[str]]
    per_move: bool
    compression: str


class _Part:
    """A task's output file, written as pgnkit makes it: under a temporary name, moved in place at the end."""

    def __init__(self, opts: _Options, kind: str) -> None:
        from pyspark import TaskContext

        self.opts = opts
        self.fs, root = pafs.FileSystem.from_uri(opts.out)
        self.name = _task_name(kind) + ".parquet"
        self.path = f"{root}/{self.name}"
        context = TaskContext.get()
        attempt = context.taskAttemptId() if context is not None else os.getpid()
        # Object stores put a file whole or not at all, and cannot rename: the final name at once.
        self.direct = self.fs.type_name in ("s3", "gcs", "abfs")
        self.written_as = self.path if self.direct else f"{root}/.{self.name}.{attempt}.tmp"
        self.writer = _native.StatsWriter(tags=opts.tags, per_move=opts.per_move, compression=opts.compression, jobs=1)
        self.stream: Optional[Any] = None
        self.inputs: List[str] = []

    def flush(self) -> None:
        """Hands what the writer made so far to the output (a large task's row groups, as they come)."""
        made = self.writer.take()
        if made:
            if self.stream is None:
                self.stream = self.fs.open_output_stream(self.written_as)
            self.stream.write(made)

    def close(self) -> Optional[pa.RecordBatch]:
        """Puts the file in place and gives the task's summary row; nothing for a task without games."""
        last = self.writer.finish()
        if self.writer.games == 0 and self.stream is None:
            return None
        if self.stream is None:
            self.stream = self.fs.open_output_stream(self.written_as)
        self.stream.write(last)
        self.stream.close()
        if not self.direct:
            self.fs.move(self.written_as, self.path)
        months = [{"month": m, "games": g, "plies": p} for m, g, p in self.writer.months()]
        row = {
            "inputs": [self.inputs],
            "output": [self.name],
            "games": [self.writer.games],
            "plies": [self.writer.plies],
            "games_with_errors": [self.writer.games_with_errors],
            "months": [months],
        }
        return pa.RecordBatch.from_pydict(row, schema=_PART)


def _local_path(path: str) -> str:
    """The local path of Spark's ``file:`` path of a file."""
    local = re.sub(r"^file:(//)?", "", path)
    return local if os.path.exists(local) else urllib.parse.unquote(local)


def _write_files(opts: _Options, batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """A task of whole files, one output file for all of them: ``binaryFile``'s ``path`` and ``content``, or
    ``path`` only for local files, which pgnkit reads itself."""
    part: Optional[_Part] = None
    for batch in batches:
        if batch.num_rows == 0:
            continue
        if part is None:
            part = _Part(opts, "files")
        paths = batch.column("path").to_pylist()
        if "content" in batch.schema.names:
            part.writer.write_texts([batch.column("content")], paths)
        else:
            part.writer.write_paths([_local_path(p) for p in paths])
        part.inputs.extend(paths)
        part.flush()
    if part is not None:
        row = part.close()
        if row is not None:
            yield row


def _write_records(opts: _Options, batches: Iterable[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """A task of text records (one split of a large file): one output file."""
    part: Optional[_Part] = None
    for batch in batches:
        if batch.num_rows == 0:
            continue
        if part is None:
            part = _Part(opts, "records")
            part.inputs.append(part.name[: -len(".parquet")])
        part.writer.write_records([batch.column(0)], part.inputs[0])
        part.flush()
    if part is not None:
        row = part.close()
        if row is not None:
            yield row


def _list(paths: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]]) -> List[str]:
    if isinstance(paths, (str, os.PathLike)):
        return [os.fspath(paths)]
    return [os.fspath(p) for p in paths]


def _uri(path: str) -> str:
    """An output path as a URI every executor resolves alike: a path without a scheme is a local one, made
    absolute here (the driver's working directory)."""
    if re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", path):
        return path
    return "file://" + os.path.abspath(path)


@functools.lru_cache(maxsize=None)
def _part_schema() -> "StructType":
    from pyspark.sql.pandas.types import from_arrow_schema

    return from_arrow_schema(_PART)


def _with_conf(spark: "SparkSession", settings: Dict[str, str], action: Any) -> Any:
    """Runs ``action`` with these SQL settings (read when the action runs), then puts them back."""
    before = {key: spark.conf.get(key, None) for key in settings}
    for key, value in settings.items():
        spark.conf.set(key, value)
    try:
        return action()
    finally:
        for key, was in before.items():
            if was is None:
                spark.conf.unset(key)
            else:
                spark.conf.set(key, was)


_BATCH = "spark.sql.execution.arrow.maxRecordsPerBatch"


def stats(
    spark: "SparkSession",
    paths: Union[str, os.PathLike[str], Sequence[Union[str, os.PathLike[str]]]],
    out: str,
    *,
    tags: Optional[Strings] = None,
    per_move: bool = False,
    compression: str = "zstd",
    max_file_bytes: Optional[int] = None,
    records_per_batch: int = RECORDS_PER_BATCH,
    read_local: bool = True,
) -> Written:
    """Writes stats' rows of the PGN files ``paths`` (files, or directories searched for ``PGN_FILES``) as
    Parquet files in the directory ``out`` (emptied first; a local path, or a URI pyarrow writes to:
    ``s3://``, ``gs://``, ``hdfs://``...), on Spark's executors, and returns what was written.

    ``tags``, ``per_move`` and ``compression`` are ``pgnkit stats``' options. Local files (``file:``, every
    executor seeing the same ones: local mode, a shared disk) are read by pgnkit itself unless ``read_local``
    is false; other files' bytes come from Spark (``binaryFile``). Files of at most ``max_file_bytes`` (default
    ``MAX_LOCAL_FILE_BYTES`` for local files, ``MAX_FILE_BYTES`` for the others) are read whole, larger plain
    files as Spark's text records, ``records_per_batch`` to an Arrow batch (see the module's documentation).
    Raises ``FileNotFoundError`` when the paths name no PGN file.
    """
    opts = _Options(out=_uri(out), tags=_tags(tags), per_move=per_move, compression=compression)
    # The options checked here, once, rather than in every task.
    _native.StatsWriter(tags=opts.tags, per_move=per_move, compression=compression)
    fs, root = pafs.FileSystem.from_uri(opts.out)
    fs.create_dir(root, recursive=True)
    fs.delete_dir_contents(root, missing_dir_ok=True)

    listing = (
        spark.read.format("binaryFile")
        .option("pathGlobFilter", PGN_FILES)
        .option("recursiveFileLookup", "true")
        .load(_list(paths))
    )
    sizes: Dict[str, int] = {str(row.path): int(row.length) for row in listing.select("path", "length").collect()}
    if not sizes:
        raise FileNotFoundError(f"pgnkit.spark.stats: no PGN file in {', '.join(_list(paths))}")
    compressed = re.compile(r"\.(gz|zst|zstd)$", re.IGNORECASE)

    def is_local(path: str) -> bool:
        return read_local and path.startswith("file:")

    def whole(path: str) -> bool:
        if compressed.search(path):
            return True
        limit = max_file_bytes
        if limit is None:
            limit = MAX_LOCAL_FILE_BYTES if is_local(path) else MAX_FILE_BYTES
        return sizes[path] <= limit

    large = {p for p in sizes if not whole(p)}
    local = {p for p in sizes if is_local(p) and p not in large}
    others = set(sizes) - large - local

    def files(chosen: Set[str]) -> "DataFrame":
        # The listing itself when it holds just these (no second listing); else their list, never a filter on
        # the listing, which would have Spark read the other files' content too.
        return listing if chosen == set(sizes) else spark.read.format("binaryFile").load(sorted(chosen))

    write = functools.partial(_write_files, opts)
    rows: List[Any] = []
    if local:
        # Spark lists and schedules, pgnkit reads: the bytes never go through the JVM, and a file is read as
        # it streams (a compressed one of any size included).
        # Tasks of up to MAX_LOCAL_FILE_BYTES rather than 128 MiB: pgnkit streams the files, and each task costs
        # a Python worker's start; Spark still makes at least a task per core (bytes per core bound a task).
        parts = files(local).select("path").mapInArrow(write, _part_schema())
        rows += _with_conf(spark, {"spark.sql.files.maxPartitionBytes": str(MAX_LOCAL_FILE_BYTES)}, parts.collect)
    if others:
        # One file per Arrow batch bounds a task's memory by its largest file.
        parts = files(others).select("path", "content").mapInArrow(write, _part_schema())
        rows += _with_conf(spark, {_BATCH: "1"}, parts.collect)
    if large:
        parts = read_records(spark, sorted(large)).mapInArrow(functools.partial(_write_records, opts), _part_schema())
        rows += _with_conf(spark, {_BATCH: str(records_per_batch)}, parts.collect)
    return _finish(fs, root, opts.out, rows)


def _finish(fs: pafs.FileSystem, root: str, out: str, rows: List[Any]) -> Written:
    """The summary of the tasks' rows; the output directory left with their files and ``_SUCCESS`` only (a
    task attempt that died leaves its temporary file)."""
    written = [
        WrittenPart(
            inputs=list(r.inputs), output=r.output, games=r.games, plies=r.plies, games_with_errors=r.games_with_errors
        )
        for r in rows
    ]
    months: Dict[Optional[str], Tuple[int, int]] = {}
    for r in rows:
        for m in r.months:
            games, plies = months.get(m.month, (0, 0))
            months[m.month] = (games + m.games, plies + m.plies)
    names = {part.output for part in written}
    if len(names) != len(written):
        raise RuntimeError("pgnkit.spark.stats: two tasks wrote the same file")
    for info in fs.get_file_info(pafs.FileSelector(root)):
        if info.base_name not in names:
            fs.delete_file(info.path)
    with fs.open_output_stream(f"{root}/_SUCCESS"):
        pass
    return Written(
        out=out,
        parts=sorted(written, key=lambda p: p.output),
        games=sum(p.games for p in written),
        plies=sum(p.plies for p in written),
        games_with_errors=sum(p.games_with_errors for p in written),
        months=dict(sorted(months.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))),
    )
