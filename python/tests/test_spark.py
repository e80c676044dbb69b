"""pgnkit on Spark: the records Spark's text source makes, rejoined in Rust (``pgnkit.stats_records``), and the
job (``pgnkit.spark.stats``, examples/spark/stats_by_month.py) in local mode, against the command's rows.

The Spark tests need pyspark and Java 17 (``python/tests/run.sh`` installs pyspark when ``PGNKIT_SPARK=1``, as
.ci/run does); skipped without them, except when ``PGNKIT_REQUIRE_CORPUS`` is set (CI), where that is a failure.
The records' tests need only pyarrow.
"""

import collections
import gzip
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

import pgnkit

ROOT = pathlib.Path(__file__).resolve().parents[2]
BIN = os.environ.get("PGNKIT_BIN", str(ROOT / "target" / "release" / "pgnkit"))
SUBSET = ROOT / "fixtures" / "corpus-subset" / "games-english"
INPUTS = [
    SUBSET / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn",
    SUBSET / "pychess-world_matches.games-1-10.pgn",
    ROOT / "fixtures" / "stats" / "games.pgn",
]
GAME_START = b"\n[Event "


def spark_or_skip():
    ready = importlib.util.find_spec("pyspark") is not None and shutil.which("java") is not None
    if not ready:
        if os.environ.get("PGNKIT_REQUIRE_CORPUS"):
            pytest.fail("pyspark or java missing: python/tests/run.sh installs pyspark with PGNKIT_SPARK=1")
        pytest.skip("pyspark or java missing")


def command_rows(inputs, tmp_path):
    """`pgnkit stats -o x.parquet` on the files, as a table."""
    out = tmp_path / "command.parquet"
    run = subprocess.run([BIN, "stats", "-q", "-o", out, *map(str, inputs)], capture_output=True, check=False)
    assert run.returncode in (0, 1), run.stderr
    return pq.read_table(out)


def months(rows):
    """The month of each row as the job counts it (`2025-05`), None when the date does not tell it: from the
    `year` and `month` columns, or from the PGN date's text (`2025.05.17`) where the rows have no such columns."""
    if "year" in rows.column_names and "month" in rows.column_names:
        return [
            f"{y:04d}-{m:02d}" if y is not None and m is not None else None
            for y, m in zip(rows.column("year").to_pylist(), rows.column("month").to_pylist())
        ]
    return [
        f"{d[:4]}-{d[5:7]}" if d and d[:4].isdigit() and d[5:7].isdigit() else None
        for d in rows.column("date").to_pylist()
    ]


def totals(rows):
    """Games, half-moves and games by month of stats' rows."""
    by_month = collections.Counter(months(rows))
    return rows.num_rows, pc.sum(rows.column("plies")).as_py() or 0, dict(by_month)


def games(rows, keep_file=True):
    """The rows as a sorted list of tuples (the multiset of games), with or without the `file` column."""
    if not keep_file:
        rows = rows.drop_columns(["file"])
    columns = [rows.column(i).to_pylist() for i in range(rows.num_columns)]
    return sorted(zip(*columns), key=repr)


def openings(tmp_path):
    """Files that open with something else than a game, each holding the games of the first input: a comment
    line (as TWIC's files do: `; from https://theweekinchess.com/`), blank lines, a byte order mark; and a
    file of Windows-1252 games (names and events with é, ü, €)."""
    games = INPUTS[0].read_bytes()
    starts = {
        "comment.pgn": b"; from https://theweekinchess.com/\n\n",
        "blank.pgn": b"\n\n\n",
        "bom.pgn": b"\xef\xbb\xbf",
    }
    paths = []
    for name, start in starts.items():
        path = tmp_path / name
        path.write_bytes(start + games)
        paths.append(path)
    text = INPUTS[1].read_text("utf-8")
    text = text.replace('[White "', '[White "Réti Müller € ').replace('[Event "', '[Event "Café ')
    windows = tmp_path / "windows-1252.pgn"
    windows.write_bytes(text.encode("cp1252", errors="replace"))
    assert b"\xe9" in windows.read_bytes()
    paths.append(windows)
    return paths


def as_spark_cuts(path):
    """Spark's text source with lineSep: the file cut at each separator, the separator left out."""
    return path.read_bytes().split(GAME_START)


