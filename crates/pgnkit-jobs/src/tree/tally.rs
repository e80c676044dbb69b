//! What the tree counts for one (position, move): the games, how they ended, the ratings and dates, added
//! game by game ([`Tally::add`]) and merged ([`Tally::merge`]) in any order with the same result.

use pgnkit::core::Color;

use crate::stats::dates::DateParts;
use crate::tournament::perf::rating_of;

/// How a game ended, from its `Result` tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    WhiteWins,
    Draw,
    BlackWins,
    /// `*` or anything else: the game counts, its result does not.
    Unknown,
}

/// What the tree needs of a game: its result, both ratings, its date.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GameFacts {
    pub(crate) outcome: Outcome,
    /// White's and Black's ratings (`WhiteElo`, `BlackElo`), when they are ratings.
    pub(crate) elo: [Option<u16>; 2],
    /// `YYYYMMDD` of a complete `Date` that is a real day; 0 when there is none.
    pub(crate) date: u32,
}

impl GameFacts {
    /// The facts of the game with these tag values.
    pub(crate) fn read(
        result: Option<&str>,
        white_elo: Option<&str>,
        black_elo: Option<&str>,
        date: Option<&str>,
    ) -> GameFacts {
        let outcome = match result.map(str::trim) {
            Some("1-0") => Outcome::WhiteWins,
            Some("0-1") => Outcome::BlackWins,
            Some("1/2-1/2") => Outcome::Draw,
            _ => Outcome::Unknown,
        };
        let date = date
            .map(DateParts::read)
            .and_then(DateParts::day)
            .map_or(0, |day| day.number());
        GameFacts {
            outcome,
            elo: [white_elo.and_then(rating_of), black_elo.and_then(rating_of)],
            date,
        }
    }

    /// Half-points the side `mover` scored: `None` when the result is unknown.
    fn half_points(&self, mover: Color) -> Option<u64> {
        let white = match self.outcome {
            Outcome::WhiteWins => 2,
            Outcome::Draw => 1,
            Outcome::BlackWins => 0,
            Outcome::Unknown => return None,
        };
        Some(match mover {
            Color::White => white,
            Color::Black => 2 - white,
        })
    }
}

/// The counts of one (position, move). Every field adds up (or takes the least or greatest), so tallies
/// merge in any order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    pub(crate) games: u64,
    pub(crate) white_wins: u64,
    pub(crate) draws: u64,
    pub(crate) black_wins: u64,
    /// Ratings of the side to move, and how many games had one.
    pub(crate) mover_elo_sum: u64,
    pub(crate) mover_elo_games: u64,
    /// Ratings of the other side, and how many games had one.
    pub(crate) opponent_elo_sum: u64,
    pub(crate) opponent_elo_games: u64,
    /// Games with a rated opponent and a known result (the performance's), and the mover's half-points in
    /// them.
    pub(crate) rated_games: u64,
    pub(crate) rated_half_points: u64,
    /// The opponents' ratings in those games.
    pub(crate) rated_opponent_sum: u64,
    /// Earliest and latest complete date (`YYYYMMDD`); 0 when no game had one.
    pub(crate) first_date: u32,
    pub(crate) last_date: u32,
    /// Polyglot keys the position was reached under ([`Reached`]).
    pub(crate) reached: Reached,
}

/// How a position was reached, for a Polyglot book: readers hash the en-passant file whenever a pawn of
/// the side to move stands beside the pawn that just advanced two squares, even when taking it is illegal
/// (the pawn is pinned), where the tree's position (FIDE's) has no en-passant square. Bit 8: reached
/// with the tree's own key; bit `f` (0-7): reached just after a double step on file `f` with such a pawn
/// beside it and no legal capture.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Reached(pub(crate) u16);

impl Reached {
    /// Reached under the position's own key.
    pub(crate) const PLAIN: Reached = Reached(1 << 8);

