#!/usr/bin/env python3
"""Cross-checks pgnkit's standings and TRF against two programs nobody here wrote: FIDE's tie-break checker
(TEC-FIDE/TieBreakServer, `tiebreakchecker.py`) and the bbpPairings pairing engine.

    benches/fide_check.py [--min-players N] [--codes PTS,DE,WIN,...] [--trf-format trf]
                          [--pgnkit BIN] [--bbppairings EXE] [--tiebreakchecker PY] [--keep DIR]
                          [--event NAME] [--all-rows] FILE.pgn [FILE.pgn ...]

For every tournament of the inputs (read together, as `pgnkit standings` reads them) with at least N players
(default 6) it
  1. writes pgnkit's TRF of that tournament (`pgnkit standings --format trf --event NAME`);
  2. runs `bbpPairings.exe --dutch F.trf -c`: the file must be read (exit 0, or 1 when the engine finds no
     pairing of its own); what the engine thinks of the pairings is its opinion of a round robin or of a
     partial Swiss, shown, never counted against pgnkit; exit 3 ("cannot read") or any other is a failure;
  3. runs `tiebreakchecker.py -c -i F.trf -f TRF -e 1 -t CODES -d C` (exit 0 or 1 with its table: 1 only
     says its ranking differs from the file's);
  4. compares each player's value of each code with pgnkit's own standings (`--format json`), the player
     found by the name in columns 15-47 of the TRF's `001` line.

It prints a table per tournament (the players on whom some code differs, or all with --all-rows) and a
summary: per code, the tournaments that agree and disagree. Exit 0 when everything agrees, 1 on any
disagreement or failure of a program to read a TRF, 2 on a usage error or when pgnkit itself fails.

The programs: --bbppairings or $BBPPAIRINGS (bbpPairings.exe), --tiebreakchecker or $TIEBREAKCHECKER
(tiebreakchecker.py, run with this Python), --pgnkit or $PGNKIT (default target/release/pgnkit of this
repository). Python 3 standard library only.

Codes and pgnkit's values: pgnkit is asked for the codes compared (`standings --tiebreaks`, PTS left out),
so its JSON has a member per code named by the code with `/` written `_` (`BH/C1` is `BH_C1`); PTS is
`points`.

Several tournaments can share an Event (other Site or year): `standings --event` chooses by Event alone,
so the games of the one wanted are first chosen with `pgnkit select --where` on Event, Site and year.
"""

import argparse
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal, InvalidOperation

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Every code both pgnkit and the checker compute, with the modifiers arbiters use.
DEFAULT_CODES = (
    "PTS,DE,WIN,WON,BPG,BWG,GE,PS,BH,BH/C1,BH/C2,BH/M1,FB,AOB,SB,SB/C1,KS,ARO,ARO/C1,TPR,PTP,APRO,APPO"
)

# The TRF's 001 record: start rank in columns 5-8, name in 15-47 (1-based, inclusive).
START_RANK = (4, 8)
NAME = (14, 47)

# bbpPairings' exit codes (src/main.cpp): 0 done, 1 no valid pairing, 3 invalid request (the file cannot be
# read), 5 file error; anything else unexpected.
BBP_READ = {0, 1}


class UsageError(Exception):
    pass


def run(cmd, timeout=600):
    """(exit code, stdout, stderr) of a command, texts decoded leniently."""
    p = subprocess.run(cmd, capture_output=True, timeout=timeout)
    return (
        p.returncode,
        p.stdout.decode("utf-8", "replace"),
        p.stderr.decode("utf-8", "replace"),
    )


def rust_regex_escape(text):
    """A literal for pgnkit's `~` (Rust's regex): the meta characters escaped, nothing else."""
    return "".join("\\" + c if c in "\\.+*?()|[]{}^$#&-~" else c for c in text)


