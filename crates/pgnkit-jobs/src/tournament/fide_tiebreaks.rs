//! FIDE's tie-breaks (Handbook C.07, Tie-Break Regulations in force from 1 August 2024) over a
//! [`CrossTable`], by their codes: `PTS`, `DE`, `WIN`, `WON`, `BPG`, `BWG`, `GE`, `PS`, `BH`, `FB`, `AOB`,
//! `SB`, `KS`, `ARO`, `TPR`, `PTP`, `APRO`, `APPO`, with the modifiers of article 14: `/C1`, `/C2` (cut the
//! one or two least significant values) and `/M1`, `/M2` (cut as many of the least and of the most
//! significant). A list is written `DE,BH/C1,BH,SB`; FIDE's checker writes a modifier `BH#C1`, read alike
//! ([`parse_list`]).
//!
//! **Column names.** A code's column in CSV and JSON is the code with its `/` written `_`: `BH/C1` is
//! `BH_C1`, `ARO/M2` is `ARO_M2`, `SB` is `SB` ([`TiebreakCode::column`]). They do not change.
//!
//! **Values are exact** ([`Value`], in hundredths): points are halves, Sonneborn-Berger quarters, `AOB` is
//! rounded to the hundredth and the rating averages (`ARO`, `APRO`, `APPO`) to the unit, half up; `TPR`
//! is `ARO` plus the `dp` of the score rounded to the hundredth (FIDE's table 8.1(a), [`super::perf`]);
//! `PTP` is the lowest rating whose expected score against the opponents (table 8.1(b)) reaches the score.
//! `DE` is a rank among the players it compares (1 the best, 0 when it separates nobody): lower is better.
//!
//! **Unplayed rounds** (article 16). A round is played when the game was played over the board (`1 = 0`,
//! and the unrated `W D L`); forfeits, byes and absences are not. Where the regulations leave a detail
//! open, FIDE's own checker (TEC-FIDE/TieBreakServer, `tiebreak.py`) was read and is followed:
//! * In a Swiss, each unplayed round of a player counts in their Buchholz-like sums as an opponent with
//!   the player's own points (the *dummy opponent*), and a player's points as seen by their opponents
//!   count the voluntarily unplayed rounds (VUR: half-point and zero-point byes, absences, forfeit losses)
//!   after the player's last round not of that kind as draws (16.3). A forfeit or a bye that brought a
//!   full point is no VUR, nor is the pairing-allocated bye.
//! * When a cut removes the least significant value, a VUR is cut before any other round (16.5), unless
//!   the least significant value proper is worth more than that VUR (which may happen with `SB`).
//! * In a round robin, forfeits count as the games scheduled (against their opponent), byes and absences
//!   count nothing, and unplayed rounds at the end count as zero for the opponents.
//! * `FB` (Fore Buchholz) counts every paired game of the last round, forfeits included, as a draw; a
//!   player not paired in the last round keeps what that round gave. A pairing-allocated bye in the last
//!   round keeps its point and gains a draw's half point, as the checker counts it.
//! * The expected scores of `PTP` are table 8.1(b)'s but at rating differences 411 (0.93) and 610 (0.99),
//!   where the checker's table departs from the regulations' (0.92, 0.98): pgnkit gives the checker's
//!   values, which arbiters see.
//! * `WIN` counts every round that gave a win's points (forfeit wins and full-point byes too), `WON` only
//!   games won over the board; `GE` counts the games played and the rounds won without playing; `BPG`
//!   and `BWG` count games played with Black. `KS` counts the points scored against the opponents
//!   (forfeits included) who scored at least half the rounds. The rating codes count the games played
//!   against rated opponents; a cut of `ARO`, `TPR` or `PTP` takes an unrated opponent first.
//! * `DE` compares the players tied on points and on the codes before it: among them, the points each
//!   scored against the others (averaged per opponent met more than once; forfeits count only in a round
//!   robin). When not all have met (in a Swiss), a player is ranked above the rest only when no other
//!   could still reach their score. Applied again within each group it leaves tied, until it separates no
//!   one more.
//!
//! [`default_tiebreaks`] gives the order FIDE recommends for each kind of tournament, [`values`] the values
//! of a list of codes for every player, and [`ranking`] the standings they make.

use std::cmp::Ordering;
use std::fmt;

use pgnkit::Color;

use super::crosstable::{CrossTable, Outcome, RoundCell};
use super::perf::performance;
pub(crate) use super::tiebreak_codes::{Kind, TiebreakCode};
#[cfg(test)]
pub(crate) use super::tiebreak_codes::{ParseReason, parse_list};

/// The kind of tournament, which changes how unplayed rounds count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TournamentKind {
    /// Everyone meets everyone (once or more): pre-determined pairings.
    RoundRobin,
    /// Pairings made round by round.
    Swiss,
}

