"""The exceptions of the package: every error is a ``pgnkit.PgnkitError``; a bad option value a ``UsageError``
(a ``ValueError``), a source that cannot be read an ``InputError`` of the system's ``OSError`` kind with the path,
output that cannot be encoded an ``EncodeError`` (a ``ValueError``).

Run by ``python/tests/run.sh``.
"""

import errno
import gzip
import os
import pathlib
import shutil
import stat
import subprocess
import sys

import pytest

import pgnkit
from pgnkit import _native

ROOT = pathlib.Path(__file__).resolve().parents[2]
LICHESS = ROOT / "fixtures" / "corpus-subset" / "games-english" / "lichess-db-2025-05_blitz_438games_clk.games-1-50.pgn"
GAME = b'[Event "x"]\n\n1. e4 e5 *\n'

# Each function that reads a source, called on one.
READERS = {
    "stats": lambda source: pgnkit.stats(source),
    "per_move": lambda source: pgnkit.stats(source, per_move=True, jobs=2),
    "validate": lambda source: pgnkit.validate(source),
    "read_games": lambda source: list(pgnkit.read_games(source)),
    "convert": lambda source: pgnkit.convert(source),
    "select": lambda source: pgnkit.select(source),
    "tree": lambda source: pgnkit.tree(source),
}


def test_the_classes():
    assert issubclass(pgnkit.UsageError, pgnkit.PgnkitError) and issubclass(pgnkit.UsageError, ValueError)
    assert issubclass(pgnkit.InputError, pgnkit.PgnkitError) and issubclass(pgnkit.InputError, OSError)
    assert issubclass(pgnkit.EncodeError, pgnkit.PgnkitError) and issubclass(pgnkit.EncodeError, ValueError)
    assert not issubclass(pgnkit.InputError, ValueError) and not issubclass(pgnkit.UsageError, OSError)
    assert pgnkit.PgnkitError is pgnkit.exceptions.PgnkitError


USAGE = [
    (lambda: pgnkit.validate([GAME], lang="xx"), "unknown language 'xx'"),
    (lambda: list(pgnkit.read_games([GAME], lang="xx")), "unknown language 'xx'"),
    (lambda: pgnkit.select([GAME], lang="klingon"), "unknown language 'klingon'"),
    (lambda: pgnkit.convert([GAME], to="auto"), "to: a language, not auto"),
    (lambda: pgnkit.convert([GAME], source_lang="xx"), "unknown language 'xx'"),
    (lambda: pgnkit.convert([GAME], notation="fan"), "notation: 'fan': use one of san, lan, uci"),
    (lambda: pgnkit.convert([GAME], output_format="csv"), "output_format: 'csv': use one of pgn, jsonl, epd"),
    (lambda: pgnkit.select([GAME], "plies = 3"), "where: column 7"),
    (lambda: pgnkit.select([GAME], reaches="not a position"), 'reaches "not a position": invalid FEN'),
    (lambda: pgnkit.select([GAME], material="KZvK"), "material: `KZvK`: `Z` is not a piece letter"),
    (lambda: pgnkit.stats([GAME], tags=["not a tag"]), "tags: "),
    (lambda: pgnkit.stats_schema(tags="Link", per_move=True), "tags are columns of the per-game rows"),
    (lambda: pgnkit.tree([GAME], depth=0), "depth: at least 1 half-move"),
    (lambda: pgnkit.tree([GAME], from_fen="8/8 w"), 'from_fen "8/8 w": invalid FEN'),
    (lambda: _native.stats_texts([GAME], []), "as many names as texts"),
    (lambda: _native.validate_texts([GAME], ["a", "b"]), "as many names as texts"),
]


@pytest.mark.parametrize("call,message", USAGE, ids=[m for _, m in USAGE])
def test_a_bad_option_value_is_a_usage_error(call, message):
    with pytest.raises(pgnkit.UsageError) as raised:
        call()
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, pgnkit.PgnkitError)
    assert str(raised.value).startswith(message), str(raised.value)


@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_a_missing_file_is_file_not_found_with_its_path(tmp_path, read):
    missing = tmp_path / "missing.pgn"
    with pytest.raises(FileNotFoundError) as raised:
        read(missing)
    e = raised.value
    assert isinstance(e, pgnkit.InputError) and isinstance(e, pgnkit.PgnkitError)
    assert (e.errno, e.filename) == (errno.ENOENT, str(missing))
    assert str(e) == f"[Errno {errno.ENOENT}] {os.strerror(errno.ENOENT)}: {str(missing)!r}"


