#!/usr/bin/env python3
"""Checks a Polyglot book written by `pgnkit tree --format polyglot` with python-chess, a reader nobody here
wrote: every game of the PGN files is replayed by python-chess's own parser from its first arrival at the
start position, for DEPTH half-moves, and at each position met the book's entries for it (found by
python-chess's `chess.polyglot` reader, which computes the key itself from the board as the game reached it,
en passant included) must be the moves the tree's CSV lists for that position with at least MIN_GAMES games.

    tree_book_check.py BOOK.bin TREE.csv DEPTH MIN_GAMES PGN...

Prints one line per position whose moves differ (at most 20), then `checked N positions`; exits 1 on any
difference.
"""

import csv
import sys

import chess
import chess.pgn
import chess.polyglot


def main():
    book_path, tree_path, depth, min_games = sys.argv[1:5]
    depth, min_games = int(depth), int(min_games)
    tree = {}
    with open(tree_path, newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            if int(row["games"]) >= min_games:
                tree.setdefault(row["fen"], set()).add(row["move_uci"])
    start = chess.Board().epd()
    checked, differences = set(), []
    with chess.polyglot.open_reader(book_path) as book:
        for path in sys.argv[5:]:
            with open(path, encoding="utf-8-sig", errors="replace") as f:
                while (game := chess.pgn.read_game(f)) is not None:
                    board = game.board()
                    if type(board) is not chess.Board or board.chess960:
                        continue
                    played = None
                    for move in game.mainline_moves():
                        if played is None and board.epd() == start:
                            played = 0
                        if played is not None:
                            if played == depth:
                                break
                            played += 1
                            epd = board.epd()
                            if epd not in checked:
                                checked.add(epd)
                                listed = {e.move.uci() for e in book.find_all(board)}
                                wanted = tree.get(epd, set())
                                if listed != wanted:
                                    differences.append(f"{epd}: book {sorted(listed)}, tree {sorted(wanted)}")
                        board.push(move)
    for line in differences[:20]:
        print(line)
    print(f"checked {len(checked)} positions")
    sys.exit(1 if differences else 0)


if __name__ == "__main__":
    main()
