//! Who played whom, in which round, with which colour, and how it ended: the games of each tournament kept
//! for its crosstable, in bounded memory.
//!
//! Two shapes of crosstable (chosen per tournament by [`Shape::of`]):
//! * a grid, player × player, when every pair of players met or there are at most
//!   [`GRID_MAX_PLAYERS`] players: the usual table of a round-robin, where each cell holds the row player's
//!   scores against the column player (several in a double round-robin);
//! * per round otherwise (a Swiss or an open): each row a player, each column a round, each cell the
//!   opponent's rank, the colour played and the score, as FIDE's tournament reports write them. A column is a
//!   round number ([`crate::tournament::round_number`]: `4.1` and `4.2` are round 4), games without
//!   one share a last column, and at most [`MAX_ROUND_COLUMNS`] columns are drawn: a table of every distinct
//!   Round of a hostile file would have as many columns as games.
//!
//! The games are the tournament model's ([`crate::tournament::Tournament::games_in_order`]): the page keeps
//! only how many of each shown tournament's games its crosstables draw ([`Pairings`]).

use std::collections::HashMap;

use crate::tournament::crosstable::{Outcome, PairingKind};
use crate::tournament::{Pairing, Tournament, TournamentKey};

/// At most this many players: a grid even when not every pair met (an unfinished round-robin).
pub(crate) const GRID_MAX_PLAYERS: usize = 16;
/// A round-robin of more players than this is shown per round all the same: a grid that wide is unreadable.
pub(crate) const GRID_WIDEST: usize = 40;
/// The most round columns of a per-round table: more than any real event has, few enough that the table stays
/// a few hundred kilobytes at [`super::Limits::crosstable_players`] rows.
pub(crate) const MAX_ROUND_COLUMNS: usize = 60;

/// A bye as the model places it ([`Tournament::byes_placed`]): the player's index among the tournament's
/// players, the round (from 1) and the bye's TRF code.
pub(crate) type Bye = (usize, u32, char);

/// A game of a tournament as the model gives it: White's index among its players, and the game seen from
/// White's side (the opponent is Black).
pub(crate) type Played<'t> = (usize, &'t Pairing);

/// How many games of the first tournaments met the crosstables draw: the first `max_pairings` games counted
/// over all of them, in input order. A tournament's games drawn are thus the first ones it counted.
#[derive(Clone, Debug)]
pub(crate) struct Pairings {
    drawn: HashMap<TournamentKey, usize>,
    max_tournaments: usize,
    max_pairings: usize,
    kept: usize,
    /// Games of kept tournaments that were not kept (over `max_pairings`).
    pub(crate) left_out: u64,
}

impl Pairings {
    /// Draws the games of the first `max_tournaments` tournaments met, `max_pairings` games in all.
    pub(crate) fn new(max_tournaments: usize, max_pairings: usize) -> Pairings {
        Pairings {
            drawn: HashMap::new(),
            max_tournaments,
            max_pairings,
            kept: 0,
            left_out: 0,
        }
    }

    /// A game was counted in the standings of the tournament `key`.
    pub(crate) fn add(&mut self, key: &TournamentKey) {
        // A tournament the page will not show: its games are not kept (no note: the page says how many
        // tournaments it left out).
        if !self.drawn.contains_key(key) && self.drawn.len() >= self.max_tournaments {
            return;
        }
        let drawn = self.drawn.entry(key.clone()).or_default();
        if self.kept >= self.max_pairings {
            self.left_out += 1;
            return;
        }
        self.kept += 1;
        *drawn += 1;
    }

    /// The games of the tournament `key`, `t` in the standings, that its crosstable draws (none when it is not
    /// kept).
    pub(crate) fn of<'t>(&self, key: &TournamentKey, t: &'t Tournament) -> Vec<Played<'t>> {
        let drawn = self.drawn.get(key).copied().unwrap_or(0);
        let mut games = t.games_in_order();
        games.truncate(drawn);
        games
    }
}

/// Each player's place in `players` (the tournament's player indices in rank order), by player index.
fn places(players: &[usize]) -> HashMap<usize, usize> {
    players.iter().enumerate().map(|(i, &p)| (p, i)).collect()
}

/// How a tournament's crosstable is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Player × player.
    Grid,
    /// Player × round.
    PerRound,
}

