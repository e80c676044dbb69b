#!/usr/bin/env bash
# Regenerates fixtures/trf/: tournaments in TRF and FIDE's tie-break checker's values for them, which the
# unit test `fide_tiebreaks::tests::every_fixture_agrees_with_fides_checker` compares pgnkit's engine with.
#   usage: benches/fide_tiebreaks.sh [BBP_EXE] [TIEBREAKSERVER_DIR]
# Defaults: /work/tools/bbpPairings/bbpPairings.exe (bbpPairings, `make` in its source) and
# /work/tools/TieBreakServer (a clone of TEC-FIDE/TieBreakServer). The Swiss tournaments come from
# bbpPairings' random tournament generator (fixed seeds), then edited so that every kind of round occurs
# (unrated games, a double forfeit, a full-point bye, absences written `Z`, `-` or left blank, a line that
# stops at a withdrawal, a forfeit in the last round, an unrated player); the round robins are drawn here
# from a fixed seed. Points are written as the results make them. The checker's output is stored as it
# prints it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/../fixtures/trf
bbp=${1:-/work/tools/bbpPairings/bbpPairings.exe}
tbs=${2:-/work/tools/TieBreakServer}
[ -x "$bbp" ] || { echo "no bbpPairings at $bbp" >&2; exit 2; }
[ -f "$tbs/tiebreakchecker.py" ] || { echo "no TieBreakServer at $tbs" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# Every code both the checker and pgnkit compute, with modifiers.
codes=(PTS BH#C1 BH#C2 BH#M1 BH SB SB#C1 FB AOB ARO ARO#C1 TPR PTP APRO APPO WIN WON BPG BWG GE KS PS DE)

generate() { # name players rounds forfeit-rate hpb-rate retired-rate seed
    printf 'PlayersNumber=%s\nRoundsNumber=%s\nForfeitRate=%s\nHalfPointByeRate=%s\nRetiredRate=%s\nDrawPercentage=30\n' \
        "$2" "$3" "$4" "$5" "$6" >"$work/$1.cfg"
    "$bbp" --dutch -g "$work/$1.cfg" -o "$work/$1.raw" -s "$7" >/dev/null
}

generate swiss-31x7 31 7 12 8 6 7
generate swiss-20x9 20 9 6 5 4 11
generate swiss-25x7 25 7 12 8 4 5
generate swiss-12x5 12 5 1000 1000 1000 3

python3 - "$work" "$out" <<'EOF'
import random, sys
work, out = sys.argv[1], sys.argv[2]
POINTS = {'1': 2, '=': 1, '0': 0, '+': 2, '-': 0, 'W': 2, 'D': 1, 'L': 0, 'H': 1, 'F': 2, 'U': 2, 'Z': 0, ' ': 0}
ANSWER = {'1': '0', '0': '1', '=': '=', '+': '-', '-': '+', 'W': 'L', 'L': 'W', 'D': 'D'}

def parse(text):
    header, players = [], {}
    for line in text.replace('\r\n', '\n').replace('\r', '\n').split('\n'):
        if line.startswith('001'):
            blocks = []
            for c in range(91, len(line), 10):
                b = line[c:c + 8].ljust(8)
                blocks.append([int(b[0:4]) if b[0:4].strip() else 0, b[5], b[7]])
            players[int(line[4:8])] = {'head': line[:91].ljust(91), 'blocks': blocks}
        elif line.strip() and not line.startswith('XXR'):
            header.append(line)
    return header, players

def first_pair(players, rnd, results, taken):
    for a in sorted(players):
        blocks = players[a]['blocks']
        if rnd < len(blocks):
            opp, col, res = blocks[rnd]
            if opp > a and res in results and (rnd, a) not in taken and (rnd, opp) not in taken:
                return a, opp
    return None

def set_pair(players, rnd, a, b, res_a, res_b, taken):
    players[a]['blocks'][rnd][2] = res_a
    players[b]['blocks'][rnd][2] = res_b
    taken.update({(rnd, a), (rnd, b)})

def edit(players, rounds):
    taken = set()
    for rnd, results, new in [(1, '10', 'W'), (2, '=', 'D'), (3, '10=', '-'), (rounds - 1, '1', '+')]:
        pair = first_pair(players, rnd, results, taken)
        if pair:
            a, b = pair
            old = players[a]['blocks'][rnd][2]
            res_a = {'W': 'W' if old == '1' else 'L', 'D': 'D', '-': '-', '+': '+'}[new]
            res_b = '-' if new == '-' else ANSWER[res_a]
            set_pair(players, rnd, a, b, res_a, res_b, taken)
    byes = [(r, p) for p in sorted(players) for r, b in enumerate(players[p]['blocks']) if b[2] == 'H']
    if byes:
        r, p = byes[0]
        players[p]['blocks'][r][2] = 'F'
    absences = [(r, p) for p in sorted(players) for r, b in enumerate(players[p]['blocks']) if b[2] == 'Z']
    if absences:
        r, p = absences[0]
        players[p]['blocks'][r][2] = '-'
    # Another absence left blank, and a withdrawn player's line ending at their last round played.
    for r, p in absences[1:2]:
        players[p]['blocks'][r][2] = ' '
    for p in sorted(players):
        blocks = players[p]['blocks']
        if len(blocks) > 2 and blocks[-1][2] == 'Z' and blocks[-2][2] != 'Z':
            blocks.pop()
            break
    last = max(players)
    players[last]['head'] = players[last]['head'][:48] + '    ' + players[last]['head'][52:]

def write(name, header, players, rounds, trf26=False):
    lines = []
    for line in header:
        lines.append(line)
    for p in sorted(players):
        head = players[p]['head']
        points = sum(POINTS[b[2]] for b in players[p]['blocks'])
        head = head[:80] + f'{points / 2:4.1f}' + head[84:]
        blocks = ''.join(f'  {b[0]:04d} {b[1]} {b[2]}' if b[0] else '          ' if b[2] == ' ' else f'  0000 - {b[2]}' for b in players[p]['blocks'])
        lines.append((head[:89] + blocks).rstrip())
    if trf26:
        lines.insert(1, f'142 {rounds}')
        text = '\r\n'.join(lines) + '\r\n'
    else:
        lines.append(f'XXR {rounds}')
        text = '\r'.join(lines) + '\r'
    with open(f'{out}/{name}.trf', 'w', newline='') as f:
        f.write(text)

for name, trf26 in [('swiss-31x7', False), ('swiss-20x9', True), ('swiss-25x7', False), ('swiss-12x5', False)]:
    header, players = parse(open(f'{work}/{name}.raw').read())
    rounds = max(len(p['blocks']) for p in players.values())
    edit(players, rounds)
    write(name, header, players, rounds, trf26)

def round_robin(name, n, cycles, seed, kind):
    rng = random.Random(seed)
    ids = list(range(1, n + 1)) + ([0] if n % 2 else [])
    m = len(ids)
    schedule = []
    for cycle in range(cycles):
        ring = ids[:]
        for r in range(m - 1):
            games = []
            for i in range(m // 2):
                a, b = ring[i], ring[m - 1 - i]
                if (r + cycle) % 2:
                    a, b = b, a
                games.append((a, b))
            schedule.append(games)
            ring = [ring[0]] + [ring[-1]] + ring[1:-1]
    def head(p):
        name = f'Player, Number {p}'
        return f'001 {p:4d} m    {name:<33} {2400 - 37 * p:4d} FID {1000 + p:>11} 1990/01/01'.ljust(91)
    players = {p: {'head': head(p), 'blocks': []} for p in range(1, n + 1)}
    for rnd, games in enumerate(schedule):
        for white, black in games:
            if 0 in (white, black):
                p = white or black
                players[p]['blocks'].append([0, '-', 'Z'])
                continue
            res = rng.choice('1=0=1')
            players[white]['blocks'].append([black, 'w', res])
            players[black]['blocks'].append([white, 'b', ANSWER[res]])
    rounds = len(schedule)
    taken = set()
    pair = first_pair(players, 1, '10=', taken)
    if pair:
        set_pair(players, 1, pair[0], pair[1], '+', '-', taken)
    pair = first_pair(players, 2, '10=', taken)
    if pair:
        set_pair(players, 2, pair[0], pair[1], 'D', 'D', taken)
    write(name, ['012 Fixture ' + name, '092 ' + kind], players, rounds)

round_robin('rr-8', 8, 1, 8, 'Individual round robin')
round_robin('rr-5-double', 5, 2, 5, 'Double round robin')
EOF

for trf in "$out"/*.trf; do
    # The kind of tournament said, not guessed: the checker takes 20 players in 9 rounds for a round robin.
    case $(basename "$trf") in rr-*) kind=-p ;; *) kind=-s ;; esac
    # The checker exits 1 when the ranks it computes differ from the file's (stale after the edits above).
    python3 "$tbs/tiebreakchecker.py" -c $kind -i "$trf" -f TRF -e 1 -t "${codes[@]}" -d C >"${trf%.trf}.expected.csv" || true
    head -1 "${trf%.trf}.expected.csv" | grep -q '^StartNo,Rank,PTS' || { echo "checker failed on $trf" >&2; exit 1; }
    # Direct encounter right after the points, where it decides most.
    python3 "$tbs/tiebreakchecker.py" -c $kind -i "$trf" -f TRF -e 1 -t PTS DE WIN SB -d C >"${trf%.trf}.de.expected.csv" || true
    head -1 "${trf%.trf}.de.expected.csv" | grep -q '^StartNo,Rank,PTS' || { echo "checker failed on $trf" >&2; exit 1; }
done
echo "checker $(git -C "$tbs" rev-parse --short HEAD 2>/dev/null || echo '?'): $(ls "$out"/*.expected.csv | wc -l) expectation files in $out"