def where_string(text):
    """A string literal of `--where`."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tournament_filter(key):
    """A `select --where` expression choosing the games of one tournament (Event, Site, year), as
    pgnkit keys them: trimmed Event and Site, the year the first four characters of EventDate, else Date."""
    event = where_string("^\\s*" + rust_regex_escape(key["event"]) + "\\s*$")
    # A missing Site tag reads empty, as pgnkit's key has it.
    site_clause = "Site ~ " + where_string("^\\s*" + rust_regex_escape(key["site"]) + "\\s*$")
    starts = where_string("^\\s*" + rust_regex_escape(key["year"]))
    year_clause = f'(EventDate ~ {starts} or (EventDate ~ "^\\s*$" and Date ~ {starts}))'
    if key["year"] == "????":
        year_clause = f'({year_clause[1:-1]} or (EventDate ~ "^\\s*$" and Date ~ "^\\s*$"))'
    return "Event ~ " + event + " and " + site_clause + " and " + year_clause


def label(key):
    return f"{key['event']} — {key['site']} — {key['year']}"


def trf_players(trf):
    """Start rank → name (as written in columns 15-47) of each 001 record."""
    players = {}
    for line in trf.replace("\r\n", "\n").split("\n"):
        if line.startswith("001"):
            start = int(line[START_RANK[0] : START_RANK[1]].strip())
            players[start] = line[NAME[0] : NAME[1]].rstrip()
    return players


def trf_name(name):
    """A name as pgnkit's TRF writes it: control characters as spaces, cut to 33 characters."""
    return "".join(" " if ord(c) < 32 or 127 <= ord(c) < 160 else c for c in name)[:33].rstrip()


def match_players(trf, players):
    """Start rank → pgnkit's player record; the names that did not match one-to-one."""
    by_name = {}
    for p in players:
        by_name.setdefault(trf_name(p["player"]), []).append(p)
    matched, unmatched = {}, []
    for start, name in trf_players(trf).items():
        found = by_name.get(name, [])
        if len(found) == 1:
            matched[start] = found[0]
        else:
            unmatched.append(f"{start} {name!r} ({len(found)} players of that name)")
    return matched, unmatched


def pgnkit_value(player, code):
    """pgnkit's value of a code for a player, as a Decimal (None: pgnkit has none): its JSON member named by
    the code's column (`BH/C1` is `BH_C1`); `PTS` is `points` unless asked for."""
    candidates = [code.replace("/", "_")] + (["points"] if code == "PTS" else [])
    for name in candidates:
        if name in player:
            value = player[name]
            if value is None:
                return None
            return Decimal(str(value))
    raise UsageError(f"pgnkit's JSON has no value for {code} (fields: {', '.join(sorted(player))})")


def checker_values(text, codes):
    """Start number → {code: Decimal} from the checker's comma-separated table."""
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or rows[0][:2] != ["StartNo", "Rank"] or len(rows[0]) != 2 + len(codes):
        return None
    values = {}
    for row in rows[1:]:
        if not row:
            continue
        try:
            values[int(row[0])] = {c: Decimal(v) for c, v in zip(codes, row[2:])}
        except (InvalidOperation, ValueError):
            return None
    return values


def checker_error(out, err):
    """What the checker said of a file it could not read: its JSON status, else its last line."""
    try:
        said = json.loads(out)["status"]["error"]
    except (ValueError, KeyError, TypeError):
        lines = (out.strip() + "\n" + err.strip()).strip().splitlines()
        return lines[-1][:200] if lines else "no output"

    def flat(x):
        return [y for item in x for y in flat(item)] if isinstance(x, list) else [str(x)]

    return "; ".join(flat(said))[:200]


def same(code, ours, theirs):
    if ours is None:
        return False
    return ours == theirs


def shown(value):
    if value is None:
        return "-"
    text = format(value.normalize(), "f")
    return text