    /// Reached under the key with the en-passant file `file` hashed.
    pub(crate) fn passed_file(file: usize) -> Reached {
        Reached(1 << file)
    }

    /// Files whose key the position was also reached under.
    pub(crate) fn passed_files(self) -> impl Iterator<Item = usize> {
        (0..8).filter(move |f| self.0 & (1 << f) != 0)
    }

    /// Whether the position was reached under its own key.
    pub(crate) fn plain(self) -> bool {
        self.0 & Reached::PLAIN.0 != 0
    }
}

impl Tally {
    /// One game in which `mover` (the side to move in the position) played the move.
    pub(crate) fn add(&mut self, game: &GameFacts, mover: Color, reached: Reached) {
        self.games += 1;
        match game.outcome {
            Outcome::WhiteWins => self.white_wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::BlackWins => self.black_wins += 1,
            Outcome::Unknown => {}
        }
        let own = game.elo[mover.index()];
        let other = game.elo[mover.opposite().index()];
        if let Some(r) = own {
            self.mover_elo_sum += u64::from(r);
            self.mover_elo_games += 1;
        }
        if let Some(r) = other {
            self.opponent_elo_sum += u64::from(r);
            self.opponent_elo_games += 1;
            if let Some(half_points) = game.half_points(mover) {
                self.rated_games += 1;
                self.rated_half_points += half_points;
                self.rated_opponent_sum += u64::from(r);
            }
        }
        if game.date != 0 {
            self.add_dates(game.date, game.date);
        }
        self.reached.0 |= reached.0;
    }

    fn add_dates(&mut self, first: u32, last: u32) {
        if self.first_date == 0 || first < self.first_date {
            self.first_date = first;
        }
        self.last_date = self.last_date.max(last);
    }

    /// Adds what `other` counted.
    pub(crate) fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.white_wins += other.white_wins;
        self.draws += other.draws;
        self.black_wins += other.black_wins;
        self.mover_elo_sum += other.mover_elo_sum;
        self.mover_elo_games += other.mover_elo_games;
        self.opponent_elo_sum += other.opponent_elo_sum;
        self.opponent_elo_games += other.opponent_elo_games;
        self.rated_games += other.rated_games;
        self.rated_half_points += other.rated_half_points;
        self.rated_opponent_sum += other.rated_opponent_sum;
        if other.first_date != 0 {
            self.add_dates(other.first_date, other.last_date);
        }
        self.reached.0 |= other.reached.0;
    }

    /// The counters in the order [`Tally::from_counters`] takes them (a spilled run's fields).
    pub(crate) fn counters(&self) -> [u64; 14] {
        [
            self.games,
            self.white_wins,
            self.draws,
            self.black_wins,
            self.mover_elo_sum,
            self.mover_elo_games,
            self.opponent_elo_sum,
            self.opponent_elo_games,
            self.rated_games,
            self.rated_half_points,
            self.rated_opponent_sum,
            u64::from(self.first_date),
            u64::from(self.last_date),
            u64::from(self.reached.0),
        ]
    }

    /// The tally [`Tally::counters`] gave.
    pub(crate) fn from_counters(c: [u64; 14]) -> Tally {
        Tally {
            games: c[0],
            white_wins: c[1],
            draws: c[2],
            black_wins: c[3],
            mover_elo_sum: c[4],
            mover_elo_games: c[5],
            opponent_elo_sum: c[6],
            opponent_elo_games: c[7],
            rated_games: c[8],
            rated_half_points: c[9],
            rated_opponent_sum: c[10],
            first_date: c[11] as u32,
            last_date: c[12] as u32,
            reached: Reached(c[13] as u16),
        }
    }

    /// Wins, draws and losses of the side to move (`mover`).
    pub(crate) fn mover_results(&self, mover: Color) -> (u64, u64, u64) {
        match mover {
            Color::White => (self.white_wins, self.draws, self.black_wins),
            Color::Black => (self.black_wins, self.draws, self.white_wins),
        }
    }

    /// The side to move's score over the games with a known result, from 0 to 1.
    pub(crate) fn score(&self, mover: Color) -> Option<f64> {
        let (wins, draws, losses) = self.mover_results(mover);
        let decided = wins + draws + losses;
        (decided > 0).then(|| (wins as f64 + draws as f64 / 2.0) / decided as f64)
    }

    /// The average rating of the side to move, rounded half up.
    pub(crate) fn mover_elo(&self) -> Option<u64> {
        average(self.mover_elo_sum, self.mover_elo_games)
    }

    /// The average rating of the other side, rounded half up.
    pub(crate) fn opponent_elo(&self) -> Option<u64> {
        average(self.opponent_elo_sum, self.opponent_elo_games)
    }

    /// The side to move's performance rating as FIDE computes it (the opponents' average plus `dp` of the
    /// score), over the games with a rated opponent and a known result.
    pub(crate) fn performance(&self) -> Option<i64> {
        crate::tournament::perf::performance(
            self.rated_opponent_sum,
            self.rated_games,
            self.rated_half_points,
        )
    }
}