/// The kind of a tournament: from its declared type when it names one (`Swiss` or a Swiss system's name,
/// `Round robin`, `RR`, `Berger`), else a round robin when the rounds are what one needs (one fewer than the players, or as
/// many, or twice that), else a Swiss.
pub(crate) fn tournament_kind(
    declared: Option<&str>,
    players: usize,
    rounds: usize,
) -> TournamentKind {
    let declared = declared.unwrap_or_default().to_ascii_uppercase();
    if declared.contains("SWISS") {
        return TournamentKind::Swiss;
    }
    // PGN's `EventType` "tourn" is its word for a round robin (PGN standard 9.2.1.1).
    if ["RR", "ROBIN", "BERGER"]
        .iter()
        .any(|w| declared.contains(w))
        || declared.trim() == "TOURN"
    {
        return TournamentKind::RoundRobin;
    }
    if ["DUTCH", "BURSTEIN", "DUBOV", "LIM"]
        .iter()
        .any(|w| declared.contains(w))
    {
        return TournamentKind::Swiss;
    }
    // Single round robin: one round fewer than players, or as many (one bye a round); double: twice that.
    let round_robin = rounds > 0
        && (players == rounds + 1
            || players == rounds
            || 2 * players == rounds + 2
            || 2 * players == rounds);
    if round_robin {
        TournamentKind::RoundRobin
    } else {
        TournamentKind::Swiss
    }
}

/// The tie-breaks FIDE recommends, in order: for a round robin direct encounter, wins, Sonneborn-Berger
/// and Koya; for a Swiss Buchholz cut 1, Buchholz, direct encounter, the average rating of the opponents
/// cut 1, wins, wins with Black, games with Black and Sonneborn-Berger.
pub(crate) fn default_tiebreaks(kind: TournamentKind) -> Vec<TiebreakCode> {
    use Kind::*;
    match kind {
        TournamentKind::RoundRobin => [DirectEncounter, Wins, SonnebornBerger, Koya]
            .map(TiebreakCode::plain)
            .to_vec(),
        TournamentKind::Swiss => vec![
            TiebreakCode::cut(Buchholz, 1),
            TiebreakCode::plain(Buchholz),
            TiebreakCode::plain(DirectEncounter),
            TiebreakCode::cut(AverageRating, 1),
            TiebreakCode::plain(Wins),
            TiebreakCode::plain(BlackWins),
            TiebreakCode::plain(BlackGames),
            TiebreakCode::plain(SonnebornBerger),
        ],
    }
}

/// A tie-break's value, exact: a whole number of hundredths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Value(pub(crate) i64);

impl Value {
    fn of_half_points(half_points: i64) -> Value {
        Value(half_points * 50)
    }

    fn whole(n: i64) -> Value {
        Value(n * 100)
    }
}

impl fmt::Display for Value {
    /// The fewest decimals that say it exactly: `12`, `12.5`, `12.25`, `-3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let (whole, cents) = (self.0.unsigned_abs() / 100, self.0.unsigned_abs() % 100);
        match cents {
            0 => write!(f, "{sign}{whole}"),
            c if c % 10 == 0 => write!(f, "{sign}{whole}.{}", c / 10),
            c => write!(f, "{sign}{whole}.{c:02}"),
        }
    }
}

/// The values of `codes` for every player of `table`: `values[player][code]`.
pub(crate) fn values(
    table: &CrossTable,
    kind: TournamentKind,
    codes: &[TiebreakCode],
) -> Vec<Vec<Value>> {
    Engine::new(table, kind).run(codes).0
}

/// The standings `codes` make: every player with their rank (from 1; players equal on points and on every
/// code share one), best first, players sharing a rank in start order.
pub(crate) fn ranking(
    table: &CrossTable,
    kind: TournamentKind,
    codes: &[TiebreakCode],
) -> Vec<(usize, u32)> {
    let (_, ranks, order) = Engine::new(table, kind).run(codes);
    order.into_iter().map(|p| (p, ranks[p])).collect()
}

/// The values of `codes` for every player (`values[player][code]`) and the standings they make (as
/// [`ranking`]), computed once.
pub(crate) fn values_and_ranking(
    table: &CrossTable,
    kind: TournamentKind,
    codes: &[TiebreakCode],
) -> (Vec<Vec<Value>>, Vec<(usize, u32)>) {
    let (values, ranks, order) = Engine::new(table, kind).run(codes);
    (values, order.into_iter().map(|p| (p, ranks[p])).collect())
}

/// A player's round as the tie-breaks read it.
#[derive(Clone, Copy)]
struct Round {
    /// The opponent, when the round had one (a game, a forfeit, a pairing without a result).
    opponent: Option<usize>,
    colour: Option<Color>,
    outcome: Outcome,
    half_points: i64,
}

impl Round {
    /// A game played over the board, or the pairing-allocated bye: the rounds FIDE's checker counts as
    /// taken part in (for `GE`, and for whether the last round was paired).
    fn took_part(&self) -> bool {
        self.outcome.is_played() || self.outcome == Outcome::PairingAllocatedBye
    }

    /// A game played over the board against an opponent.
    fn game(&self) -> Option<usize> {
        self.opponent.filter(|_| self.outcome.is_played())
    }

    fn won(&self) -> bool {
        self.half_points == 2
    }

    /// A voluntarily unplayed round (article 16): unplayed and not worth a win.
    fn voluntarily_unplayed(&self) -> bool {
        !self.took_part() && !self.won()
    }