class Check:
    def __init__(self, args):
        self.args = args
        self.pgnkit = args.pgnkit
        self.codes = [c.strip().upper() for c in args.codes.split(",") if c.strip()]
        if not self.codes:
            raise UsageError("--codes: no code")
        self.work = args.keep or tempfile.mkdtemp(prefix="fide_check.")
        os.makedirs(self.work, exist_ok=True)

    def standings(self, fmt, paths, event=None):
        # Every code compared, so that pgnkit's JSON has each; the TRF's 202 lists them (the checker is
        # given them with -t all the same).
        after_points = [c for c in self.codes if c != "PTS"] or ["PTS"]
        cmd = [self.pgnkit, "standings", "-q", "--format", fmt, "--tiebreaks", ",".join(after_points)]
        if event is not None:
            cmd += ["--event", event]
        code, out, err = run(cmd + paths)
        return code, out, err

    def tournaments(self):
        code, out, err = self.standings("json", self.args.paths)
        if code not in (0, 1):
            raise UsageError(f"pgnkit standings --format json failed (exit {code}): {err.strip()}")
        return [json.loads(line) for line in out.splitlines() if line.strip()]

    def games_of(self, key, n):
        """The inputs to give `standings --event` for this tournament: the inputs themselves when its Event
        is its own, else the games `select` chooses by Event, Site and year."""
        path = os.path.join(self.work, f"t{n:03}.pgn")
        cmd = [self.pgnkit, "select", "-q", "--where", tournament_filter(key), "-o", path]
        code, _, err = run(cmd + self.args.paths)
        if code != 0:
            raise UsageError(f"pgnkit select for {label(key)} failed (exit {code}): {err.strip()}")
        return [path]

    def one(self, n, tournament, shared_event):
        key = {k: tournament[k] for k in ("event", "site", "year")}
        result = {"key": key, "players": len(tournament["players"]), "codes": {}, "rows": []}
        paths = self.games_of(key, n) if shared_event else self.args.paths
        players = tournament["players"]
        if shared_event:
            code, out, err = self.standings("json", paths, key["event"])
            chosen = [json.loads(line) for line in out.splitlines() if line.strip()]
            if len(chosen) != 1:
                result["pgnkit"] = f"the games chosen by Event, Site and year make {len(chosen)} tournaments"
                return result
            players = chosen[0]["players"]
        code, trf, err = self.standings(self.args.trf_format, paths, key["event"])
        if code != 0:
            result["pgnkit"] = f"no TRF (exit {code}): {err.strip()}"
            return result
        trf_path = os.path.join(self.work, f"t{n:03}.trf")
        with open(trf_path, "w", encoding="utf-8", newline="") as f:
            f.write(trf)
        result["trf"] = trf_path

        code, out, err = run([self.args.bbppairings, "--dutch", trf_path, "-c"])
        said = (err.strip() or out.strip()).splitlines()
        if code in BBP_READ:
            rounds = out.count("Checker pairings")
            result["bbp"] = "read" + (f" (its own pairings differ in {rounds} rounds)" if rounds else "")
        else:
            result["bbp_failed"] = True
            result["bbp"] = f"exit {code}: " + (said[0][:200] if said else "")

        cmd = [sys.executable, self.args.tiebreakchecker, "-c", "-i", trf_path, "-f", "TRF", "-e", "1"]
        cmd += ["-t", *self.codes, "-d", "C"]
        code, out, err = run(cmd)
        values = checker_values(out, self.codes) if code in (0, 1) else None
        if values is None:
            result["checker_failed"] = True
            result["checker"] = f"exit {code}: " + checker_error(out, err)
            return result
        result["checker"] = "read"
        matched, unmatched = match_players(trf, players)
        result["unmatched"] = unmatched
        for c in self.codes:
            result["codes"][c] = 0
        for start in sorted(values):
            player = matched.get(start)
            if player is None:
                continue
            cells, differs = [], False
            for c in self.codes:
                ours, theirs = pgnkit_value(player, c), values[start][c]
                if same(c, ours, theirs):
                    cells.append(shown(theirs))
                else:
                    differs = True
                    result["codes"][c] += 1
                    cells.append(f"{shown(ours)}≠{shown(theirs)}")
            if differs or self.args.all_rows:
                result["rows"].append((start, player["player"], cells))
        missing = set(values) ^ set(trf_players(trf))
        if missing:
            result["unmatched"].append(f"start numbers in one program only: {sorted(missing)}")
        return result

    def report(self, r):
        head = f"== {label(r['key'])} ({r['players']} players)"
        print(head)
        if "pgnkit" in r:
            print(f"   pgnkit: {r['pgnkit']}")
            return
        if self.args.keep:
            print(f"   TRF: {r['trf']}")
        print(f"   bbpPairings: {r['bbp']}")
        print(f"   tiebreakchecker: {r['checker']}")
        if r.get("checker_failed"):
            return
        for u in r["unmatched"]:
            print(f"   not compared: {u}")
        per_code = ", ".join(
            f"{c} {'agrees' if k == 0 else f'differs on {k}'}" for c, k in r["codes"].items()
        )
        print(f"   {per_code}")
        if r["rows"]:
            name_width = min(33, max(len(name) for _, name, _ in r["rows"]))
            widths = [max(len(c), *(len(cells[i]) for _, _, cells in r["rows"])) for i, c in enumerate(self.codes)]
            line = f"   {'no':>4}  {'player':<{name_width}}"
            for c, w in zip(self.codes, widths):
                line += f"  {c:>{w}}"
            print(line + "    (pgnkit≠FIDE)")
            for start, name, cells in r["rows"]:
                line = f"   {start:>4}  {name[:name_width]:<{name_width}}"
                for cell, w in zip(cells, widths):
                    line += f"  {cell:>{w}}"
                print(line)
        print()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("paths", nargs="+", metavar="FILE.pgn")
    parser.add_argument("--min-players", type=int, default=6)
    parser.add_argument("--codes", default=DEFAULT_CODES, help=f"FIDE codes compared (default {DEFAULT_CODES})")
    parser.add_argument("--trf-format", default="trf", help="pgnkit's --format for the TRF (default trf)")
    parser.add_argument("--pgnkit", default=os.environ.get("PGNKIT", os.path.join(REPO, "target/release/pgnkit")))
    parser.add_argument("--bbppairings", default=os.environ.get("BBPPAIRINGS"))
    parser.add_argument("--tiebreakchecker", default=os.environ.get("TIEBREAKCHECKER"))
    parser.add_argument("--keep", metavar="DIR", help="write the TRFs (and chosen games) here and keep them")
    parser.add_argument("--event", action="append", help="only the tournaments of this Event (repeatable)")
    parser.add_argument("--all-rows", action="store_true", help="every player in the tables")
    args = parser.parse_args()
    for name, path in [("--pgnkit", args.pgnkit), ("--bbppairings", args.bbppairings),
                       ("--tiebreakchecker", args.tiebreakchecker)]:
        if not path or not os.path.isfile(path):
            env = {"--pgnkit": "PGNKIT", "--bbppairings": "BBPPAIRINGS", "--tiebreakchecker": "TIEBREAKCHECKER"}
            print(f"fide_check: {name} (or ${env[name]}): no such file: {path}", file=sys.stderr)
            return 2
    try:
        check = Check(args)
        tournaments = check.tournaments()
        events = {}
        for t in tournaments:
            events[t["event"]] = events.get(t["event"], 0) + 1
        chosen = [t for t in tournaments if len(t["players"]) >= args.min_players]
        if args.event:
            chosen = [t for t in chosen if t["event"] in args.event]
        results = []
        for n, t in enumerate(chosen, 1):
            r = check.one(n, t, events[t["event"]] > 1)
            check.report(r)
            results.append(r)
    except UsageError as e:
        print(f"fide_check: {e}", file=sys.stderr)
        return 2
    finally:
        if not args.keep and "check" in locals():
            shutil.rmtree(check.work, ignore_errors=True)

    no_trf = sum("pgnkit" in r for r in results)
    bbp_failed = sum(bool(r.get("bbp_failed")) for r in results)
    checker_failed = sum(bool(r.get("checker_failed")) for r in results)
    compared = [r for r in results if "pgnkit" not in r and not r.get("checker_failed")]
    unmatched = sum(bool(r["unmatched"]) for r in compared)
    parts = [
        f"{len(results)} tournaments of {args.min_players}+ players",
        f"no TRF {no_trf}",
        f"bbpPairings read {len(results) - no_trf - bbp_failed}, could not {bbp_failed}",
        f"checker read {len(compared)}, could not {checker_failed}",
    ]
    disagreements = 0
    for c in check.codes:
        bad = sum(r["codes"][c] > 0 for r in compared)
        disagreements += bad
        parts.append(f"{c} agree {len(compared) - bad} disagree {bad}")
    both = sum(any(v > 0 for v in r["codes"].values()) for r in compared)
    parts.append(f"all codes agree {len(compared) - both} disagree {both}")
    if unmatched:
        parts.append(f"players not matched in {unmatched}")
    print("summary: " + "; ".join(parts))
    failed = no_trf or bbp_failed or checker_failed or unmatched or disagreements
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
