#!/usr/bin/env python3
"""The opening tree of PGN games as `pgnkit tree` should count it (issue 42), computed with python-chess, a
parser and move generator nobody here wrote, for the tests to compare the command with (tests/integration/tree.rs).

    tree_oracle.py [--depth N] [--from FEN] [--player NAME [--color white|black]] [--min-games K] PGN...

Writes to standard output a CSV with a header and one row per (position, move), sorted by (fen, move_uci):

    fen,move_uci,move_san,games,white_wins,draws,black_wins,mover_elo,opponent_elo,first_date,last_date

What is counted, rule by rule (the contract of `pgnkit tree`; where it said nothing, the choice made here is
stated):
- Every game that `chess.pgn.read_game` reads from the files. A game whose board is not a plain `chess.Board`
  (a variant: Crazyhouse, Atomic...) is left out, and so is one whose `Variant` tag python-chess does not know
  (it would play it as standard chess, recording an error). Chess960 games are kept, on python-chess's board.
  A game whose `FEN` tag python-chess cannot set up has no moves and counts nowhere.
- The moves are the main line as python-chess reads it: it ends at the first move it cannot play (illegal,
  ambiguous, unreadable), the moves before it count. A null move (`--`, which python-chess plays) ends it too.
- The root is the start position or `--from FEN`. The first position of the main line (from the game's `FEN`
  tag if it has one) that is the root's under FIDE's rule of the same position -- `board.epd()`: pieces, side
  to move, castling rights as python-chess cleans them, the en passant square only when a capture there is
  legal -- starts the game's window: the `depth` moves from it (fewer if the main line ends). A game that
  never reaches the root counts nowhere.
- Each move of the window makes a pair (the position before it as `board.epd()`, the move in standard UCI,
  castling as e1g1). A game counts once per pair, however often it plays it in its window.
- games: the games with the pair; white_wins, draws, black_wins: those among them whose `Result` tag is
  exactly `1-0`, `1/2-1/2`, `0-1` (any other value, `*` included, counts in games only; the result at the end
  of the movetext is not read, and a tag given twice has its last value, as in python-chess's headers).
- mover_elo: the mean, rounded half up, of the `WhiteElo` or `BlackElo` tag of the side to move in the
  position, over the pair's games where that tag is a rating: ASCII digits only (no sign, no space) with a
  value from 1 to 4000; empty when no game has one. opponent_elo: the same for the other side.
- first_date, last_date: the least and greatest `Date` tag (written YYYY-MM-DD) among the pair's games whose
  Date is exactly `YYYY.MM.DD` and a day of the Gregorian calendar (years 0001 to 9999); empty when none is.
- --player NAME: only the games whose `White` or `Black` tag, trimmed of white space, equals NAME trimmed,
  compared after Python's `str.lower()` (Unicode lower case); --color white|black: only those where NAME is
  that colour's player (it needs --player).
- --min-games K: the pairs with fewer than K games have no row.
- move_san: the move in SAN (`board.san`, with + or #), which the position and the move decide.

Files are read as UTF-8 (a byte-order mark skipped, bytes that are not UTF-8 replaced by U+FFFD).
"""

import argparse
import csv
import datetime
import re
import sys

import chess
import chess.pgn

DIGITS = re.compile(r"[0-9]+")
DATE = re.compile(r"([0-9]{4})\.([0-9]{2})\.([0-9]{2})")
WINS = {"1-0": "white_wins", "1/2-1/2": "draws", "0-1": "black_wins"}


def rating(value):
    """The rating of an Elo tag's value, or None when it is none (`?`, `0`, `-`, empty, out of 1..4000)."""
    if value is None or not DIGITS.fullmatch(value):
        return None
    elo = int(value)
    return elo if 1 <= elo <= 4000 else None


def day(value):
    """The ISO date of a complete Date tag that is a real day, or None."""
    match = DATE.fullmatch(value or "")
    if not match:
        return None
    try:
        return datetime.date(*(int(g) for g in match.groups())).isoformat()
    except ValueError:
        return None


def half_up(total, count):
    """total / count rounded half up, for positive integers."""
    return (2 * total + count) // (2 * count)