    /// The points from the rating's view: a game's result, played or unrated.
    fn rating_half_points(&self) -> i64 {
        match self.outcome {
            Outcome::Win | Outcome::UnratedWin => 2,
            Outcome::Draw | Outcome::UnratedDraw => 1,
            _ => 0,
        }
    }
}

/// One term of a sum that cuts may shorten: its value, what orders it, and whether it is a VUR.
#[derive(Clone, Copy)]
struct Term {
    /// What a cut compares first: the opponent's (or dummy's) score.
    score: i64,
    /// What the term adds.
    value: i64,
    voluntarily_unplayed: bool,
}

struct Engine {
    kind: TournamentKind,
    rounds: usize,
    /// `grid[player][round]`.
    grid: Vec<Vec<Round>>,
    ratings: Vec<Option<i64>>,
    points: Vec<i64>,
}

impl Engine {
    fn new(table: &CrossTable, kind: TournamentKind) -> Engine {
        let players = table.entrants.len().max(table.rounds.len());
        let rounds = table.rounds.iter().map(Vec::len).max().unwrap_or(0);
        let grid: Vec<Vec<Round>> = (0..players)
            .map(|p| {
                (0..rounds)
                    .map(|r| {
                        let cell = table
                            .rounds
                            .get(p)
                            .and_then(|row| row.get(r))
                            .copied()
                            .filter(|c| c.outcome != Outcome::Unfinished)
                            // A pairing without a result counts as the TRF writes it, no pairing that
                            // round: FIDE's checker, reading pgnkit's TRF, then ranks as pgnkit does.
                            .unwrap_or(RoundCell::ABSENT);
                        let opponent = cell
                            .opponent
                            .filter(|&o| o < players && o != p && cell.outcome.has_opponent());
                        Round {
                            opponent,
                            colour: cell.colour,
                            outcome: cell.outcome,
                            half_points: i64::from(cell.outcome.half_points()),
                        }
                    })
                    .collect()
            })
            .collect();
        let points = grid
            .iter()
            .map(|row| row.iter().map(|r| r.half_points).sum())
            .collect();
        let ratings = (0..players)
            .map(|p| {
                table
                    .entrants
                    .get(p)
                    .and_then(|e| e.rating)
                    .filter(|&r| r > 0)
                    .map(i64::from)
            })
            .collect();
        Engine {
            kind,
            rounds,
            grid,
            ratings,
            points,
        }
    }

    fn swiss(&self) -> bool {
        self.kind == TournamentKind::Swiss
    }

    fn players(&self) -> usize {
        self.grid.len()
    }

    /// Values, ranks and the order, after every code in turn (players first ranked by points).
    fn run(&self, codes: &[TiebreakCode]) -> (Vec<Vec<Value>>, Vec<u32>, Vec<usize>) {
        let n = self.players();
        let mut values = vec![Vec::with_capacity(codes.len()); n];
        let mut ranks = vec![1u32; n];
        let mut order: Vec<usize> = (0..n).collect();
        let points: Vec<Value> = (0..n)
            .map(|p| Value::of_half_points(self.points[p]))
            .collect();
        rerank(&mut ranks, &mut order, &points, false);
        for code in codes {
            let column = self.column(code, &ranks, &order);
            rerank(&mut ranks, &mut order, &column, code.kind.lower_is_better());
            for (p, v) in column.into_iter().enumerate() {
                values[p].push(v);
            }
        }
        (values, ranks, order)
    }

    fn column(&self, code: &TiebreakCode, ranks: &[u32], order: &[usize]) -> Vec<Value> {
        let n = self.players();
        let per_player = |f: &dyn Fn(usize) -> Value| (0..n).map(f).collect::<Vec<Value>>();
        let count = |f: &dyn Fn(&Round) -> bool| {
            per_player(&|p| Value::whole(self.grid[p].iter().filter(|r| f(r)).count() as i64))
        };
        match code.kind {
            Kind::Points => per_player(&|p| Value::of_half_points(self.points[p])),
            Kind::Wins => count(&|r| r.won()),
            Kind::WonGames => count(&|r| r.won() && r.game().is_some()),
            Kind::BlackGames => count(&|r| r.took_part() && r.colour == Some(Color::Black)),
            Kind::BlackWins => {
                count(&|r| r.took_part() && r.colour == Some(Color::Black) && r.won())
            }
            Kind::ElectedGames => count(&|r| r.took_part() || r.won()),
            Kind::Progressive => per_player(&|p| self.progressive(p, code.cut_low)),
            Kind::Koya => per_player(&|p| self.koya(p)),
            Kind::Buchholz | Kind::ForeBuchholz | Kind::SonnebornBerger => {
                let sums = self.buchholz_like(code);
                sums.into_iter().map(Value).collect()
            }
            Kind::AverageOpponentsBuchholz => {
                let bh = self.buchholz_like(&TiebreakCode {
                    kind: Kind::Buchholz,
                    ..*code
                });
                // Hundredths averaged, rounded to the hundredth.
                self.average_over_opponents(&bh, 1)
            }
            Kind::AverageRating | Kind::PerformanceRating | Kind::PerfectPerformance => {
                per_player(&|p| Value::whole(self.rating_measure(p, code)))
            }
            Kind::AverageOpponentsPerformance | Kind::AverageOpponentsPerfectPerformance => {
                let inner = TiebreakCode {
                    kind: if code.kind == Kind::AverageOpponentsPerformance {
                        Kind::PerformanceRating
                    } else {
                        Kind::PerfectPerformance
                    },
                    ..*code
                };
                let measures: Vec<i64> = (0..n)
                    .map(|p| self.rating_measure(p, &inner) * 100)
                    .collect();
                self.average_over_opponents(&measures, 100)
            }
            Kind::DirectEncounter => self.direct_encounter(ranks, order),
        }
    }

