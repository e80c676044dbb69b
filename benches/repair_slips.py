#!/usr/bin/env python3
"""How many transcription slips `pgnkit repair` restores, per kind of slip, checked by python-chess.

Usage: benches/repair_slips.py [--bin target/release/pgnkit] DIR...
Each DIR holds what ../shared/tools/make-slips.py writes: slips.en.pgn, slips.fr.pgn and slips.expected.jsonl
(one line per game: its category and the original game's UCI moves). Both files are repaired by the binary; each
output game is read back by python-chess and its main line compared with the original move for move:
- right: a repair was made and the main line is the original's;
- wrong: a repair was made and it is not (the figure that must stay near zero);
- left: the game was left as it was (no certain repair); in brackets, how many of them had more than one move at
  the slip's ply after which the rest of the original replays (`moves_that_fit`), which no search can tell apart.
A game of the English file without a slip (the French-only `rook_as_king_fr` kind) must come out byte for byte.
Prints one table per language and the totals; exits 1 when a clean game changed. With --wrong, also one line
per wrong repair: the set, language, game number, kind, ply of the slip, the original move and what was written
in its place, and the first move where the repaired line leaves the original.
"""
import argparse, collections, io, json, logging, os, re, subprocess, sys, tempfile

import chess.pgn

logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)
FRENCH = {"R": "K", "D": "Q", "T": "R", "F": "B", "C": "N"}

def to_english(text):
    """French piece letters of the movetext (outside comments and tags) in English, for python-chess."""
    def moves(part):
        part = re.sub(r"(?<![\w-])([RDTFC])(?=[a-h1-8x])", lambda m: FRENCH[m.group(1)], part)
        return re.sub(r"=([DTFC])", lambda m: "=" + FRENCH[m.group(1)], part)
    out = []
    for line in text.split("\n"):
        if line.startswith("["):
            out.append(line)
            continue
        pieces = re.split(r"(\{[^}]*\})", line)
        out.append("".join(p if p.startswith("{") else moves(p) for p in pieces))
    return "\n".join(out)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/pgnkit")
    ap.add_argument("--wrong", action="store_true", help="list the wrong repairs")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()
    totals = {lang: collections.defaultdict(collections.Counter) for lang in ("en", "fr")}
    changed_clean = 0
    for d in args.dirs:
        expected = [json.loads(l) for l in open(os.path.join(d, "slips.expected.jsonl"))]
        for lang in ("en", "fr"):
            src = os.path.join(d, f"slips.{lang}.pgn")
            with tempfile.TemporaryDirectory() as tmp:
                out, report = os.path.join(tmp, "out.pgn"), os.path.join(tmp, "report.jsonl")
                subprocess.run([args.bin, "repair", "-q", "-j1", src, "-o", out, "--report", report],
                               stderr=subprocess.DEVNULL, check=False)
                repaired = {}
                for line in open(report):
                    r = json.loads(line)
                    repaired[r["game"]] = r["certain"]
                games_out = open(out, encoding="utf-8").read().split("\n\n[")
                games_in = open(src, encoding="utf-8").read().split("\n\n[")
                text = open(out, encoding="utf-8").read()
                reader = io.StringIO(to_english(text) if lang == "fr" else text)
                for number, e in enumerate(expected, 1):
                    game = chess.pgn.read_game(reader)
                    cat = e["category"]
                    if lang == "en" and not e["en_changed"]:
                        same = games_out[number - 1].strip() == games_in[number - 1].strip()
                        totals[lang]["clean (byte for byte)"]["total"] += 1
                        totals[lang]["clean (byte for byte)"]["right" if same else "wrong"] += 1
                        changed_clean += not same
                        continue
                    c = totals[lang][cat]
                    c["total"] += 1
                    if not repaired.get(number):
                        c["left"] += 1
                        c["open"] += e.get("moves_that_fit", 1) > 1
                        continue
                    uci = [m.uci() for m in game.mainline_moves()] if game else []
                    c["right" if uci == e["original_uci"] else "wrong"] += 1
                    if args.wrong and uci != e["original_uci"]:
                        at = next((i for i, (a, b) in enumerate(zip(uci, e["original_uci"])) if a != b),
                                  min(len(uci), len(e["original_uci"])))
                        print(f"wrong: {d} {lang} game {number} {cat} ply {e['ply']} original "
                              f"{e['original_san']}; repaired line leaves the original at ply {at + 1} "
                              f"({uci[at] if at < len(uci) else '-'} for "
                              f"{e['original_uci'][at] if at < len(e['original_uci']) else '-'})")
    for lang, per in totals.items():
        print(f"\n{lang}: kind, games, restored exactly, wrong repairs, left as they were (of them, with more than "
              "one move at the slip that lets the rest replay)")
        all_ = collections.Counter()
        for cat in sorted(per):
            c = per[cat]
            if not cat.startswith("clean"):
                all_.update(c)
            print(f"  {cat:24} {c['total']:5} {c['right']:5} ({100 * c['right'] / max(1, c['total']):5.1f}%) "
                  f"{c['wrong']:4} {c['left']:5} ({c['open']})")
        print(f"  {'all slips':24} {all_['total']:5} {all_['right']:5} ({100 * all_['right'] / max(1, all_['total']):5.1f}%) "
              f"{all_['wrong']:4} {all_['left']:5} ({all_['open']})")
    sys.exit(1 if changed_clean else 0)

main()
