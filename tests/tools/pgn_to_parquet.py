#!/usr/bin/env python3
"""Writes PGN files as a Parquet file of the Lichess database's shape on Hugging Face: one row per game, a column
per tag (typed as there: ratings and rating changes as integers, UTCDate as a date, UTCTime as a time) and the
moves in `movetext`; or, with --pgn-column, each game's whole text in a `pgn` column.

    pgn_to_parquet.py OUT.parquet IN.pgn... [--pgn-column] [--row-group-size=N] [--pgn-out=FILE]

Built with pyarrow, a writer nobody here wrote, for the tests that read such files back with pgnkit. The games'
text must be laid out as a writer of the export format lays it out (tags one per line in one order for the whole
file, a blank line, the movetext, a blank line): the script checks that the rows give back the file's bytes
exactly, so that pgnkit's output on the Parquet file can be compared with its output on the PGN file. It exits
with status 1, saying which game, when they do not. Text before a file's first game (TWIC's `; from ...` line) is
no game and has no row: it is left out, and --pgn-out writes the PGN the rows stand for, the files without it.
"""

import datetime
import re
import sys

import pyarrow as pa
import pyarrow.parquet as pq

TAG = re.compile(r'^\[([A-Za-z0-9_]+) "((?:[^"\\]|\\.)*)"\]$')
INTEGER_TAGS = {"WhiteElo", "BlackElo", "WhiteRatingDiff", "BlackRatingDiff"}


def split_games(text):
    """The games of a PGN text as (tags, movetext): games are separated by a blank line before a tag line."""
    games = []
    for chunk in re.split(r"\n\n(?=\[)", text.strip("\n")):
        if not games and not chunk.startswith("["):
            continue
        lines = chunk.split("\n")
        tags = []
        while lines and lines[0].startswith("["):
            match = TAG.match(lines.pop(0))
            if not match:
                return None, f"a tag line that is not one tag pair in game {len(games) + 1}"
            value = re.sub(r"\\(.)", r"\1", match.group(2))
            tags.append((match.group(1), value))
        if lines and lines[0] == "":
            lines.pop(0)
        # As the Lichess dataset holds it: no line break after the last move.
        games.append((tags, "\n".join(lines).rstrip("\n")))
    return games, None


def escape(value):
    return value.replace("\\", "\\\\").replace('"', '\\"')


def game_text(tags, movetext):
    head = "".join(f'[{name} "{escape(value)}"]\n' for name, value in tags)
    return head + ("\n" if tags else "") + movetext + "\n\n"


def column_order(games):
    """Tag names in an order every game keeps (a topological order of the games' own orders, names first seen
    first); None when two games order two tags differently."""
    first_seen = {}
    after = {}
    for tags, _ in games:
        names = [name for name, _ in tags]
        for name in names:
            first_seen.setdefault(name, len(first_seen))
            after.setdefault(name, set())
        for a, b in zip(names, names[1:]):
            after[a].add(b)
    waiting = {name: 0 for name in first_seen}
    for a in after:
        for b in after[a]:
            waiting[b] += 1
    order = []
    ready = sorted((n for n, w in waiting.items() if w == 0), key=first_seen.get)
    while ready:
        name = ready.pop(0)
        order.append(name)
        for b in after[name]:
            waiting[b] -= 1
            if waiting[b] == 0:
                ready.append(b)
        ready.sort(key=first_seen.get)
    return order if len(order) == len(first_seen) else None


def typed(name, values):
    """The column of a tag, typed as the Lichess dataset types it when every value reads back as written."""
    present = [v for v in values if v is not None]
    if name in INTEGER_TAGS:
        # Lichess writes a rating change that is no loss with its sign (`+5`, `+0`), as pgnkit writes it back
        # from an integer column.
        def reads_back(v):
            n = int(v)
            return (f"+{n}" if n >= 0 and name.endswith("RatingDiff") else str(n)) == v

        if all(re.fullmatch(r"[+-]?\d+", v) and reads_back(v) for v in present):
            return pa.array([None if v is None else int(v) for v in values], pa.int64())
    if name == "UTCDate":
        try:
            dates = [None if v is None else datetime.datetime.strptime(v, "%Y.%m.%d").date() for v in values]
            if all(v is None or d.strftime("%Y.%m.%d") == v for v, d in zip(values, dates)):
                return pa.array(dates, pa.date32())
        except ValueError:
            pass
    if name == "UTCTime":
        try:
            times = [None if v is None else datetime.datetime.strptime(v, "%H:%M:%S").time() for v in values]
            if all(v is None or t.strftime("%H:%M:%S") == v for v, t in zip(values, times)):
                return pa.array(times, pa.time64("us"))
        except ValueError:
            pass
    return pa.array(values, pa.string())


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    pgn_column = "--pgn-column" in argv
    row_group = 1000
    pgn_out = None
    for a in argv[1:]:
        if a.startswith("--row-group-size="):
            row_group = int(a.split("=", 1)[1])
        if a.startswith("--pgn-out="):
            pgn_out = a.split("=", 1)[1]
    if len(args) < 2:
        sys.exit(__doc__)
    out, inputs = args[0], args[1:]
    games = []
    texts = []
    rebuilt_files = []
    for path in inputs:
        text = open(path, encoding="utf-8", newline="").read()
        found, error = split_games(text)
        if found is None:
            print(f"{path}: {error}", file=sys.stderr)
            return 1
        rebuilt = "".join(game_text(t, m) for t, m in found)
        first = text.find("\n[") + 1 if not text.startswith("[") else 0
        if rebuilt.strip("\n") != text[first:].strip("\n"):
            for k, (t, m) in enumerate(found):
                if game_text(t, m) not in text:
                    print(f"{path}: game {k + 1} is not laid out as the export format", file=sys.stderr)
                    return 1
            print(f"{path}: the games do not give back the file", file=sys.stderr)
            return 1
        games.extend(found)
        rebuilt_files.append(rebuilt.rstrip("\n") + "\n")
        # A game's text ends with its last line, as a file's last game does.
        texts.extend(game_text(t, m).rstrip("\n") + "\n" for t, m in found)
    if pgn_column:
        table = pa.table({"pgn": pa.array(texts, pa.string())})
    else:
        order = column_order(games)
        if order is None:
            print("two games order their tags differently", file=sys.stderr)
            return 1
        columns = {}
        for name in order:
            values = [dict(tags).get(name) for tags, _ in games]
            columns[name] = typed(name, values)
        columns["movetext"] = pa.array([m for _, m in games], pa.string())
        table = pa.table(columns)
    pq.write_table(table, out, row_group_size=row_group)
    if pgn_out:
        with open(pgn_out, "w", encoding="utf-8", newline="") as f:
            f.write("".join(rebuilt_files))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