    fn progressive(&self, p: usize, cut_first: u8) -> Value {
        let mut running = 0;
        let mut sum = 0;
        for (r, round) in self.grid[p].iter().enumerate() {
            running += round.half_points;
            if r >= usize::from(cut_first) {
                sum += running;
            }
        }
        Value::of_half_points(sum)
    }

    fn koya(&self, p: usize) -> Value {
        // Half the points possible, in half points: one a round.
        let limit = self.rounds as i64;
        let sum = self.grid[p]
            .iter()
            .filter(|r| r.opponent.is_some_and(|o| self.points[o] >= limit))
            .map(|r| r.half_points)
            .sum();
        Value::of_half_points(sum)
    }

    /// The last round (from 1; 0 for none) that was no VUR.
    fn last_not_voluntary(&self, p: usize) -> usize {
        self.grid[p]
            .iter()
            .rposition(|r| !r.voluntarily_unplayed())
            .map_or(0, |i| i + 1)
    }

    /// Whether `p` was paired (or given the pairing-allocated bye) in the last round: Fore Buchholz then
    /// counts that round as a draw.
    fn paired_in_last_round(&self, p: usize) -> bool {
        self.grid[p]
            .last()
            .is_some_and(|r| r.took_part() || r.opponent.is_some())
    }

    /// What the last round changes in `p`'s score for Fore Buchholz, in half points, when `p` took part in
    /// it: a draw's half point instead of the result of a game or forfeit. A pairing-allocated bye keeps
    /// its point and gains the half point too: that is how FIDE's checker counts it (the regulations do
    /// not say), and pgnkit gives the checker's values.
    fn fore_adjustment(&self, p: usize) -> i64 {
        match self.grid[p].last() {
            Some(last) if last.opponent.is_some() => 1 - last.half_points,
            Some(_) => 1,
            None => 0,
        }
    }

    /// `p`'s points as their opponents' Buchholz-like sums read them, in half points (article 16.3).
    fn adjusted_points(&self, p: usize, fore: bool) -> i64 {
        let fore = fore && self.paired_in_last_round(p);
        let last = self.last_not_voluntary(p);
        let unplayed_late = if self.swiss() { 1 } else { 0 };
        let sum: i64 = self.grid[p]
            .iter()
            .enumerate()
            .map(|(r, round)| {
                if r < last || fore || round.opponent.is_some() {
                    round.half_points
                } else {
                    unplayed_late
                }
            })
            .sum();
        sum + if fore { self.fore_adjustment(p) } else { 0 }
    }

    /// Buchholz, Fore Buchholz or Sonneborn-Berger of every player, in hundredths.
    fn buchholz_like(&self, code: &TiebreakCode) -> Vec<i64> {
        let fore = code.kind == Kind::ForeBuchholz;
        let sonneborn = code.kind == Kind::SonnebornBerger;
        let adjusted: Vec<i64> = (0..self.players())
            .map(|p| self.adjusted_points(p, fore))
            .collect();
        let last_round = self.rounds.saturating_sub(1);
        (0..self.players())
            .map(|p| {
                let own = self.points[p]
                    + if fore && self.paired_in_last_round(p) {
                        self.fore_adjustment(p)
                    } else {
                        0
                    };
                let mut terms = Vec::with_capacity(self.rounds);
                for (r, round) in self.grid[p].iter().enumerate() {
                    // A round robin counts forfeits as the games scheduled; Fore Buchholz counts the last
                    // round's pairings as games.
                    let as_game = !self.swiss() || (fore && r == last_round) || round.took_part();
                    let (score, voluntarily_unplayed) = match round.opponent {
                        Some(o) if as_game => (adjusted[o], false),
                        _ if self.swiss() => (own, round.voluntarily_unplayed()),
                        _ => continue,
                    };
                    let value = if sonneborn {
                        score * round.half_points * 25
                    } else {
                        score * 50
                    };
                    terms.push(Term {
                        score,
                        value,
                        voluntarily_unplayed,
                    });
                }
                self.cut_sum(terms, code)
            })
            .collect()
    }