impl Shape {
    /// The shape for `players` (in rank order) and their games: a grid for a round-robin (every pair met)
    /// up to [`GRID_WIDEST`] players, or for at most [`GRID_MAX_PLAYERS`]; per round otherwise.
    pub(crate) fn of(players: &[usize], games: &[Played<'_>]) -> Shape {
        let n = players.len();
        if n <= GRID_MAX_PLAYERS {
            return Shape::Grid;
        }
        if n > GRID_WIDEST {
            return Shape::PerRound;
        }
        let index = places(players);
        let mut met = vec![false; n * n];
        for (white, p) in games {
            if let (Some(&w), Some(&b)) = (index.get(white), index.get(&p.opponent)) {
                met[w * n + b] = true;
                met[b * n + w] = true;
            }
        }
        let all_met = (0..n).all(|i| (0..n).all(|j| i == j || met[i * n + j]));
        if all_met {
            Shape::Grid
        } else {
            Shape::PerRound
        }
    }
}

/// A score as a crosstable writes it: `1`, `½`, `0`, `*` (unfinished).
pub(crate) fn score(half_points: Option<u8>) -> &'static str {
    match half_points {
        Some(2) => "1",
        Some(1) => "½",
        Some(0) => "0",
        Some(_) => "?",
        None => "*",
    }
}

/// A game's score as a crosstable writes it for the player who scored `half_points`: [`score`], or TRF's
/// marks of a forfeit, `+` won and `-` lost (a double forfeit is lost by both).
pub(crate) fn mark(kind: PairingKind, half_points: Option<u8>) -> &'static str {
    match Outcome::of_pairing(kind, half_points) {
        Outcome::ForfeitWin => "+",
        Outcome::ForfeitLoss => "-",
        _ => score(half_points),
    }
}

/// Black's score in a game White scored `half_points` in: a double forfeit is lost by both.
fn other_side(kind: PairingKind, half_points: Option<u8>) -> Option<u8> {
    match (kind, half_points) {
        (PairingKind::Forfeit, Some(0)) => Some(0),
        _ => half_points.map(|hp| 2 - hp.min(2)),
    }
}

/// The grid: `cells[i][j]` are the scores of player `i` against player `j` (rank order), in the order played.
pub(crate) fn grid(players: &[usize], games: &[Played<'_>]) -> Vec<Vec<Vec<&'static str>>> {
    let n = players.len();
    let index = places(players);
    let mut cells = vec![vec![Vec::new(); n]; n];
    for (white, p) in games {
        if let (Some(&w), Some(&b)) = (index.get(white), index.get(&p.opponent)) {
            cells[w][b].push(mark(p.kind, p.half_points));
            cells[b][w].push(mark(p.kind, other_side(p.kind, p.half_points)));
        }
    }
    cells
}

/// One cell of a per-round table: the opponent (index in rank order), whether the player had white, and
/// the player's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RoundCell {
    /// The opponent, as an index into the players in rank order.
    pub(crate) opponent: usize,
    /// The player had the white pieces.
    pub(crate) white: bool,
    /// The player's half points, `None` unfinished.
    pub(crate) half_points: Option<u8>,
    /// Whether the game was played, forfeited or lasted less than a move.
    pub(crate) kind: PairingKind,
}

/// A per-round table: its columns and, per player in rank order, per column, the games played in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct PerRound {
    /// The rounds shown, in order: numbers by value, then `None` (games without a round number).
    pub(crate) rounds: Vec<Option<u32>>,
    /// `cells[player][column]`: the player's games in that round.
    pub(crate) cells: Vec<Vec<Vec<RoundCell>>>,
    /// `byes[player][column]`: the player's bye in that round, by its TRF code.
    pub(crate) byes: Vec<Vec<Option<char>>>,
    /// Rounds beyond the columns shown.
    pub(crate) rounds_not_shown: usize,
    /// Games in those rounds, each counted once.
    pub(crate) games_not_shown: u64,
}