def columns_of(records):
    """The records as every column type Spark or pyarrow may hand over: binary, large binary, strings (not
    checked as UTF-8, as Spark's are not), string views, and chunked at arbitrary places."""
    binary = pa.array(records, pa.binary())
    large = pa.array(records, pa.large_binary())
    strings = pa.Array.from_buffers(pa.string(), len(binary), binary.buffers())
    thirds = [len(records) // 3, 2 * len(records) // 3]
    chunked = pa.chunked_array(
        [binary[: thirds[0]], binary[thirds[0] : thirds[1]], binary[thirds[1] :]], pa.binary()
    )
    return {"binary": binary, "large_binary": large, "string": strings, "chunked": chunked}


def test_records_as_spark_cuts_them_give_the_command_games(tmp_path):
    for path in INPUTS + openings(tmp_path):
        expected = command_rows([path], tmp_path)
        for kind, column in columns_of(as_spark_cuts(path)).items():
            rows = pgnkit.stats_records(column, str(path))
            # One text: the file's bytes, read as the command reads the file.
            assert rows.equals(expected), (path.name, kind)


def test_records_with_nulls_empty_records_and_no_games():
    game = b'[Event "a"]\n\n1. e4 e5 *\n'
    records = [None, b"", b"; from https://theweekinchess.com/\n", None, b'"b"]\n\n1. d4 *\n', b"", game, None]
    rows = pgnkit.stats_records(pa.array(records, pa.binary()), "r")
    assert rows.column("plies").to_pylist() == [1, 2]
    # Each record that is no continuation starts a text (the empty ones too): "b" followed a separator after
    # the second text's comment, "a" starts the fourth.
    assert rows.column("event").to_pylist() == ["b", "a"]
    assert rows.column("file").to_pylist() == ["r:2", "r:4"]
    for nothing in ([], [None], [b""], [b"; only a comment\n"], [b"\xef\xbb\xbf\n\n"]):
        assert pgnkit.stats_records(pa.array(nothing, pa.binary())).num_rows == 0
    # A batch that starts after a separator.
    assert pgnkit.stats_records(pa.array(['"x"]\n\n1. c4 *\n'])).column("event").to_pylist() == ["x"]
    with pytest.raises(TypeError):
        pgnkit.stats_records(pa.array([1, 2]))
    with pytest.raises(TypeError):
        pgnkit.stats_records([b"not an arrow column"])


def test_an_arrow_column_of_texts_is_read_where_it_lies(tmp_path):
    texts = [path.read_bytes() for path in INPUTS]
    expected = pgnkit.stats(texts)
    for kind, column in columns_of(texts).items():
        assert pgnkit.stats(column).equals(expected), kind
    # A null is an empty text: the indexes of the others stay those of their rows.
    with_null = pgnkit.stats(pa.array([None, texts[0]], pa.binary()))
    assert set(with_null.column("file").to_pylist()) == {"1"}


def test_compressed_bytes_are_decompressed(tmp_path):
    plain = INPUTS[0].read_bytes()
    expected = pgnkit.stats(plain)
    assert pgnkit.stats(gzip.compress(plain)).equals(expected)
    assert pgnkit.stats([gzip.compress(plain)]).equals(expected)
    assert pgnkit.stats(pa.array([gzip.compress(plain)], pa.binary())).equals(expected)
    if shutil.which("zstd"):
        zst = subprocess.run(["zstd", "-q", "-c", INPUTS[0]], capture_output=True, check=True).stdout
        assert pgnkit.stats(zst).equals(expected)
    with pytest.raises(pgnkit.InputError, match="damaged gzip data"):
        pgnkit.stats(gzip.compress(plain)[:-20])


def test_the_writer_writes_the_command_parquet(tmp_path):
    from pgnkit import _native

    writer = _native.StatsWriter(jobs=1)
    writer.write_paths([str(p) for p in INPUTS])
    written = tmp_path / "w.parquet"
    written.write_bytes(writer.take() + writer.finish())
    assert pq.read_table(written).equals(command_rows(INPUTS, tmp_path))
    expected = totals(command_rows(INPUTS, tmp_path))
    assert (writer.games, writer.plies) == expected[:2]
    assert {m: g for m, g, _ in writer.months()} == expected[2]
    with pytest.raises(pgnkit.UsageError):
        writer.finish()
    with pytest.raises(pgnkit.UsageError):
        _native.StatsWriter(compression="brotli")


@pytest.fixture(scope="module")
def spark():
    spark_or_skip()
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = SparkSession.builder.master("local[2]").appName("pgnkit tests").getOrCreate()
    yield session
    session.stop()


def inputs_in_a_directory(tmp_path):
    """The inputs and the openings in one directory, some gzip and zstd compressed, one in a subdirectory."""
    folder = tmp_path / "pgn"
    (folder / "sub").mkdir(parents=True)
    files = []
    for i, path in enumerate(INPUTS + openings(tmp_path)):
        target = folder / ("sub" if i == 1 else "") / path.name
        shutil.copyfile(path, target)
        files.append(target)
    packed = folder / "packed.pgn.gz"
    packed.write_bytes(gzip.compress(INPUTS[2].read_bytes()))
    files.append(packed)
    if shutil.which("zstd"):
        zst = folder / "packed2.pgn.zst"
        subprocess.run(["zstd", "-q", "-f", INPUTS[0], "-o", zst], check=True)
        files.append(zst)
    (folder / "notes.txt").write_text("not a PGN file: never read\n")
    return folder, files


@pytest.mark.parametrize(
    "how",
    [
        {},  # local files, read by pgnkit
        {"read_local": False},  # every file's bytes through Spark (binaryFile), as for HDFS or S3
        {"max_file_bytes": 0},  # every plain file as Spark's text records
    ],
    ids=["local", "binary_file", "records"],
)
def test_every_game_is_written_once(spark, tmp_path, how):
    import pgnkit.spark

    folder, files = inputs_in_a_directory(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "part-99999-files.parquet").write_bytes(b"a previous run's file")
    written = pgnkit.spark.stats(spark, [str(folder)], str(out), **how)
    rows = ds.dataset(out, format="parquet").to_table()
    expected = command_rows(files, tmp_path)
    # Records carry no file name: the split is named instead, and games are numbered within it.
    records = "max_file_bytes" in how
    if records:
        expected = expected.drop_columns(["game"])
        rows = rows.drop_columns(["game"])
    else:
        local = {str(p) for p in files}
        names = {f"file:{p}" for p in files}
        assert set(rows.column("file").to_pylist()) <= (local if "read_local" not in how else names)
    assert games(rows, keep_file=not records and "read_local" not in how) == games(
        expected, keep_file=not records and "read_local" not in how
    )
    assert (written.games, written.plies, written.months) == totals_by_month(expected)
    assert sorted(p.name for p in out.iterdir()) == sorted([p.output for p in written.parts] + ["_SUCCESS"])
    assert sum(p.games for p in written.parts) == rows.num_rows


def totals_by_month(rows):
    """Games, half-moves, and (games, half-moves) by month, as `Written` has them."""
    by_month = collections.defaultdict(lambda: [0, 0])
    for month, plies in zip(months(rows), rows.column("plies").to_pylist()):
        by_month[month][0] += 1
        by_month[month][1] += plies
    return rows.num_rows, sum(p for _, p in by_month.values()), {
        m: tuple(c) for m, c in sorted(by_month.items(), key=lambda kv: (kv[0] is None, kv[0] or ""))
    }


def test_a_task_run_again_replaces_its_file(tmp_path):
    """A task's file is named by its partition: a second attempt (a retry, speculation) writes the same name,
    through a temporary file, so the games are in the output once."""
    spark_or_skip()
    import pgnkit.spark as ps

    opts = ps._Options(out=ps._uri(str(tmp_path)), tags=None, per_move=False, compression="zstd")
    batch = pa.RecordBatch.from_pydict({"path": [f"file:{INPUTS[0]}"]})
    for attempt in range(2):
        [summary] = list(ps._write_files(opts, [batch]))
        assert summary.column("output").to_pylist() == ["part-00000-files.parquet"]
    assert [p.name for p in tmp_path.iterdir()] == ["part-00000-files.parquet"]
    command = tmp_path.parent / "command"
    command.mkdir()
    assert ds.dataset(tmp_path).to_table().equals(command_rows([INPUTS[0]], command))


def test_the_job_as_a_user_starts_it(tmp_path):
    """`python3 stats_by_month.py OUT FILES...` from a venv that is not activated: PYSPARK_PYTHON unset, and
    the first python3 on the PATH one without pgnkit."""
    spark_or_skip()

    # The interpreter the venv was made from, without any site-packages (-S): surely without pgnkit.
    bare = tmp_path / "bin"
    bare.mkdir()
    base = pathlib.Path(sys.base_prefix) / "bin" / "python3"
    (bare / "python3").write_text(f'#!/bin/sh\nexec "{base}" -S "$@"\n')
    (bare / "python3").chmod(0o755)
    lacks = subprocess.run([bare / "python3", "-c", "import pgnkit"], capture_output=True, check=False)
    assert b"No module named" in lacks.stderr, lacks.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "VIRTUAL_ENV")}
    env["PATH"] = f"{bare}{os.pathsep}{env.get('PATH', '')}"
    inputs = INPUTS + openings(tmp_path)
    out = tmp_path / "by-month"
    job = ROOT / "examples" / "spark" / "stats_by_month.py"
    run = subprocess.run(
        [sys.executable, job, out, *inputs], env=env, cwd=tmp_path, capture_output=True, check=False, timeout=900
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")[-3000:]
    rows = ds.dataset(out, format="parquet").to_table()
    expected = command_rows(inputs, tmp_path)
    assert games(rows) == games(expected)
    count, plies, by_month = totals(expected)
    assert f"{count} games, {plies} half-moves" in run.stdout.decode()
    for m, n in by_month.items():
        assert f"{m or 'unknown':<8} {n:>10} " in run.stdout.decode(), m
    assert by_month["2025-05"] > 0