    /// The sum of `terms` after the code's cuts (article 14, with 16.5's exception for VURs).
    fn cut_sum(&self, mut terms: Vec<Term>, code: &TiebreakCode) -> i64 {
        let low = usize::from(code.cut_low).min(self.rounds);
        let high = usize::from(code.cut_high).min(self.rounds - low);
        for _ in 0..low {
            if terms.is_empty() {
                break;
            }
            let mut least = terms.clone();
            least.sort_by_key(|t| (t.score, t.value));
            let mut voluntary_first = terms.clone();
            voluntary_first.sort_by_key(|t| (!t.voluntarily_unplayed, t.score, t.value));
            terms = if least[0].value > voluntary_first[0].value {
                least
            } else {
                voluntary_first
            };
            terms.remove(0);
        }
        for _ in 0..high {
            if terms.is_empty() {
                break;
            }
            terms.sort_by_key(|t| (std::cmp::Reverse(t.score), std::cmp::Reverse(t.value)));
            terms.remove(0);
        }
        terms.iter().map(|t| t.value).sum()
    }

    /// The average of `measure` (in hundredths) over each player's games, opponents whose measure is zero
    /// left out, rounded half up to a multiple of `unit` hundredths.
    fn average_over_opponents(&self, measure: &[i64], unit: i64) -> Vec<Value> {
        (0..self.players())
            .map(|p| {
                let taken: Vec<i64> = self.grid[p]
                    .iter()
                    .filter_map(Round::game)
                    .map(|o| measure[o])
                    .filter(|&m| m > 0)
                    .collect();
                if taken.is_empty() {
                    return Value(0);
                }
                let (sum, count) = (taken.iter().sum::<i64>(), taken.len() as i64 * unit);
                Value((2 * sum + count).div_euclid(2 * count) * unit)
            })
            .collect()
    }

    /// `ARO`, `TPR` or `PTP` of `p` after the code's cuts: a cut takes an unrated opponent first, else the
    /// lowest (or highest) rated one.
    fn rating_measure(&self, p: usize, code: &TiebreakCode) -> i64 {
        let games: Vec<&Round> = self.grid[p].iter().filter(|r| r.game().is_some()).collect();
        let mut unrated = games.len();
        let mut rated: Vec<(i64, i64)> = games
            .iter()
            .filter_map(|r| {
                let rating = self.ratings[r.opponent?]?;
                Some((rating, r.rating_half_points()))
            })
            .collect();
        unrated -= rated.len();
        let low = usize::from(code.cut_low).min(self.rounds);
        let high = usize::from(code.cut_high).min(self.rounds - low);
        for _ in 0..low {
            if unrated > 0 {
                unrated -= 1;
            } else if !rated.is_empty() {
                rated.sort_by_key(|&(rating, _)| rating);
                rated.remove(0);
            }
        }
        for _ in 0..high {
            if unrated > 0 {
                unrated -= 1;
            } else if !rated.is_empty() {
                rated.sort_by_key(|&(rating, _)| rating);
                rated.pop();
            }
        }
        let count = rated.len() as i64;
        if count == 0 {
            return 0;
        }
        let sum: i64 = rated.iter().map(|&(rating, _)| rating).sum();
        let score: i64 = rated.iter().map(|&(_, half)| half).sum();
        match code.kind {
            Kind::AverageRating => (2 * sum + count).div_euclid(2 * count),
            Kind::PerformanceRating | Kind::AverageOpponentsPerformance => {
                performance(sum as u64, count as u64, score as u64).unwrap_or(0)
            }
            _ => perfect_performance(score, rated.iter().map(|&(r, _)| r)),
        }
    }

    /// Direct encounter as a rank within each group of players tied before it (1 the best; 0 for players
    /// it separates from nobody).
    fn direct_encounter(&self, ranks: &[u32], order: &[usize]) -> Vec<Value> {
        let n = self.players();
        let mut place: Vec<i64> = ranks.iter().map(|&r| i64::from(r)).collect();
        let mut open = vec![true; n];
        let mut order: Vec<usize> = order.to_vec();
        loop {
            let mut changed = false;
            let mut start = 0;
            while start < order.len() {
                let stop = start
                    + order[start..]
                        .iter()
                        .take_while(|&&p| place[p] == place[order[start]])
                        .count();
                let group = &order[start..stop];
                if open[group[0]] {
                    let split = group.len() > 1 && self.encounter_round(group, &mut place);
                    for &p in group {
                        open[p] = split;
                    }
                    changed |= split;
                }
                start = stop;
            }
            order.sort_by_key(|&p| (ranks[p], place[p], p));
            if !changed {
                break;
            }
        }
        // Within each group tied before: 1, 2... when it separates anyone, else 0.
        let mut result = vec![Value(0); n];
        let mut start = 0;
        while start < order.len() {
            let stop = start
                + order[start..]
                    .iter()
                    .take_while(|&&p| ranks[p] == ranks[order[start]])
                    .count();
            let (first, last) = (place[order[start]], place[order[stop - 1]]);
            let offset = if first == last { first } else { first - 1 };
            for &p in &order[start..stop] {
                result[p] = Value::whole(place[p] - offset);
            }
            start = stop;
        }
        result
    }