class Window(chess.pgn.BaseVisitor):
    """One game as `chess.pgn.read_game` reads it: its tags, and the (epd, uci, san) of the moves of its window in
    order (none when it never reaches the root).

    Reading a game this way rather than as a `chess.pgn.Game` is only faster: the same reader parses and plays
    the main line's moves with the same board (from the game's FEN tag, on the board of its Variant tag), but
    the variations are skipped unread and so are the moves after the window. An unplayable move is an error
    after which the reader skips the rest of the main line, as it does for a `Game`."""

    def __init__(self, root, depth, wanted):
        self.root, self.depth, self.wanted = root.epd(), depth, wanted
        self.root_occupied, self.root_turn = root.occupied, root.turn

    def begin_game(self):
        self.headers = chess.pgn.Headers({})
        self.pairs = []
        self.reached = False
        self.done = False

    def begin_headers(self):
        return self.headers

    def visit_header(self, tagname, tagvalue):
        self.headers[tagname] = tagvalue

    def end_headers(self):
        if not self.wanted(self.headers):
            return chess.pgn.SKIP
        # A variant other than chess, or a Variant tag python-chess does not know (it would play standard chess):
        # the game is left out. Chess960 and "wild" games are played on a chess.Board.
        try:
            if self.headers.variant() is not chess.Board:
                return chess.pgn.SKIP
        except ValueError:
            return chess.pgn.SKIP
        return None

    def begin_variation(self):
        return chess.pgn.SKIP

    def begin_parse_san(self, board, san):
        return chess.pgn.SKIP if self.done else None

    def visit_move(self, board, move):
        if not move:  # a null move (`--`) ends the main line
            self.done = True
            return
        if not self.reached:
            # board.epd() is the comparison; the cheap test first only spares computing it at every ply.
            self.reached = (board.occupied == self.root_occupied and board.turn == self.root_turn
                            and board.epd() == self.root)
        if self.reached:
            if len(self.pairs) < self.depth:
                self.pairs.append((board.epd(), board.uci(move, chess960=False), board.san(move)))
            self.done = len(self.pairs) >= self.depth

    def handle_error(self, error):
        # An unplayable move (the reader skips the rest of the main line) or a FEN tag it cannot set up (the game
        # has no moves).
        self.done = True

    def result(self):
        return self


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--from", dest="root", default=chess.STARTING_FEN)
    parser.add_argument("--player")
    parser.add_argument("--color", choices=["white", "black"])
    parser.add_argument("--min-games", type=int, default=1)
    parser.add_argument("pgn", nargs="+")
    args = parser.parse_args()
    if args.color and args.player is None:
        parser.error("--color needs --player")
    root = chess.Board(args.root)
    player = args.player.strip().lower() if args.player is not None else None

    def wanted(headers):
        """Whether --player and --color keep the game."""
        if player is None:
            return True
        white = headers.get("White", "").strip().lower() == player
        black = headers.get("Black", "").strip().lower() == player
        return {"white": white, "black": black, None: white or black}[args.color]

    rows = {}
    for path in args.pgn:
        with open(path, encoding="utf-8-sig", errors="replace") as handle:
            while True:
                game = chess.pgn.read_game(handle, Visitor=lambda: Window(root, args.depth, wanted))
                if game is None:
                    break
                headers = game.headers
                pairs = game.pairs
                if not pairs:
                    continue
                result = WINS.get(headers.get("Result"))
                elo = {chess.WHITE: rating(headers.get("WhiteElo")), chess.BLACK: rating(headers.get("BlackElo"))}
                date = day(headers.get("Date"))
                for epd, uci, san in dict.fromkeys(pairs):
                    row = rows.get((epd, uci))
                    if row is None:
                        row = rows[(epd, uci)] = {
                            "san": san, "games": 0, "white_wins": 0, "draws": 0, "black_wins": 0,
                            "mover": [0, 0], "opponent": [0, 0], "dates": [],
                        }
                    row["games"] += 1
                    if result:
                        row[result] += 1
                    turn = epd.split(" ")[1] == "w"
                    for key, side in (("mover", turn), ("opponent", not turn)):
                        if elo[side] is not None:
                            row[key][0] += elo[side]
                            row[key][1] += 1
                    if date:
                        row["dates"].append(date)

    out = csv.writer(sys.stdout, lineterminator="\n")
    out.writerow(["fen", "move_uci", "move_san", "games", "white_wins", "draws", "black_wins", "mover_elo",
                  "opponent_elo", "first_date", "last_date"])
    for (epd, uci), row in sorted(rows.items()):
        if row["games"] < args.min_games:
            continue
        mean = lambda s: half_up(*s) if s[1] else ""  # noqa: E731
        out.writerow([epd, uci, row["san"], row["games"], row["white_wins"], row["draws"], row["black_wins"],
                      mean(row["mover"]), mean(row["opponent"]), min(row["dates"], default=""),
                      max(row["dates"], default="")])


if __name__ == "__main__":
    main()