fn average(sum: u64, n: u64) -> Option<u64> {
    (n > 0).then(|| (2 * sum + n) / (2 * n))
}

/// A date kept as `YYYYMMDD`, in ISO form (`2025-05-01`); `None` for 0.
pub(crate) fn iso_date(date: u32) -> Option<String> {
    (date != 0).then(|| {
        format!(
            "{:04}-{:02}-{:02}",
            date / 10_000,
            date / 100 % 100,
            date % 100
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tallies_count_results_ratings_and_dates_for_the_side_to_move() {
        let win = GameFacts::read(Some("1-0"), Some("2400"), Some("2200"), Some("2024.03.05"));
        let loss = GameFacts::read(Some("0-1"), Some("2300"), Some("?"), Some("2023.??.??"));
        let unknown = GameFacts::read(Some("*"), None, Some("2000"), Some("2025.01.02"));
        let mut t = Tally::default();
        t.add(&win, Color::White, Reached::PLAIN);
        t.add(&loss, Color::White, Reached::PLAIN);
        t.add(&unknown, Color::White, Reached::passed_file(3));
        assert_eq!((t.games, t.white_wins, t.draws, t.black_wins), (3, 1, 0, 1));
        assert_eq!(t.score(Color::White), Some(0.5));
        assert_eq!(t.score(Color::Black), Some(0.5));
        assert_eq!(t.mover_elo(), Some(2350));
        assert_eq!(t.opponent_elo(), Some(2100));
        // Only the first game has a rated opponent and a result: 2200 + dp(1.00).
        assert_eq!(t.performance(), Some(3000));
        assert_eq!(iso_date(t.first_date).as_deref(), Some("2024-03-05"));
        assert_eq!(iso_date(t.last_date).as_deref(), Some("2025-01-02"));
        assert!(t.reached.plain());
        assert_eq!(t.reached.passed_files().collect::<Vec<_>>(), vec![3]);
    }

    #[test]
    fn merged_tallies_equal_one_tally_of_all_the_games() {
        let games = [
            GameFacts::read(Some("1-0"), Some("1500"), Some("1600"), Some("2020.01.01")),
            GameFacts::read(Some("1/2-1/2"), Some("1700"), None, Some("2019.12.31")),
            GameFacts::read(Some("0-1"), None, Some("1800"), None),
        ];
        let mut all = Tally::default();
        let (mut a, mut b) = (Tally::default(), Tally::default());
        for (i, g) in games.iter().enumerate() {
            all.add(g, Color::Black, Reached::PLAIN);
            if i == 1 { &mut a } else { &mut b }.add(g, Color::Black, Reached::PLAIN);
        }
        a.merge(&b);
        assert_eq!(a, all);
        assert_eq!(Tally::from_counters(all.counters()), all);
    }
}