    /// One pass of direct encounter over a group of players with the same place: new places by the points
    /// scored among them; whether it separated anyone.
    fn encounter_round(&self, group: &[usize], place: &mut [i64]) -> bool {
        let current = place[group[0]];
        let others = group.len() as i64 - 1;
        let mut all_met = true;
        let mut scores: Vec<(usize, Ratio, Ratio)> = Vec::with_capacity(group.len());
        for &p in group {
            // Per opponent of the group: the points and the games, averaged when they met more than once.
            let mut met: Vec<(usize, i64, i64)> = Vec::new();
            for round in &self.grid[p] {
                let Some(o) = round.opponent else { continue };
                let counts = !self.swiss() || round.took_part();
                if counts && place[o] == current {
                    match met.iter_mut().find(|m| m.0 == o) {
                        Some(m) => {
                            m.1 += round.half_points;
                            m.2 += 1;
                        }
                        None => met.push((o, round.half_points, 1)),
                    }
                }
            }
            let score = met.iter().fold(Ratio::ZERO, |acc, &(_, half, games)| {
                acc.add(Ratio::new(half, games))
            });
            let missing = others - met.len() as i64;
            let best = if self.swiss() && missing > 0 {
                all_met = false;
                score.add(Ratio::new(2 * missing, 1))
            } else {
                score
            };
            scores.push((p, score, best));
        }
        let mut changes = false;
        if all_met {
            scores.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            let (mut shared, mut previous) = (current, scores[0].1);
            for (i, &(p, score, _)) in scores.iter().enumerate().skip(1) {
                if score != previous {
                    shared = current + i as i64;
                    previous = score;
                    changes = true;
                }
                place[p] = shared;
            }
        } else {
            scores.sort_by(|a, b| b.1.cmp(&a.1).then(b.2.cmp(&a.2)).then(a.0.cmp(&b.0)));
            let (mut shared, mut previous, mut separate) = (current, scores[0].1, true);
            for i in 1..scores.len() {
                let best_below = scores[i..].iter().map(|s| s.2).max().unwrap_or(Ratio::ZERO);
                let (p, score, _) = scores[i];
                if separate && previous > best_below {
                    shared = current + i as i64;
                    changes = true;
                } else {
                    separate = false;
                }
                previous = score;
                place[p] = shared;
            }
        }
        changes
    }
}

/// Ranks after one more code: players sorted by rank, then by the code's value (the better first), then
/// start order; a player keeps sharing the rank of the one before when both were tied and the value is
/// the same.
fn rerank(ranks: &mut [u32], order: &mut [usize], column: &[Value], lower_is_better: bool) {
    let key = |p: usize| {
        if lower_is_better {
            column[p].0
        } else {
            -column[p].0
        }
    };
    order.sort_by_key(|&p| (ranks[p], key(p), p));
    let old: Vec<u32> = ranks.to_vec();
    let mut shared_rank = 0;
    let mut shared_value = Value(0);
    // A player opens a new rank at their position when they were not tied with the one before (their old
    // rank is their position) or their value differs.
    for (position, &p) in order.iter().enumerate() {
        let position_rank = position as u32 + 1;
        if position == 0 || old[p] == position_rank || column[p] != shared_value {
            shared_rank = position_rank;
            shared_value = column[p];
        }
        ranks[p] = shared_rank;
    }
}

/// The lowest rating whose expected score against `ratings` (FIDE's table 8.1(b)) reaches `half_points`
/// half points; 800 below the lowest rating for no point.
fn perfect_performance(half_points: i64, ratings: impl Iterator<Item = i64> + Clone) -> i64 {
    let (low, high) = ratings
        .clone()
        .fold((i64::MAX, i64::MIN), |(l, h), r| (l.min(r), h.max(r)));
    if half_points <= 0 || low > high {
        return if low > high { 0 } else { low - 800 };
    }
    // Expected score in hundredths against all opponents, for a rating.
    let expected = |rating: i64| -> i64 {
        ratings
            .clone()
            .map(|r| expected_hundredths(rating - r))
            .sum()
    };
    let target = half_points * 50;
    // The answer lies above low - 800 (where every expectation is 0) and at most high + 800.
    let (mut below, mut at) = (low - 800, high + 800);
    if expected(at) < target {
        return at;
    }
    while at - below > 1 {
        let mid = below + (at - below) / 2;
        if expected(mid) >= target {
            at = mid;
        } else {
            below = mid;
        }
    }
    at
}

/// The expected score, in hundredths, of a player `difference` points above their opponent (FIDE Rating
/// Regulations, table 8.1(b); differences beyond 800 count as 800). FIDE's checker departs from the table
/// at two differences, 411 (0.93, the table 0.92) and 610 (0.99, the table 0.98); pgnkit follows the
/// checker, whose values arbiters see.
fn expected_hundredths(difference: i64) -> i64 {
    // Upper ends of the difference ranges for 0.50, 0.51 ... 0.99; beyond the last, 1.00.
    const UPPER: [i64; 50] = [
        3, 10, 17, 25, 32, 39, 46, 53, 61, 68, 76, 83, 91, 98, 106, 113, 121, 129, 137, 145, 153,
        162, 170, 179, 188, 197, 206, 215, 225, 235, 245, 256, 267, 278, 290, 302, 315, 328, 344,
        357, 374, 391, 411, 432, 456, 484, 517, 559, 619, 735,
    ];
    let d = difference.abs().min(800);
    let checker = i64::from(d == 411 || d == 610);
    let above = 50 + UPPER.iter().take_while(|&&u| u < d).count() as i64 + checker;
    if difference >= 0 { above } else { 100 - above }
}