@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_a_broken_link_in_a_directory_is_file_not_found(tmp_path, read):
    # The directory search lists the link (it looks like PGN); the run finds it cannot be opened.
    shutil.copy(LICHESS, tmp_path / "a.pgn")
    (tmp_path / "b.pgn").symlink_to(tmp_path / "gone.pgn")
    with pytest.raises(FileNotFoundError) as raised:
        read(tmp_path)
    assert isinstance(raised.value, pgnkit.InputError)
    assert (raised.value.errno, raised.value.filename) == (errno.ENOENT, str(tmp_path / "b.pgn"))


@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_a_path_through_a_file_is_not_a_directory(tmp_path, read):
    inside = tmp_path / "a.pgn" / "b.pgn"
    shutil.copy(LICHESS, tmp_path / "a.pgn")
    with pytest.raises(NotADirectoryError) as raised:
        read(inside)
    assert isinstance(raised.value, pgnkit.InputError)
    assert (raised.value.errno, raised.value.filename) == (errno.ENOTDIR, str(inside))


UNREADABLE = r"""
import sys, pgnkit
read = {
    "stats": lambda s: pgnkit.stats(s),
    "validate": lambda s: pgnkit.validate(s),
    "read_games": lambda s: list(pgnkit.read_games(s)),
    "convert": lambda s: pgnkit.convert(s),
    "select": lambda s: pgnkit.select(s),
    "tree": lambda s: pgnkit.tree(s),
}[sys.argv[1]]
try:
    read(sys.argv[2])
except PermissionError as e:
    assert isinstance(e, pgnkit.InputError), type(e).__mro__
    print(e.errno, e.filename)
"""


@pytest.mark.parametrize("name", ["stats", "validate", "read_games", "convert", "select", "tree"])
def test_an_unreadable_file_is_a_permission_error(tmp_path, name):
    """A file without read permission, in a directory (the run opens it): read in a child process, which for
    root runs without the capabilities that let root read any file."""
    shutil.copy(LICHESS, tmp_path / "a.pgn")
    locked = tmp_path / "locked.pgn"
    shutil.copy(LICHESS, locked)
    locked.chmod(0)
    tmp_path.chmod(stat.S_IRWXU | stat.S_IRGRP | stat.S_IXGRP | stat.S_IROTH | stat.S_IXOTH)
    command = [sys.executable, "-c", UNREADABLE, name, str(tmp_path)]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        assert setpriv, "running as root, the test needs setpriv (util-linux) to drop the capabilities"
        command = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *command]
    run = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == [str(errno.EACCES), str(locked)]


@pytest.mark.parametrize("read", READERS.values(), ids=READERS.keys())
def test_damaged_compressed_data_is_an_input_error_with_the_path(tmp_path, read):
    cut = tmp_path / "cut.pgn.gz"
    cut.write_bytes(gzip.compress(LICHESS.read_bytes())[:5000])
    with pytest.raises(pgnkit.InputError) as raised:
        read(cut)
    e = raised.value
    assert isinstance(e, OSError) and not isinstance(e, FileNotFoundError)
    assert (e.errno, e.filename) == (None, str(cut))
    assert e.strerror.startswith("damaged gzip data: ")
    assert str(e) == f"{cut}: {e.strerror}"


def test_a_directory_without_pgn_is_an_input_error(tmp_path):
    (tmp_path / "notes.txt").write_text("no games")
    for read in READERS.values():
        with pytest.raises(pgnkit.InputError, match="directory contains no .pgn") as raised:
            read(tmp_path)
        assert raised.value.filename == str(tmp_path)


def test_output_that_is_not_utf8_is_an_encode_error(tmp_path):
    # A Latin-1 file: convert copies an invalid game through unchanged, with its bytes.
    latin = tmp_path / "latin.pgn"
    latin.write_bytes('[Event "M\u00fcnchen"]\n\n1. e4 e5 2. Ke3 *\n'.encode("latin-1"))
    with pytest.raises(pgnkit.EncodeError, match="not UTF-8") as raised:
        pgnkit.convert(latin)
    assert isinstance(raised.value, ValueError) and isinstance(raised.value, pgnkit.PgnkitError)
    # The valid game of the same file is converted, its text decoded.
    latin.write_bytes('[Event "M\u00fcnchen"]\n\n1. e4 e5 *\n'.encode("latin-1"))
    assert "M\u00fcnchen" in pgnkit.convert(latin)


def test_errors_in_argument_types_stay_type_errors():
    with pytest.raises(TypeError):
        pgnkit.stats(42)
    with pytest.raises(TypeError):
        pgnkit.select([GAME], reaches=[3])