/// The per-round table of `players` (in rank order) over their games and `byes`, at most `max_columns` rounds wide (the
/// lowest round numbers; games without one last).
pub(crate) fn per_round(
    players: &[usize],
    games: &[Played<'_>],
    byes: &[Bye],
    max_columns: usize,
) -> PerRound {
    // Numbers first, by value, then no number: the order of `(is_none, number)`.
    let order = |round: Option<u32>| (round.is_none(), round);
    let distinct: std::collections::BTreeSet<(bool, Option<u32>)> = games
        .iter()
        .map(|(_, p)| order(p.round))
        .chain(byes.iter().map(|&(_, round, _)| order(Some(round))))
        .collect();
    let rounds: Vec<Option<u32>> = distinct.iter().take(max_columns).map(|&(_, r)| r).collect();
    let column: HashMap<Option<u32>, usize> =
        rounds.iter().enumerate().map(|(i, &r)| (r, i)).collect();
    let index = places(players);
    let mut cells = vec![vec![Vec::new(); rounds.len()]; players.len()];
    let mut games_not_shown = 0;
    for (white, p) in games {
        let Some(&c) = column.get(&p.round) else {
            games_not_shown += 1;
            continue;
        };
        if let (Some(&w), Some(&b)) = (index.get(white), index.get(&p.opponent)) {
            cells[w][c].push(RoundCell {
                opponent: b,
                white: true,
                half_points: p.half_points,
                kind: p.kind,
            });
            cells[b][c].push(RoundCell {
                opponent: w,
                white: false,
                half_points: other_side(p.kind, p.half_points),
                kind: p.kind,
            });
        }
    }
    let mut bye_cells = vec![vec![None; rounds.len()]; players.len()];
    for &(player, round, code) in byes {
        // A game of that round is what the player did in it: no bye is shown beside it.
        if let (Some(&c), Some(&p)) = (column.get(&Some(round)), index.get(&player))
            && cells[p][c].is_empty()
        {
            bye_cells[p][c] = Some(code);
        }
    }
    PerRound {
        rounds_not_shown: distinct.len() - rounds.len(),
        rounds,
        cells,
        byes: bye_cells,
        games_not_shown,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A player's index from a name: `A` is 0, `B` 1...; `P12` is 12.
    fn id(name: &str) -> usize {
        match name.strip_prefix('P') {
            Some(n) if !n.is_empty() => n.parse().unwrap(),
            _ => usize::from(name.as_bytes()[0] - b'A'),
        }
    }

    fn ids(names: &[&str]) -> Vec<usize> {
        names.iter().map(|n| id(n)).collect()
    }

    /// A game as the model keeps it, seen from White's side.
    fn pairing(round: &str, white: &str, black: &str, hp: Option<u8>) -> (usize, Pairing) {
        let p = Pairing {
            game: 0,
            round: crate::tournament::round_of(round),
            opponent: id(black),
            white: true,
            half_points: hp,
            opponent_rating: None,
            kind: crate::tournament::PairingKind::Played,
        };
        (id(white), p)
    }

    fn played(games: &[(usize, Pairing)]) -> Vec<Played<'_>> {
        games.iter().map(|(w, p)| (*w, p)).collect()
    }

    #[test]
    fn a_grid_holds_both_sides_of_each_game() {
        let players = ids(&["A", "B", "C"]);
        let games = [
            pairing("1", "A", "B", Some(2)),
            pairing("2", "C", "A", Some(1)),
            pairing("3", "B", "C", None),
            pairing("4", "B", "A", Some(2)),
        ];
        let games = played(&games);
        let cells = grid(&players, &games);
        assert_eq!(cells[0][1], ["1", "0"]);
        assert_eq!(cells[1][0], ["0", "1"]);
        assert_eq!(cells[0][2], ["½"]);
        assert_eq!(cells[2][0], ["½"]);
        assert_eq!(cells[1][2], ["*"]);
        assert!(cells[0][0].is_empty());
        assert_eq!(Shape::of(&players, &games), Shape::Grid);
    }

    #[test]
    fn forfeits_are_marked_as_trf_marks_them() {
        let players = ids(&["A", "B", "C"]);
        let forfeit = |round: &str, white: &str, black: &str, hp: u8| {
            let (w, mut p) = pairing(round, white, black, Some(hp));
            p.kind = PairingKind::Forfeit;
            (w, p)
        };
        // A wins by forfeit against B; B and C both forfeit.
        let games = [forfeit("1", "A", "B", 2), forfeit("2", "B", "C", 0)];
        let games = played(&games);
        let cells = grid(&players, &games);
        assert_eq!(
            (cells[0][1].as_slice(), cells[1][0].as_slice()),
            (&["+"][..], &["-"][..])
        );
        assert_eq!(
            (cells[1][2].as_slice(), cells[2][1].as_slice()),
            (&["-"][..], &["-"][..])
        );
        let table = per_round(&players, &games, &[], MAX_ROUND_COLUMNS);
        assert_eq!(table.cells[1][1][0].kind, PairingKind::Forfeit);
        assert_eq!(
            table.cells[2][1][0].half_points,
            Some(0),
            "a double forfeit is lost by both"
        );
    }

    #[test]
    fn per_round_cells_and_round_order() {
        let players = ids(&["A", "B", "C", "D"]);
        let games = [
            pairing("10", "A", "B", Some(0)),
            pairing("2.1", "C", "A", Some(1)),
            pairing("2.2", "B", "D", Some(2)),
            pairing("?", "D", "C", None),
        ];
        // D had a half-point bye in round 2, B one in round 3 (a round without games).
        let byes = [(id("D"), 2, 'H'), (id("B"), 3, 'F')];
        let PerRound {
            rounds,
            cells,
            byes,
            rounds_not_shown,
            games_not_shown,
        } = per_round(&players, &played(&games), &byes, MAX_ROUND_COLUMNS);
        // 2.1 and 2.2 are round 2; a Round that is no number goes last.
        assert_eq!(rounds, [Some(2), Some(3), Some(10), None]);
        assert_eq!(byes[3], [None, None, None, None], "D played B in round 2");
        assert_eq!(byes[1], [None, Some('F'), None, None]);
        assert_eq!((rounds_not_shown, games_not_shown), (0, 0));
        // A: round 2 black against C (a draw), round 10 white against B (a loss).
        assert_eq!(
            cells[0][0],
            [RoundCell {
                opponent: 2,
                white: false,
                half_points: Some(1),
                kind: PairingKind::Played,
            }]
        );
        assert_eq!(
            cells[0][2],
            [RoundCell {
                opponent: 1,
                white: true,
                half_points: Some(0),
                kind: PairingKind::Played,
            }]
        );
        assert_eq!(cells[3][3][0].half_points, None);
        assert_eq!(cells[1][0][0].half_points, Some(2));
    }

    #[test]
    fn a_column_per_round_number_and_no_more_than_asked() {
        let players = ids(&["A", "B"]);
        // Ten rounds, each with boards .1 and .2, and games without a round: eleven columns, five drawn.
        let mut games = Vec::new();
        for round in 1..=10 {
            for board in 1..=2 {
                games.push(pairing(&format!("{round}.{board}"), "A", "B", Some(1)));
            }
        }
        games.push(pairing("?", "B", "A", Some(2)));
        let games = played(&games);
        let all = per_round(&players, &games, &[], 100);
        assert_eq!(all.rounds.len(), 11);
        assert_eq!(all.rounds[10], None);
        assert_eq!(all.cells[0][0].len(), 2, "4.1 and 4.2 in one column");
        let cut = per_round(&players, &games, &[], 5);
        assert_eq!(cut.rounds, [Some(1), Some(2), Some(3), Some(4), Some(5)]);
        assert_eq!((cut.rounds_not_shown, cut.games_not_shown), (6, 11));
        assert!(cut.cells.iter().all(|row| row.len() == 5));
        assert_eq!(
            crate::report::Label::RoundsNotShown.text(crate::messages::Locale::En),
            format!(
                "Rounds not shown in this crosstable (beyond its first {MAX_ROUND_COLUMNS} columns)"
            )
        );
    }

    #[test]
    fn shape_by_size_and_completeness() {
        let names: Vec<String> = (0..20).map(|i| format!("P{i}")).collect();
        let players: Vec<usize> = (0..20).collect();
        let mut games = Vec::new();
        for i in 0..20 {
            for j in i + 1..20 {
                games.push(pairing("1", &names[i], &names[j], Some(1)));
            }
        }
        // 20 players who all met: a round-robin.
        assert_eq!(Shape::of(&players, &played(&games)), Shape::Grid);
        games.pop();
        assert_eq!(Shape::of(&players, &played(&games)), Shape::PerRound);
        assert_eq!(Shape::of(&players[..10], &played(&games)), Shape::Grid);
    }

    #[test]
    fn memory_is_bounded() {
        let pgn: String = ["T1", "T2", "T3", "T1", "T2"]
            .iter()
            .enumerate()
            .map(|(i, event)| {
                format!(
                    "[Event \"{event}\"]\n[Site \"S\"]\n[Date \"2024.01.01\"]\n[White \"A\"]\n[Black \"B{i}\"]\n[Result \"1-0\"]\n\n1-0\n\n"
                )
            })
            .collect();
        let mut standings = crate::tournament::Standings::new(100);
        let mut p = Pairings::new(2, 3);
        for game in pgnkit::pgn::parse_all(pgn.as_bytes()) {
            let entry = crate::tournament::GameEntry::of(&game).unwrap();
            if let crate::tournament::Added::Counted { .. } = standings.add(Some(&entry)) {
                p.add(&entry.key);
            }
        }
        let drawn: Vec<usize> = standings
            .tournaments()
            .enumerate()
            .map(|(i, key)| p.of(key, standings.tournament(i).unwrap().1).len())
            .collect();
        // T3 is not one of the first two tournaments; the last T2 game is over the pairing limit.
        assert_eq!(drawn, [2, 1, 0]);
        assert_eq!(p.left_out, 1);
    }
}