/// An exact fraction, for direct encounter's averages.
#[derive(Clone, Copy, Debug)]
struct Ratio {
    numerator: i64,
    denominator: i64,
}

impl Ratio {
    const ZERO: Ratio = Ratio {
        numerator: 0,
        denominator: 1,
    };

    fn new(numerator: i64, denominator: i64) -> Ratio {
        Ratio {
            numerator,
            denominator: denominator.max(1),
        }
    }

    fn add(self, other: Ratio) -> Ratio {
        let denominator = self.denominator * other.denominator;
        let numerator = self.numerator * other.denominator + other.numerator * self.denominator;
        let g = gcd(numerator.abs(), denominator).max(1);
        Ratio::new(numerator / g, denominator / g)
    }
}

fn gcd(a: i64, b: i64) -> i64 {
    if b == 0 { a } else { gcd(b, a % b) }
}

impl PartialEq for Ratio {
    fn eq(&self, other: &Ratio) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Ratio {}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        (i128::from(self.numerator) * i128::from(other.denominator))
            .cmp(&(i128::from(other.numerator) * i128::from(self.denominator)))
    }
}

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    use super::*;
    use crate::tournament::trf_read::{hundredths, read_trf};

    fn fixtures() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/trf")
    }

    /// Every `NAME*.expected.csv` of fixtures/trf (FIDE's checker's values for `NAME.trf`, see the README
    /// there): pgnkit's values and ranks, code by code and player by player.
    #[test]
    fn every_fixture_agrees_with_fides_checker() {
        let mut files = 0;
        let mut compared = 0;
        let mut mismatches = Vec::new();
        let mut names: Vec<PathBuf> = std::fs::read_dir(fixtures())
            .expect("fixtures/trf")
            .map(|e| e.expect("entry").path())
            .filter(|p| p.to_string_lossy().ends_with(".expected.csv"))
            .collect();
        names.sort();
        for expected in names {
            let file = expected.file_name().unwrap().to_string_lossy().into_owned();
            let stem = file.split('.').next().unwrap();
            let text = std::fs::read_to_string(fixtures().join(format!("{stem}.trf"))).unwrap();
            let trf = read_trf(&text).unwrap_or_else(|e| panic!("{stem}.trf: {e}"));
            let kind = tournament_kind(
                trf.header.tournament_type.as_deref(),
                trf.table.entrants.len(),
                trf.table.round_count(),
            );
            let csv = std::fs::read_to_string(&expected).unwrap();
            let mut rows = csv.lines();
            let header: Vec<&str> = rows.next().unwrap().split(',').collect();
            assert_eq!(&header[..2], ["StartNo", "Rank"], "{file}");
            let codes: Vec<TiebreakCode> = header[2..].iter().map(|c| c.parse().unwrap()).collect();
            let ours = values(&trf.table, kind, &codes);
            let mut rank_of = vec![0; trf.table.entrants.len()];
            for (player, rank) in ranking(&trf.table, kind, &codes) {
                rank_of[player] = rank;
            }
            for row in rows {
                let cells: Vec<&str> = row.split(',').collect();
                let start_rank: u16 = cells[0].parse().unwrap();
                let player = trf
                    .players
                    .iter()
                    .position(|p| p.start_rank == start_rank)
                    .unwrap();
                if cells[1].parse::<u32>().unwrap() != rank_of[player] {
                    mismatches.push(format!(
                        "{file}: player {start_rank}: rank {} (checker {})",
                        rank_of[player], cells[1]
                    ));
                }
                for (j, cell) in cells[2..].iter().enumerate() {
                    let theirs = hundredths(cell).unwrap();
                    compared += 1;
                    if theirs != ours[player][j].0 {
                        mismatches.push(format!(
                            "{file}: player {start_rank}: {} = {} (checker {cell})",
                            codes[j], ours[player][j]
                        ));
                    }
                }
            }
            files += 1;
        }
        assert!(files >= 10, "{files} expectation files");
        assert!(
            mismatches.is_empty(),
            "{} of {compared} values differ:\n{}",
            mismatches.len(),
            mismatches[..mismatches.len().min(40)].join("\n")
        );
    }

    #[test]
    fn codes_read_with_their_modifiers_and_name_their_columns() {
        let code: TiebreakCode = "BH/C1".parse().unwrap();
        assert_eq!(code, TiebreakCode::cut(Kind::Buchholz, 1));
        assert_eq!("bh#c1".parse::<TiebreakCode>().unwrap(), code);
        assert_eq!(code.to_string(), "BH/C1");
        assert_eq!(code.column(), "BH_C1");
        let median: TiebreakCode = "ARO/M2".parse().unwrap();
        assert_eq!((median.cut_low, median.cut_high), (2, 2));
        assert_eq!(median.column(), "ARO_M2");
        assert_eq!(
            parse_list("DE,BH/C1, BH,SB").unwrap(),
            [
                TiebreakCode::plain(Kind::DirectEncounter),
                code,
                TiebreakCode::plain(Kind::Buchholz),
                TiebreakCode::plain(Kind::SonnebornBerger)
            ]
        );
        assert_eq!(parse_list("PTS BH#C1").unwrap().len(), 2);
        for kind in Kind::ALL {
            let plain = TiebreakCode::plain(kind);
            assert_eq!(plain.to_string().parse::<TiebreakCode>().unwrap(), plain);
            assert_eq!(plain.column(), kind.code());
        }
        let reason = |text: &str| text.parse::<TiebreakCode>().unwrap_err().reason;
        assert_eq!(reason("XX"), ParseReason::UnknownCode);
        assert_eq!(reason("BH/C"), ParseReason::UnknownModifier("C".into()));
        assert_eq!(reason("BH/X1"), ParseReason::UnknownModifier("X1".into()));
        assert_eq!(reason("WIN/C1"), ParseReason::ModifierNotAllowed);
        assert_eq!(reason("BH/C1/M1"), ParseReason::TwoModifiers);
        assert_eq!(parse_list(" , ").unwrap_err().reason, ParseReason::Empty);
        let error = "WIN/C1".parse::<TiebreakCode>().unwrap_err();
        assert_eq!(
            error.to_string(),
            "\"WIN/C1\": this tie-break takes no cut or median modifier"
        );
        assert!(
            crate::messages::Explain::explain(&error, crate::messages::Locale::Fr)
                .contains("ce départage")
        );
    }

    #[test]
    fn values_are_written_with_the_decimals_they_need() {
        assert_eq!(Value(1200).to_string(), "12");
        assert_eq!(Value(1250).to_string(), "12.5");
        assert_eq!(Value(1225).to_string(), "12.25");
        assert_eq!(Value(1213).to_string(), "12.13");
        assert_eq!(Value(-300).to_string(), "-3");
        assert_eq!(Value(5).to_string(), "0.05");
    }

    #[test]
    fn kinds_of_tournaments_and_their_default_tie_breaks() {
        use TournamentKind::*;
        assert_eq!(tournament_kind(Some("Swiss Dutch"), 10, 9), Swiss);
        assert_eq!(tournament_kind(Some("FIDE_DUTCH_2025"), 10, 9), Swiss);
        assert_eq!(tournament_kind(Some("Round robin"), 40, 5), RoundRobin);
        // PGN's EventType for a round robin, whatever the counts; a word that only begins like it is not.
        assert_eq!(tournament_kind(Some("tourn"), 10, 4), RoundRobin);
        assert_eq!(tournament_kind(Some("Tournament"), 30, 9), Swiss);
        assert_eq!(tournament_kind(None, 10, 9), RoundRobin);
        assert_eq!(tournament_kind(None, 9, 9), RoundRobin);
        assert_eq!(tournament_kind(None, 6, 10), RoundRobin);
        assert_eq!(tournament_kind(None, 30, 9), Swiss);
        let round_robin: Vec<String> = default_tiebreaks(RoundRobin)
            .iter()
            .map(ToString::to_string)
            .collect();
        assert_eq!(round_robin, ["DE", "WIN", "SB", "KS"]);
        assert_eq!(default_tiebreaks(Swiss)[0].to_string(), "BH/C1");
    }

    /// Article 16 on a small Swiss: A is absent in the last round, D gets the pairing-allocated bye.
    #[test]
    fn unplayed_rounds_count_as_article_16_says() {
        use Outcome::*;
        let game = |opponent, colour, outcome| RoundCell {
            opponent: Some(opponent),
            colour: Some(colour),
            outcome,
        };
        let bye = |outcome| RoundCell {
            opponent: None,
            colour: None,
            outcome,
        };
        let (w, b) = (Color::White, Color::Black);
        let table = CrossTable {
            entrants: vec![Default::default(); 4],
            rounds: vec![
                vec![game(1, w, Win), game(2, w, Draw), bye(ZeroPointBye)],
                vec![game(0, b, Loss), game(3, w, Draw), game(2, w, Win)],
                vec![game(3, w, Win), game(0, b, Draw), game(1, b, Loss)],
                vec![game(2, b, Loss), game(1, b, Draw), bye(PairingAllocatedBye)],
            ],
        };
        let codes = parse_list("PTS,BH,BH/C1,WIN,WON,GE").unwrap();
        let v = values(&table, TournamentKind::Swiss, &codes);
        let show = |p: usize| v[p].iter().map(ToString::to_string).collect::<Vec<_>>();
        // B's Buchholz reads A's absence at the end as a draw: A counts 2, C and D 1½ each.
        assert_eq!(show(1), ["1.5", "5", "3.5", "1", "1", "3"]);
        // A's own absence is a dummy opponent with A's points, and the first round cut.
        assert_eq!(show(0), ["1.5", "4.5", "3", "1", "1", "2"]);
        // D's bye: a dummy with D's points, not a VUR; a win not won over the board.
        assert_eq!(show(3), ["1.5", "4.5", "3", "1", "0", "3"]);
    }
}
